"""What the listing tests share: the warehouses of listings built up to the marts they read (tests/listings/shared.py
says what each holds), their rows by listing, and the mart against config_checks on the settings the warehouse
holds of the listings a test loaded."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

import duckdb

from ingest import dbt_runner, pipeline
from ingest.capacity import config_checks
from ingest.home import Home
from ingest.warehouse import serving
from read_only_db import dict_rows, read_only
from session_build import built_once

Part = tuple[str, Callable[[Home], list[Path]], list[str]]


@dataclass(frozen=True)
class SharedListings:
    db: duckdb.DuckDBPyConnection
    names: dict[str, list[str]]  # part -> the file names it landed


def shared_listings(tmp_path_factory, name: str, parts: list[Part], models: list[str]) -> Iterator[SharedListings]:
    """The session's home ``name``, built once: each part's listings landed and ingested (each file with its status),
    built up to ``models`` and published; yields a read-only connection to it and the names of each part's files."""
    def build(home: Home) -> None:
        landed = {part: lander(home) for part, lander, _ in parts}
        results = pipeline.ingest_paths(home, [path for paths in landed.values() for path in paths])
        assert [r.status for r in results] == [status for _, _, statuses in parts for status in statuses]
        selected = " ".join(f"+{model}" for model in models)
        assert dbt_runner.build(home, select=selected, quiet=True) == 0, "dbt build failed (see stderr)"
        serving.publish(home)
        (home.root / "parts.json").write_text(json.dumps({part: [p.name for p in paths] for part, paths in landed.items()}))

    home = built_once(tmp_path_factory, name, build)
    names = json.loads((home.root / "parts.json").read_text())
    for db in read_only(home.db_path):
        yield SharedListings(db, names)


def by_listing(db, sql: str) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for row in dict_rows(db, sql):
        found.setdefault(row["listing"].rsplit("/", 1)[-1], []).append(row)
    return found


def assert_mart_finds_what_config_checks_finds(db, listings: list[str], not_in_sql: set[str]) -> None:
    """On each of the listings named (all loaded), the mart fires the rules config_checks finds, on the same nodes,
    and evaluates only rules config_checks applied; config_checks applies no more than `not_in_sql` besides."""
    settings = by_listing(db, "select f.path as listing, p.* from staging.stg_listings__parameters p "
                              "join raw.ingest_files f on f.file_id = p.source_file_id order by p.line_number")
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    settings = {name: rows for name, rows in settings.items() if name in listings}
    assert sorted(settings) == sorted(listings)
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
