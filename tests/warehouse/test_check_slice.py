"""``perfdb check`` validates the slice loaded since the last passing check; ``perfdb check --all`` everything,
a chunk of dates at a time.

A small system (2 processors) is loaded for three days and checked (the first check validates everything),
then one more day arrives: the nightly check reads that day's rows only (the counts the run reports are
the rows each suite's frame held), still fails on a broken row of that day, and leaves an older day to
``--all``.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil

import duckdb
import pytest

from ingest import cli, pipeline
from ingest.generate import measure
from ingest.generate._measure_inventory import SystemSpec
from ingest.home import Home
from quality import runner
from quality.suites import by_name

CPUS = 2
START = dt.date(2026, 1, 5)  # a Monday
SYSTEM = SystemSpec("\\SLICE1", cpus=CPUS, start=START, days=3, processes=8, discs=2, lines=1, seed=5)
NEW_DAY = START + dt.timedelta(days=3)
SHIFTS_PER_DAY = 3


def _generate(home: Home, start: dt.date, days: int) -> None:
    spec = SystemSpec(SYSTEM.name, cpus=CPUS, start=start, days=days, processes=8, discs=2, lines=1, seed=5)
    measure.generate(spec, home.landing / "measure", ["csv"])


@pytest.fixture(scope="module")
def nightly(tmp_path_factory):
    """A home after two nights: three days checked whole, then one new day checked as a slice."""
    home = Home(tmp_path_factory.mktemp("slice")).create()
    _generate(home, START, 3)
    first = pipeline.run(home, quiet=True)
    assert first.ok, [s for s in first.steps]
    _generate(home, NEW_DAY, 1)
    second = pipeline.run(home, quiet=True)
    assert second.ok, [s for s in second.steps]
    return home, first.validation, second.validation


def _copy(home: Home, root) -> Home:
    copy = Home(root).create()
    shutil.copyfile(home.db_path, copy.db_path)
    return copy


def _sql(home: Home, statement: str) -> None:
    con = duckdb.connect(str(home.db_path))
    try:
        con.execute(statement)
    finally:
        con.close()


def test_the_first_check_validates_everything(nightly):
    _home, first, _second = nightly
    assert first.scope == "all"
    assert first.rows_read["raw.measure_cpu"] == 3 * 24 * CPUS
    assert first.rows_read["intermediate.int_cpu__hourly"] == 3 * 24 * CPUS


def test_the_nightly_check_reads_only_the_new_day(nightly):
    _home, _first, second = nightly
    assert second.success and second.scope == "slice"
    rows = second.rows_read
    # raw: the new files' records, nothing older
    assert rows["raw.measure_cpu"] == 24 * CPUS
    assert rows["raw.measure_disc"] == 24 * 2
    assert rows["raw.measure_line"] == 24 * 1
    # marts: the hours of the new day; the shifts dated that day and the day before (a night shift may
    # run into the new day); the month holding it, whose rows are compared with all its shifts in SQL
    assert rows["intermediate.int_cpu__interval"] == 24 * CPUS
    assert rows["intermediate.int_cpu__hourly"] == 24 * CPUS
    assert rows["marts.fct_cpu_shift"] == 2 * SHIFTS_PER_DAY * CPUS
    assert rows["marts.fct_disc_shift"] == 2 * SHIFTS_PER_DAY * 2
    assert rows["marts.fct_cpu_monthly"] == SHIFTS_PER_DAY * CPUS
    # the catalogue suites read their (small) frames whole
    assert rows["raw.measure_cpu.columns"] > 0
    assert "1 (system, day)s" in second.scope_text


def test_check_all_reads_everything(nightly, tmp_path):
    home = _copy(nightly[0], tmp_path)
    report = runner.validate_warehouse(home, docs=False, store=False, everything=True)
    assert report.success and report.scope == "all"
    assert report.rows_read["raw.measure_cpu"] == 4 * 24 * CPUS
    assert report.rows_read["intermediate.int_cpu__hourly"] == 4 * 24 * CPUS
    assert report.rows_read["marts.fct_cpu_shift"] == 4 * SHIFTS_PER_DAY * CPUS


def _outcomes(report) -> list[tuple]:
    return [(o.suite, o.check, o.column, o.success, o.element_count, o.unexpected_count,
             None if o.unexpected_percent is None else round(o.unexpected_percent, 9), o.exception)
            for o in report.outcomes]


def test_check_all_in_chunks_equals_one_read(nightly, tmp_path):
    """``--all`` reads the tables a chunk of dates at a time; one day a chunk (the four days and the day
    before the first, whose date a night shift may carry) validates what one read of every row does."""
    home = _copy(nightly[0], tmp_path)
    whole = runner.validate_warehouse(home, docs=False, store=False, everything=True, chunk_days=None)
    chunked = runner.validate_warehouse(home, docs=False, store=False, everything=True, chunk_days=1)
    assert whole.success and chunked.success
    assert (whole.scope_text, chunked.scope_text) == ("every row", "every row, in 5 chunks of 1 days")
    assert chunked.rows_read == whole.rows_read and chunked.rows_read["raw.measure_process"] > 0
    assert chunked.suites_validated == whole.suites_validated and chunked.skipped == whole.skipped
    assert _outcomes(chunked) == _outcomes(whole)
    assert len(chunked.outcomes) > 100


def test_broken_rows_in_two_chunks_fail_check_all_once(nightly, tmp_path):
    """A row failing in any chunk fails the run; the expectation is reported once, with every chunk's rows."""
    home = _copy(nightly[0], tmp_path)
    for day in (START, NEW_DAY):
        _sql(home, f"update raw.measure_cpu set cpu_busy_time = -1 where cpu_num = 1 "
                   f"and from_timestamp = timestamp '{day} 10:00:00'")
    suites = [by_name("raw.measure_cpu")]
    whole = runner.validate_warehouse(home, suites, docs=False, store=False, everything=True, chunk_days=None)
    chunked = runner.validate_warehouse(home, suites, docs=False, store=False, everything=True, chunk_days=1)
    for report in (whole, chunked):
        assert not report.success
        [failure] = report.failures
        assert (failure.check, failure.unexpected_count, failure.element_count) == (
            "counters_not_negative", 2, 4 * 24 * CPUS)
        assert sorted(str(e["from_timestamp"]) for e in failure.examples) == [f"{START}T10:00:00", f"{NEW_DAY}T10:00:00"]
    assert _outcomes(chunked) == _outcomes(whole)


def test_a_broken_row_of_the_new_day_fails_the_slice(nightly, tmp_path):
    home = _copy(nightly[0], tmp_path)
    # the passing second check moved the mark: load the new day again as a later file, then break it
    _sql(home, "update audit.validation_runs set loaded_through = loaded_through - interval 1 second "
               "where loaded_through = (select max(loaded_through) from audit.validation_runs)")
    _sql(home, f"update raw.measure_cpu set cpu_busy_time = -1 where cpu_num = 1 "
               f"and from_timestamp = timestamp '{NEW_DAY} 10:00:00'")
    report = runner.validate_warehouse(home, [by_name("raw.measure_cpu")], docs=False, store=False,
                                       everything=False)
    assert report.scope == "slice"
    assert not report.success
    assert {o.check for o in report.failures} == {"counters_not_negative"}


def test_a_broken_row_of_an_older_day_is_left_to_check_all(nightly, tmp_path):
    home = _copy(nightly[0], tmp_path)
    _sql(home, f"update raw.measure_cpu set cpu_busy_time = -1 where cpu_num = 1 "
               f"and from_timestamp = timestamp '{START} 10:00:00'")
    suites = [by_name("raw.measure_cpu")]
    sliced = runner.validate_warehouse(home, suites, docs=False, store=False, everything=False)
    assert sliced.success and sliced.scope == "slice" and sliced.skipped == {
        "raw.measure_cpu": "no rows of raw.measure_cpu in the slice"
    }
    whole = runner.validate_warehouse(home, suites, docs=False, store=False, everything=True)
    assert {o.check for o in whole.failures} == {"counters_not_negative"}


def test_a_gap_before_the_new_day_is_found_however_old_the_previous_row(nightly, tmp_path):
    """The row before the slice comes from the whole table: a missing day before the new one is a gap."""
    home = _copy(nightly[0], tmp_path)
    _sql(home, "update audit.validation_runs set loaded_through = loaded_through - interval 1 second "
               "where loaded_through = (select max(loaded_through) from audit.validation_runs)")
    _sql(home, f"delete from raw.measure_cpu where cpu_num = 0 and cast(from_timestamp as date) = date '{NEW_DAY - dt.timedelta(days=1)}'")
    report = runner.validate_warehouse(home, [by_name("raw.measure_cpu")], docs=False, store=False,
                                       everything=False)
    assert report.rows_read["raw.measure_cpu"] == 24 * CPUS
    assert {o.check for o in report.failures} == {"no_gap_longer_than_an_interval"}


def test_cli_check_all_and_the_json_summary(nightly, tmp_path, capsys):
    home = _copy(nightly[0], tmp_path)
    assert cli.main(["--home", str(home.root), "--json", "check"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scope"] == "slice"  # nothing loaded since the last pass: no record read
    assert summary["rows_read_by_suite"]["raw.measure_cpu"] == 0
    assert cli.main(["--home", str(home.root), "--json", "check", "--all"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scope"] == "all" and summary["rows_read_by_suite"]["raw.measure_cpu"] == 4 * 24 * CPUS
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        runs = con.execute("select scope, success from audit.validation_runs order by started_at").fetchall()
    finally:
        con.close()
    assert runs == [("all", True), ("slice", True), ("slice", True), ("all", True)]
