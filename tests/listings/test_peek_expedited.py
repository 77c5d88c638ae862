"""PEEK /CPU n/ EXPEDITED (seed 001 L740-L822): the display read field by field, and the READLINK cache rules
001-aF12 (DISCARDED BEFORE USE and TOO LATE both high) and 001-aF13 (SYSGEN's default buffers unless PEEK
calls for more) on the document's Figure 3 and on the demo's displays, in config_checks and in the mart alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.capacity import config_checks
from ingest.formats.base import ParseContext
from ingest.formats.listings.peek_expedited import PARSER
from ingest.generate import peek
from listings.findings import assert_mart_finds_what_config_checks_finds, by_listing

FIGURE_3 = Path(__file__).parent / "golden" / "fig3__peek-cpu-1-exp__19861201T000000.out"


def _parse(path: Path):
    ctx = ParseContext(path)
    rows = [r for batch in PARSER.parse(path, ctx) for r in batch.rows.to_pylist()]
    return rows, [(r.line, r.reason) for r in ctx.rejects], ctx.records_read


def _findings(path: Path) -> list[tuple[str, str, str]]:
    return [(f.rule_id, f.node, f.found) for f in config_checks.check(config_checks.read_listing(path))]


def test_figure_3_keeps_both_rules():
    # 20 buffers allowed (SYSGEN's default, L812), 16 used, 0.0% discarded before use and 0.0% too late (L754)
    values = {r["parameter_key"]: r["value"] for r in _parse(FIGURE_3)[0]}
    assert (values["expedited_request_buffers"], values["buffers_used"], values["discarded_before_use"],
            values["too_late"], values["expedited_request_length"]) == (20, 16, 0.0, 0.0, 1536)
    assert _findings(FIGURE_3) == []
    _, applied = config_checks.evaluate(config_checks.read_listing(FIGURE_3))
    assert applied["001-aF12"] == applied["001-aF13"] == 1


def test_the_display_reads_alike_on_four_lines_and_a_damaged_line_is_rejected(tmp_path):
    one_line = FIGURE_3.read_text()
    four = tmp_path / "fig3__peek-cpu-1-exp__19861201T000000.out"
    four.write_text(one_line.replace(" BUFFERS USED", "  BUFFERS USED").replace(" REQUESTS", "\nREQUESTS")
                    .replace(" ATTEMPTS", "\nATTEMPTS").replace(" LENGTH", "\nLENGTH"))
    rows, rejects, read = _parse(four)
    assert read == 4 and rejects == []
    assert [(r["parameter"], r["value_text"]) for r in rows] == [(r["parameter"], r["value_text"]) for r in _parse(FIGURE_3)[0]]
    damaged = tmp_path / "PROD1__peek-cpu-2-exp__20260105T060000.out"
    damaged.write_text("EXPEDITED REQUEST TRANSMISSION BUFFERS: 20  BUFFERS USED: 20\n"
                       "REQUESTS CACHED: 9,412,377  DISCARDED BEFORE USE: 104.7%\n"
                       "ATTEMPTS TO READ FROM CACHE: 9,020,114  SUCCESSFUL: 91.3%  UNSUCCESSFUL: 8.7% (est.)\n"
                       "LENGTH > 1536b: 1.9%  TOO LATE: 6.8%\n")
    rows, rejects, read = _parse(damaged)
    assert read == 4 and {r["node"] for r in rows} == {"PROD1 CPU 2"}
    assert rejects == [(2, "line 2: expected a percentage from 0.0% to 100.0% after DISCARDED BEFORE USE:, found "
                           "'REQUESTS CACHED: 9,412,377  DISCARDED BEFORE USE: 104.7%'"),
                       (3, "line 3: expected only PEEK EXPEDITED fields ('LABEL: value'), found "
                           "'ATTEMPTS TO READ FROM CACHE: 9,020,114  SUCCESSFUL: 91.3%  UNSUCCESSFUL: 8.7% (e'")]  # 80 characters


def test_the_demo_cpus_fire_each_rule_once(tmp_path):
    found = sorted(f for path in peek.generate(tmp_path) for f in _findings(path))
    assert found == [("001-aF12", "PROD1 CPU 6", "4.7% discarded before use, 6.8% too late"),
                     ("001-aF13", "PROD1 CPU 1", "64 buffers allowed, at most 18 used since reload")]
    # \DEV1's CPU 0 prints Figure 3 byte for byte
    assert (tmp_path / "DEV1__peek-cpu-0-exp__20260105T060000.out").read_bytes() == FIGURE_3.read_bytes()


@pytest.fixture(scope="module")
def db(configuration_listings):
    return configuration_listings.db


def test_the_mart_finds_what_config_checks_finds_on_the_demo_displays(db, configuration_listings):
    displays = configuration_listings.names["peek"]  # the warehouse holds the other listing tests' listings too
    assert len(displays) == 3
    assert_mart_finds_what_config_checks_finds(db, displays, {"002-adapter-queues-150", "002-F20"})
    evaluations = by_listing(db, "select * from marts.rpt_config_findings where rule_id like '001-%'")
    assert sorted((r["rule_id"], r["node"], r["value"], r["limit_value"], r["fired"])
                  for rows in evaluations.values() for r in rows) == [
        ("001-aF12", "DEV1 CPU 0", 0.0, 0.0, False), ("001-aF12", "PROD1 CPU 1", 0.0, 0.0, False),
        ("001-aF12", "PROD1 CPU 6", 6.8, 0.0, True),
        ("001-aF13", "DEV1 CPU 0", 16.0, 20.0, False), ("001-aF13", "PROD1 CPU 1", 18.0, 20.0, True),
        ("001-aF13", "PROD1 CPU 6", 20.0, 20.0, False),
    ]
