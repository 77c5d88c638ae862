"""What the listing tests share: a warehouse of listings built up to rpt_config_findings, its rows by listing, and
the mart against config_checks on the settings the warehouse holds of every listing."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pathlib import Path
from typing import Callable

from ingest import dbt_runner, pipeline
from ingest.capacity import config_checks
from ingest.home import Home
from ingest.warehouse import serving
from read_only_db import dict_rows, read_only


def listings_warehouse(root: Path, listings: Callable[[Home], list[Path]], statuses: list[str],
                       model: str = "rpt_config_findings"):
    """A home holding the listings ``listings(home)`` lands, ingested (each with its status of ``statuses``) and
    built up to ``model``; yields a read-only connection to it."""
    home = Home(root).create()
    results = pipeline.ingest_paths(home, listings(home))
    assert [r.status for r in results] == statuses
    assert dbt_runner.build(home, select=f"+{model}", quiet=True) == 0, "dbt build failed (see stderr)"
    serving.publish(home)
    yield from read_only(home.db_path)


def by_listing(db, sql: str) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for row in dict_rows(db, sql):
        found.setdefault(row["listing"].rsplit("/", 1)[-1], []).append(row)
    return found


def assert_mart_finds_what_config_checks_finds(db, listings: int, not_in_sql: set[str]) -> None:
    """On each of the `listings` listings loaded, the mart fires the rules config_checks finds, on the same nodes,
    and evaluates only rules config_checks applied; config_checks applies no more than `not_in_sql` besides."""
    settings = by_listing(db, "select f.path as listing, p.* from staging.stg_listings__parameters p "
                              "join raw.ingest_files f on f.file_id = p.source_file_id order by p.line_number")
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    assert len(settings) == listings
    for name, rows in settings.items():
        # the canonical name the parser gave (a VTAM MODETAB's is its statement's), not one derived again
        findings, applied = config_checks.evaluate(
            [replace(config_checks.setting(r["node"], r["parameter"], r["value_text"], r["unit"], r["line_number"]),
                     key=r["parameter_key"]) for r in rows])
        fired = Counter((r["rule_id"], r["node"]) for r in evaluations.get(name, []) if r["fired"])
        assert fired == Counter((f.rule_id, f.node) for f in findings), name
        evaluated = {r["rule_id"] for r in evaluations.get(name, [])}
        assert evaluated <= set(applied), name
        assert set(applied) - evaluated <= not_in_sql, name
