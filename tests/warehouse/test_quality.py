"""Great Expectations suites (quality/): every expectation fails on data that breaks it, the demo warehouse
passes, and every run is kept in audit.validation_runs / audit.validation_results.

The broken warehouses are copies of the demo warehouse's perfdb.duckdb with targeted SQL edits; a suite is
validated on its own (in-memory GX context, no Data Docs) to keep the tests fast.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import duckdb
import pytest

from ingest.home import Home
from quality import gx_validation, runner
from quality.report import QUERY_CHECK
from quality.suite import check_id
from quality.suites import all_suites, by_name, marts_cpu, marts_devices, raw_measure


def _copy_warehouse(demo_home: Home, root) -> Home:
    """A home holding a private copy of the demo's perfdb.duckdb (the demo publish checkpointed it)."""
    home = Home(root).create()
    shutil.copyfile(demo_home.db_path, home.db_path)
    return home


def _sql(home: Home, statements: list[str]) -> None:
    con = duckdb.connect(str(home.db_path))
    try:
        for statement in statements:
            con.execute(statement)
    finally:
        con.close()


def _validate(home: Home, suite_name: str):
    return runner.validate_warehouse(home, [by_name(suite_name)], docs=False, store=False)


def _failed_checks(report) -> set[str]:
    return {o.check for o in report.outcomes if not o.success}  # failures and warnings


def _validate_changed(demo_home: Home, tmp_path: Path, suite_name: str, statements: list[str]):
    """The validation of suite ``suite_name`` in a copy of the demo warehouse that ``statements`` changed."""
    home = _copy_warehouse(demo_home, tmp_path / "home")
    _sql(home, statements)
    return _validate(home, suite_name)


def _one_failure(report, check: str):
    """The failure of ``report`` when ``check`` is its only failing check and one row fails it."""
    assert _failed_checks(report) == {check}
    (failure,) = report.failures
    assert failure.unexpected_count == 1
    return failure


def _checks(suite_name: str) -> set[str]:
    return {check_id(e.meta, e.expectation_type) for e in by_name(suite_name).expectations()}


# -- breaking data, one SQL edit per expectation --------------------------------------------------------

def _nth(table: str, n: int, where: str = "true") -> str:
    """The n-th row of a table (rowid order), so that each edit touches its own row."""
    return f"rowid = (select rowid from {table} where {where} order by rowid limit 1 offset {n})"


def _raw_record_breaks(table: raw_measure.RawTable) -> dict[str, list[str]]:
    t = f"raw.{table.name}"
    breaks: dict[str, list[str]] = {}
    if table.continuous:
        # first, before other edits touch the entity: two consecutive intervals of one entity go missing
        same_entity = " and ".join(f'"{c}" = (select "{c}" from {t} order by rowid limit 1)' for c in table.continuous)
        breaks["no_gap_longer_than_an_interval"] = [
            f"delete from {t} where {same_entity} and from_timestamp in "
            f"(select distinct from_timestamp from {t} where {same_entity} order by 1 limit 2 offset 10)"
        ]
    rows = iter(range(20, 10_000, 3))
    for column in (*table.key, "from_timestamp", "to_timestamp", "delta_time"):
        breaks[f"{column}_not_null"] = [f'update {t} set "{column}" = null where {_nth(t, next(rows))}']
    breaks["natural_key_unique_per_file"] = [f"insert into {t} select * from {t} where {_nth(t, next(rows))}"]
    breaks["system_name_is_a_node_name"] = [f"update {t} set system_name = ltrim(system_name, '\\') where {_nth(t, next(rows))}"]
    breaks["starts_after_measure_epoch"] = [
        f"update {t} set from_timestamp = timestamp '1974-12-31 00:00:00', to_timestamp = timestamp '1974-12-31 01:00:00' "
        f"where {_nth(t, next(rows))}"
    ]
    breaks["ends_before_file_arrived"] = [
        f"update {t} set from_timestamp = from_timestamp + interval 20 year, to_timestamp = to_timestamp + interval 20 year "
        f"where {_nth(t, next(rows))}"
    ]
    breaks["inside_loadid_hour"] = [f"update {t} set loadid = 'DT36623' where {_nth(t, next(rows), 'month(from_timestamp) < 12')}"]
    breaks["interval_length_in_range"] = [f"update {t} set delta_time = 7200000000 where {_nth(t, next(rows))}"]
    breaks["interval_matches_timestamps"] = [f"update {t} set to_timestamp = to_timestamp + interval 5 minute where {_nth(t, next(rows))}"]
    breaks["counters_not_negative"] = [f'update {t} set "{table.counters[0]}" = -1 where {_nth(t, next(rows))}']
    if table.continuous:  # an interval moved back by half its length: it overlaps the one before it
        breaks["no_overlap_with_the_interval_before"] = [
            f"update {t} set from_timestamp = from_timestamp - to_microseconds(delta_time // 2), "
            f"to_timestamp = to_timestamp - to_microseconds(delta_time // 2) where {_nth(t, next(rows))}"]
    return breaks


def _raw_required_breaks(table: raw_measure.RawTable) -> dict[str, list[str]]:
    """A required counter NULL in every record of one system-day (the first system's first day)."""
    t = f"raw.{table.name}"
    system = f"(select min(system_name) from {t})"
    day = f"system_name = {system} and cast(from_timestamp as date) = " \
          f"(select min(cast(from_timestamp as date)) from {t} where system_name = {system})"
    return {f"{c}_present": [f'update {t} set "{c}" = null where {day}'] for c in table.required}


def _raw_column_breaks(table: raw_measure.RawTable) -> dict[str, list[str]]:
    t = f"raw.{table.name}"
    return {
        "contract_columns_present": [f"alter table {t} rename column os_version to os_release"],
        "contract_column_types": [f'alter table {t} alter column "error" type varchar'],
    }


def _interval_breaks() -> dict[str, list[str]]:
    t = "intermediate.int_cpu__interval"
    first_cpu = "system_name = (select system_name from {t} order by rowid limit 1) and cpu_num = 0".format(t=t)
    breaks = {
        "no_gap_longer_than_an_interval": [
            f"delete from {t} where {first_cpu} and interval_start in "
            f"(select interval_start from {t} where {first_cpu} order by 1 limit 2 offset 10)"
        ]
    }
    rows = iter(range(20, 10_000, 2))
    breaks |= {f"{c}_not_null": [f"update {t} set {c} = null where {_nth(t, next(rows))}"]
               for c in ("source", *marts_cpu.INTERVAL_KEY, "interval_end")}
    breaks["one_row_per_cpu_interval"] = [f"insert into {t} select * from {t} where {_nth(t, next(rows))}"]
    breaks |= _percentage_breaks(t, marts_cpu.PERCENTAGES, rows)
    breaks |= {f"{m}_not_negative": [f"update {t} set {m} = -0.5 where {_nth(t, next(rows))}"] for m in marts_cpu.RATES}
    breaks["interval_length_in_range"] = [
        f"update {t} set interval_s = 7200, interval_end = interval_start + interval 2 hour where {_nth(t, next(rows))}"
    ]
    breaks["interval_matches_timestamps"] = [f"update {t} set interval_end = interval_end + interval 5 minute where {_nth(t, next(rows))}"]
    return breaks


def _percentage_breaks(t: str, columns, rows) -> dict[str, list[str]]:
    """150 % fails the range; 102 % stays within counter skew and is the warning over 100 %."""
    breaks = {f"{c}_in_range": [f"update {t} set {c} = 150 where {_nth(t, next(rows))}"] for c in columns}
    return breaks | {f"{c}_at_most_100": [f"update {t} set {c} = 102 where {_nth(t, next(rows))}"] for c in columns}


def _hourly_breaks() -> dict[str, list[str]]:
    t = "intermediate.int_cpu__hourly"
    rows = iter(range(0, 10_000, 2))
    breaks = {f"{c}_not_null": [f"update {t} set {c} = null where {_nth(t, next(rows))}"] for c in marts_cpu.HOURLY_KEY}
    breaks["one_row_per_cpu_hour"] = [f"insert into {t} select * from {t} where {_nth(t, next(rows))}"]
    breaks |= _percentage_breaks(t, marts_cpu.PERCENTAGES, rows)
    breaks |= {f"{m}_not_negative": [f"update {t} set {m} = -0.5 where {_nth(t, next(rows))}"] for m in marts_cpu.RATES}
    breaks["measured_at_most_an_hour"] = [f"update {t} set measured_s = 7200 where {_nth(t, next(rows))}"]
    return breaks


def _shift_breaks() -> dict[str, list[str]]:
    t = "marts.fct_cpu_shift"
    # shifts away from the first and last measured day are complete
    middle = f"shift_date between (select min(shift_date) + 2 from {t}) and (select max(shift_date) - 2 from {t})"
    rows = iter(range(0, 10_000, 2))
    breaks = {f"{c}_not_null": [f"update {t} set {c} = null where {_nth(t, next(rows))}"] for c in marts_cpu.SHIFT_KEY}
    breaks["one_row_per_cpu_shift"] = [f"insert into {t} select * from {t} where {_nth(t, next(rows))}"]
    breaks["complete_shift_has_all_hours"] = [f"update {t} set n_hours = n_hours - 1 where {_nth(t, next(rows), middle)}"]
    breaks["no_more_hours_than_the_shift"] = [f"update {t} set n_hours = n_hours + 1 where {_nth(t, next(rows), middle)}"]
    percentages = [f"{m}_{a}" for m in marts_cpu.PERCENTAGES for a in ("avg", "max", "min")]
    breaks |= _percentage_breaks(t, (*percentages, "busy_pct_spread_across_hours"), rows)
    breaks |= {f"{c}_not_negative": [f"update {t} set {c} = -1 where {_nth(t, next(rows))}"]
               for c in ("qlen_spread_across_hours", *(f"{m}_min" for m in marts_cpu.RATES))}
    # a measure only one platform has (SWAPS, MQLEN, IBUSY, SBUSY of MEASURE) is null on the other's rows, where
    # max + 1 is null too and breaks nothing: the row edited is one that has the measure
    breaks |= {f"{m}_avg_between_min_and_max": [
        f"update {t} set {m}_avg = {m}_max + 1 where {_nth(t, next(rows), f'{m}_max is not null')}"]
        for m in marts_cpu.MEASURES}
    return breaks


def _monthly_breaks() -> dict[str, list[str]]:
    t = "marts.fct_cpu_monthly"
    rows = iter(range(0, 10_000))
    breaks = {
        "one_row_per_cpu_shift_month": [f"insert into {t} select * from {t} where {_nth(t, next(rows))}"],
        "months_and_shifts_match": [f"delete from {t} where {_nth(t, next(rows))}"],
        "n_shifts_diff_equals_shift_rows": [f"update {t} set n_shifts = n_shifts + 1 where {_nth(t, next(rows))}"],
        "n_hours_diff_equals_shift_rows": [f"update {t} set n_hours = n_hours + 1 where {_nth(t, next(rows))}"],
    }
    # a row that has the measure: z/OS processors have no queue figures, and the rows' order depends on
    # the nights the table was built in
    breaks |= {f"{c}_equals_shift_rows": [f"update {t} set {c} = {c} + 1 where {_nth(t, next(rows), f'{c} is not null')}"]
               for c in marts_cpu.SHIFT_COLUMNS}
    return breaks


def _threshold_breaks() -> dict[str, list[str]]:
    t = "marts.rpt_threshold_violations"
    keys = ", ".join(marts_cpu.REPORT_KEY)
    return {
        "one_row_per_cpu_shift": [f"insert into {t} select * from {t} where {_nth(t, 0)}"],
        "reported_rows_cross_a_rule": [
            f"insert into {t} ({keys}) select {keys} from marts.fct_cpu_shift "
            f"anti join {t} using ({keys}) order by {keys} limit 1"
        ],
        "every_crossing_is_reported": [f"delete from {t} where {_nth(t, 5)}"],
        "crossed_flags_match_the_rules": [f"update {t} set crossed_busy_pct_max = not crossed_busy_pct_max where {_nth(t, 10)}"],
    }


def _device_breaks(table: str, measures: tuple[str, ...], ordering_check: str, ordering_edit: str) -> dict[str, list[str]]:
    t = f"marts.{table}"
    rows = iter(range(0, 10_000, 2))
    unique = "one_row_per_volume_shift" if table == "fct_disc_shift" else "one_row_per_line_shift"
    breaks = {unique: [f"insert into {t} select * from {t} where {_nth(t, next(rows))}"]}
    if "cache_hit_ratio" in measures:
        breaks |= {f"cache_hit_ratio_{a}_in_range": [f"update {t} set cache_hit_ratio_{a} = 1.5 where {_nth(t, next(rows))}"]
                   for a in ("avg", "max", "min")}
    breaks |= {f"{m}_min_not_negative": [f"update {t} set {m}_min = -1 where {_nth(t, next(rows))}"]
               for m in measures if m != "cache_hit_ratio"}
    breaks[ordering_check] = [f"update {t} set {ordering_edit} where {_nth(t, next(rows))}"]
    return breaks


# dependents first: a suite is validated before the relations it reads are broken for the next one
BREAKS: dict[str, dict[str, list[str]]] = {
    "marts.rpt_threshold_violations": _threshold_breaks(),
    "marts.fct_cpu_monthly": _monthly_breaks(),
    "marts.fct_cpu_shift": _shift_breaks(),
    "intermediate.int_cpu__hourly": _hourly_breaks(),
    "intermediate.int_cpu__interval": _interval_breaks(),
    "marts.fct_disc_shift": _device_breaks("fct_disc_shift", marts_devices.DISC_MEASURES, "write_busy_within_busy",
                                           "write_busy_pct_avg = busy_pct_avg + 1"),
    "marts.fct_line_shift": _device_breaks("fct_line_shift", marts_devices.LINE_MEASURES, "read_and_write_busy_within_busy",
                                           "read_busy_pct_avg = busy_pct_avg + 1"),
    **{f"raw.{t.name}": _raw_record_breaks(t) for t in raw_measure.TABLES},
    **{f"raw.{t.name}.required": _raw_required_breaks(t) for t in raw_measure.TABLES if t.required},
    **{f"raw.{t.name}.columns": _raw_column_breaks(t) for t in raw_measure.TABLES},
    # the last file loaded made to contradict the first in one row
    "raw.key_conflicts": {"no_conflicting_copies": [
        "insert into raw.key_conflicts (file_id, other_file_id, table_name, system_name, first_day, last_day, "
        "duplicate_rows, conflicting_rows) select max(file_id), min(file_id), 'measure_cpu', '\\PROD1', "
        "date '2026-01-05', date '2026-01-05', 0, 1 from raw.ingest_files where status in ('loaded', 'loaded_with_rejects')"]},
}


def test_every_expectation_has_a_breaking_edit():
    assert set(BREAKS) == {s.name for s in all_suites()}
    for suite_name, breaks in BREAKS.items():
        assert set(breaks) == _checks(suite_name), suite_name


def test_every_expectation_fails_on_data_that_breaks_it(demo_home, tmp_path):
    home = _copy_warehouse(demo_home, tmp_path / "broken")
    for suite_name, breaks in BREAKS.items():
        _sql(home, [statement for statements in breaks.values() for statement in statements])
        report = _validate(home, suite_name)
        assert report.suites_validated == [suite_name], report.skipped
        assert _failed_checks(report) == _checks(suite_name), suite_name
        assert not [o for o in report.failures if o.exception], [o.headline() for o in report.failures if o.exception]


# -- the demo warehouse, and what a run leaves behind ---------------------------------------------------

def test_demo_warehouse_passes_and_the_run_is_kept(demo_home, tmp_path, capsys):
    home = _copy_warehouse(demo_home, tmp_path / "home")
    assert runner.run_checks(home, everything=True) is True
    printed = capsys.readouterr().out
    assert "0 failed" in printed

    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        runs = con.execute(
            "select run_id, success, suites_validated, expectation_count, failed_count from audit.validation_runs "
            "order by started_at"
        ).fetchall()
        # the view the Data health dashboard lists: this run's results only
        results = con.execute(
            "select suite, count(*), bool_and(success) from audit.latest_validation_results "
            "group by suite order by suite"
        ).fetchall()
        latest_run = con.execute("select distinct run_id from audit.latest_validation_results").fetchall()
    finally:
        con.close()
    # the demo warehouse was checked once before it was published; this run is kept beside that one
    assert len(runs) == 2
    assert runs[0][1:] == runs[1][1:]
    run_id, success, suites_validated, expectation_count, failed_count = runs[1]
    assert (success, failed_count) == (True, 0)
    expected = {s.name: len(_checks(s.name)) for s in all_suites()}
    assert suites_validated == len(expected)  # the demo has rows in every table the suites read
    assert {suite: n for suite, n, _ in results} == expected
    assert expectation_count == sum(expected.values())
    assert all(ok for _, _, ok in results)
    assert latest_run == [(run_id,)]

    index = home.warehouse_dir / "docs" / "index.html"
    assert index.exists()
    assert "fct_cpu_shift" in index.read_text()
    pages = list((home.warehouse_dir / "docs" / "validations").rglob(f"{run_id}/*/*.html"))
    # one page per suite and chunk of dates validated (--all reads CHUNK_DAYS of dates at a time)
    assert {page.name.removeprefix("perfdb_frames-").removesuffix(".html") for page in pages} == set(expected)
    assert len(pages) > len(expected)  # the demo's two months are more than one chunk


def _one_hour_busy(demo_home, tmp_path, busy_pct: float) -> Home:
    """A copy of the demo warehouse with one hour of one \\PROD1 processor at ``busy_pct``."""
    home = _copy_warehouse(demo_home, tmp_path / "home")
    _sql(home, [
        f"update intermediate.int_cpu__hourly set busy_pct = {busy_pct} "
        "where system_name = '\\PROD1' and cpu_num = 1 and hour_start = (select min(hour_start) + interval 30 hour from intermediate.int_cpu__hourly)"
    ])
    return home


def test_a_failing_run_names_the_expectation_and_keeps_it(demo_home, tmp_path, capsys):
    home = _one_hour_busy(demo_home, tmp_path, 123.5)
    assert runner.run_checks(home, quiet=True, everything=True) is False
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["success"] is False and summary["error"] is None
    assert [(f["suite"], f["expectation"]) for f in summary["failed"]] == [("intermediate.int_cpu__hourly", "busy_pct_in_range")]
    assert "FAILED intermediate.int_cpu__hourly / busy_pct_in_range (busy_pct)" in err
    assert "1 of " in err and "busy_pct=123.5" in err and "cpu_num=1" in err

    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        failed = con.execute(
            "select suite, expectation, severity, column_name, observed_value, unexpected_count "
            "from audit.validation_results where not success order by expectation"
        ).fetchall()
        runs = con.execute("select success, failed_count from audit.validation_runs order by started_at").fetchall()
    finally:
        con.close()
    # 123.5 % is beyond counter skew: a failure, and over 100 % too (the warning)
    assert failed == [("intermediate.int_cpu__hourly", "busy_pct_at_most_100", "warning", "busy_pct", "[123.5]", 1),
                      ("intermediate.int_cpu__hourly", "busy_pct_in_range", "critical", "busy_pct", "[123.5]", 1)]
    assert runs == [(True, 0), (False, 1)]  # the demo's own passing run, then this one


def test_a_busy_percentage_a_little_over_100_is_a_warning_that_blocks_nothing(demo_home, tmp_path, capsys):
    """Counter skew (real data: the busy counter and the interval's end read a moment apart) shows 100.8 %."""
    home = _one_hour_busy(demo_home, tmp_path, 100.8)
    assert runner.run_checks(home, quiet=True, everything=True) is True
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["success"] is True and summary["failed"] == []
    assert [(w["suite"], w["expectation"]) for w in summary["warnings"]] == [
        ("intermediate.int_cpu__hourly", "busy_pct_at_most_100")]
    assert "WARNING intermediate.int_cpu__hourly / busy_pct_at_most_100 (busy_pct)" in err
    assert "busy_pct=100.8" in err
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        runs = con.execute("select success, failed_count from audit.validation_runs order by started_at").fetchall()
        warned = con.execute("select expectation, severity, unexpected_count from audit.validation_results "
                             "where not success").fetchall()
    finally:
        con.close()
    assert runs == [(True, 0), (True, 0)]
    assert warned == [("busy_pct_at_most_100", "warning", 1)]


# -- the semantics of single checks, with the values they report ---------------------------------------

def _measured_day(home: Home, n: int) -> dt.date:
    """The n-th day of the demo's measurements (a day in the middle has complete shifts on both sides)."""
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        first = con.execute("select min(from_timestamp)::date from raw.measure_cpu").fetchall()[0][0]
    finally:
        con.close()
    return first + dt.timedelta(days=n)


def test_two_missing_hours_of_a_cpu_are_a_gap_of_two_intervals(demo_home, tmp_path):
    day = _measured_day(demo_home, 9)
    report = _validate_changed(demo_home, tmp_path, "raw.measure_cpu", [
        "delete from raw.measure_cpu where system_name = '\\DEV1' and cpu_num = 2 "
        f"and from_timestamp in (timestamp '{day} 10:00:00', timestamp '{day} 11:00:00')"
    ])
    gap = _one_failure(report, "no_gap_longer_than_an_interval")
    assert gap.examples[0]["gap_in_intervals"] == 2.0
    assert gap.examples[0]["from_timestamp"].startswith(f"{day}T12:00:00")


def test_one_missing_hour_is_a_gap_of_one_interval_and_passes(demo_home, tmp_path):
    day = _measured_day(demo_home, 9)
    assert _validate_changed(demo_home, tmp_path, "raw.measure_cpu", [
        "delete from raw.measure_cpu where system_name = '\\DEV1' and cpu_num = 2 "
        f"and from_timestamp = timestamp '{day} 10:00:00'"
    ]).failures == []


def test_a_record_outside_its_loadid_hour_is_named_by_file_and_ordinal(demo_home, tmp_path):
    day = _measured_day(demo_home, 9)
    loadid = f"DT{day.timetuple().tm_yday:03d}10"  # names 10:00-11:00 of that day; the 11:00 record must not carry it
    report = _validate_changed(demo_home, tmp_path, "raw.measure_cpu", [
        f"update raw.measure_cpu set loadid = '{loadid}' where system_name = '\\PROD1' and cpu_num = 0 "
        f"and from_timestamp = timestamp '{day} 11:00:00'"
    ])
    window = _one_failure(report, "inside_loadid_hour")
    example = window.examples[0]
    assert example["loadid_hour_overlap_s"] == 0.0
    assert example["from_timestamp"].startswith(f"{day}T11:00:00")
    assert example["source_file"] and example["record_ordinal"] is not None


def test_a_loadid_of_january_1st_matches_an_interval_that_began_on_december_31st(demo_home, tmp_path):
    report = _validate_changed(demo_home, tmp_path, "raw.measure_cpu", [
        "update raw.measure_cpu set loadid = 'DT00100', from_timestamp = timestamp '2025-12-31 23:30:00', "
        "to_timestamp = timestamp '2026-01-01 00:30:00' where rowid = 0",
        "update raw.measure_cpu set loadid = 'DT36523', from_timestamp = timestamp '2025-12-31 23:30:00', "
        "to_timestamp = timestamp '2026-01-01 00:30:00' where rowid = 1",
        "update raw.measure_cpu set loadid = 'DT00101' where rowid = 2",
    ])
    (window,) = [o for o in report.failures if o.check == "inside_loadid_hour"]
    assert window.unexpected_count == 1  # only the third: its LOADID names an hour it does not touch


def test_a_complete_shift_with_seven_hours_fails(demo_home, tmp_path):
    day = _measured_day(demo_home, 4)
    report = _validate_changed(demo_home, tmp_path, "marts.fct_cpu_shift", [
        "update marts.fct_cpu_shift set n_hours = 7 where system_name = '\\PROD1' and cpu_num = 3 "
        f"and shift_date = date '{day}' and shift = 1"
    ])
    hours = _one_failure(report, "complete_shift_has_all_hours")
    assert (hours.examples[0]["n_hours_if_complete"], hours.examples[0]["shift_hours"]) == (7, 8)


def test_the_last_shift_of_a_capture_may_be_partial(demo_home, tmp_path):
    # the capture ends two hours early: the last shift (16-24) of the last day has 6 hours
    assert _validate_changed(demo_home, tmp_path, "marts.fct_cpu_shift", [
        "delete from intermediate.int_cpu__hourly where hour_start >= "
        "(select max(hour_start) - interval 1 hour from intermediate.int_cpu__hourly)",
        "update marts.fct_cpu_shift set n_hours = 6 where shift_date = (select max(shift_date) from marts.fct_cpu_shift) "
        "and shift = 2",
    ]).failures == []


def test_a_monthly_maximum_that_is_not_the_maximum_of_its_shifts_fails(demo_home, tmp_path):
    report = _validate_changed(demo_home, tmp_path, "marts.fct_cpu_monthly", [
        "update marts.fct_cpu_monthly set busy_pct_max = busy_pct_max + 2.5 "
        "where system_name = '\\DEV1' and cpu_num = 0 and shift = 1 "
        "and month = (select max(month) from marts.fct_cpu_monthly)"
    ])
    diff = _one_failure(report, "busy_pct_max_equals_shift_rows")
    assert diff.examples[0]["busy_pct_max_diff"] == pytest.approx(2.5)


def test_a_crossing_without_its_report_row_fails(demo_home, tmp_path):
    home = _copy_warehouse(demo_home, tmp_path / "home")
    con = duckdb.connect(str(home.db_path))
    try:
        key = con.execute(
            "select system_name, shift_date, shift, cpu_num from marts.rpt_threshold_violations "
            "where crossed_busy_pct_max order by all limit 1"
        ).fetchall()[0]
        con.execute(
            "delete from marts.rpt_threshold_violations where system_name = ? and shift_date = ? and shift = ? and cpu_num = ?",
            list(key),
        )
    finally:
        con.close()
    report = _validate(home, "marts.rpt_threshold_violations")
    assert _failed_checks(report) == {"every_crossing_is_reported"}
    (missing,) = report.failures
    example = missing.examples[0]
    assert (example["system_name"], example["shift"], example["cpu_num"]) == (key[0], key[2], key[3])
    assert example["rules_crossed_by_unreported_row"] >= 1


def test_data_docs_keep_the_last_runs_only(tmp_path):
    runs = [f"2026010{d}T000000000000Z" for d in range(1, 6)]
    for suite_dir in ("raw/measure_cpu", "marts/fct_cpu_shift"):
        for run in runs:
            (tmp_path / suite_dir / run / "20260101T000000.000000Z").mkdir(parents=True)
    gx_validation._prune_runs(tmp_path, keep=2)
    for suite_dir in ("raw/measure_cpu", "marts/fct_cpu_shift"):
        assert sorted(p.name for p in (tmp_path / suite_dir).iterdir()) == runs[-2:]


# -- what the check does when it cannot validate -------------------------------------------------------

def test_missing_or_empty_tables_skip_their_suites_and_say_so(demo_home, tmp_path):
    home = _copy_warehouse(demo_home, tmp_path / "home")
    _sql(home, ["drop table raw.measure_line", "delete from raw.measure_userdef"])
    suites = [by_name("raw.measure_line"), by_name("raw.measure_userdef"), by_name("raw.measure_cpu.columns")]
    report = runner.validate_warehouse(home, suites, docs=False, store=False)
    assert report.skipped == {
        "raw.measure_line": "raw.measure_line does not exist",
        "raw.measure_userdef": "raw.measure_userdef has no rows",
    }
    assert report.suites_validated == ["raw.measure_cpu.columns"]
    assert report.success


def test_a_suite_whose_query_breaks_fails_with_the_database_error(demo_home, tmp_path):
    home = _copy_warehouse(demo_home, tmp_path / "home")
    _sql(home, ["alter table intermediate.int_cpu__hourly rename column measured_s to measured_seconds"])
    report = _validate(home, "intermediate.int_cpu__hourly")
    assert [(o.check, o.success) for o in report.outcomes] == [(QUERY_CHECK, False)]
    assert "measured_s" in report.outcomes[0].exception


def test_no_warehouse_is_a_clear_failure_not_a_traceback(tmp_path, capsys):
    home = Home(tmp_path / "empty").create()
    assert runner.run_checks(home) is False
    out = capsys.readouterr().out
    assert f"{home.db_path} does not exist: run `perfdb ingest` and `perfdb build` first" in out


def test_a_writer_holding_the_warehouse_is_reported(demo_home, tmp_path):
    home = _copy_warehouse(demo_home, tmp_path / "home")
    writer = duckdb.connect(str(home.db_path))  # read-write, as ingest or dbt would hold it
    try:
        report = runner.validate_warehouse(home, [by_name("raw.measure_cpu")], docs=False, store=False)
    finally:
        writer.close()
    assert not report.success
    assert report.error.startswith(f"cannot open {home.db_path} read-only")
    assert "run the check when it has finished" in report.error

