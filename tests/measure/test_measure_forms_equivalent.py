"""Done-when of the core issue: the same generated measurement ingested as CSV, as binary and as MEASCOM
text gives identical rows in int_cpu__hourly (within the report's printed precision for the text form)."""

from __future__ import annotations

import duckdb
import pytest

from ingest import cli, dbt_runner, pipeline
from ingest.home import Home

COLUMNS = ("busy_pct", "ibusy_pct", "qlen", "mqlen", "swaps_per_s")
# MEASCOM RATE ON prints busy % and queue lengths with two decimals and rates with two decimals
TEXT_TOLERANCE = 0.0051


@pytest.fixture(scope="module")
def hourly_by_form(tmp_path_factory):
    root = tmp_path_factory.mktemp("forms")
    out = root / "generated"
    rc = cli.main([
        "--home", str(root / "gen_home"), "generate", "measure", "--system", "\\EQUIV", "--cpus", "4",
        "--days", "2", "--start", "2026-03-02", "--processes", "4", "--discs", "2", "--lines", "1",
        "--seed", "7", "--forms", "csv,binary,meascom", "--out", str(out),
    ])
    assert rc == 0
    tables = {}
    for form in ("csv", "binary", "meascom"):
        home = Home(root / f"home_{form}").create()
        results = pipeline.ingest_paths(home, [out / form])
        assert results and all(r.status == "loaded" for r in results), [m for r in results for m in r.messages]
        assert dbt_runner.run_dbt(home, ["build", "--select", "+int_cpu__hourly", "--exclude-resource-type", "test"], quiet=True) == 0
        with duckdb.connect(str(home.db_path), read_only=True) as con:
            tables[form] = con.execute(
                f"select system_name, cpu_num, hour_start, {', '.join(COLUMNS)} "
                "from intermediate.int_cpu__hourly order by system_name, cpu_num, hour_start"
            ).fetchall()
    return tables


def test_every_form_gives_every_cpu_hour(hourly_by_form):
    for form, rows in hourly_by_form.items():
        assert len(rows) == 4 * 24 * 2, form
        assert {r[0] for r in rows} == {"\\EQUIV"}


def test_binary_equals_csv_exactly(hourly_by_form):
    assert hourly_by_form["binary"] == hourly_by_form["csv"]


def test_text_equals_csv_within_printed_precision(hourly_by_form):
    for csv_row, text_row in zip(hourly_by_form["csv"], hourly_by_form["meascom"], strict=True):
        assert text_row[:3] == csv_row[:3]
        for name, a, b in zip(COLUMNS, csv_row[3:], text_row[3:]):
            assert b == pytest.approx(a, abs=TEXT_TOLERANCE), (csv_row[:3], name)
