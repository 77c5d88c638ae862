"""Percentiles that survive condensation and retention (issue 28): the month's p50/p90/p95/p99 merged from the
day distributions (``marts.fct_busy_distribution_day``, ``macros/distributions.sql``) hold the exact
nearest-rank percentile of the month's hours, and stay as they were once retention has purged the hours.

A small MEASURE system (2 processors, 2 discs, 1 line, 4 processes, five days of March) is built; every
percentile of ``marts.fct_busy_percentiles_monthly`` is compared with the hours of the hourly models, recomputed
here: the reported value is the upper bound of the bucket holding the hour of rank ceil(p n / 100), so the exact
value is below it by less than one bucket. Then retention keeps one day of raw files, intervals and hours, the
warehouse is built again (incrementally, then ``perfdb build --full-refresh``), and every month, week and year
percentile is unchanged while the hours of the first four days are gone. So are the capacity grades of each
month's p95 (``marts.rpt_capacity_p95_monthly``), which ``perfdb report capacity --p95`` prints.

The same for the DASD volumes of five days of a generated z/OS system (SMF 74.1): each volume's busy and its
response time, whose hours weigh their RMF intervals by I/O count (``int_dasd__hourly``).
"""

from __future__ import annotations

import datetime as dt
import json
import math

import duckdb
import pytest

from ingest import cli
from ingest.generate import measure, smf
from ingest.generate._measure_inventory import SystemSpec
from ingest.home import Home
from ingest.warehouse.retention import apply_retention

pytestmark = pytest.mark.slow

START = dt.date(2026, 3, 2)
DAYS = 5
PERCENTILES = (50, 90, 95, 99)
# resource -> the hourly model, its entity and value (distribution_measures() in macros/distributions.sql)
HOURS = {
    "cpu_busy": ("intermediate.int_cpu__hourly", "cast(cpu_num as varchar)", "busy_pct", "pct"),
    "disc_busy": ("intermediate.int_disc__hourly", "device_name", "busy_pct", "pct"),
    "line_busy": ("intermediate.int_line__hourly", "device_name", "busy_pct", "pct"),
    "line_response": ("intermediate.int_line__hourly", "device_name", "response_ms", "log"),
    "workload_cpu": ("intermediate.int_workload__hourly", "workload", "cpu_s", "log"),
}
DASD_HOURS = {
    "dasd_busy": ("intermediate.int_dasd__hourly", "volser || ' (' || device_number || ')'", "busy_pct", "pct"),
    "dasd_response": ("intermediate.int_dasd__hourly", "volser || ' (' || device_number || ')'", "response_ms", "log"),
}
PERIOD_TABLES = {"week": "marts.fct_busy_percentiles_weekly", "month": "marts.fct_busy_percentiles_monthly",
                 "year": "marts.fct_busy_percentiles_yearly"}


def bucket(value: float, scale: str) -> tuple[float, float]:
    """The bounds of the bucket a value falls in: 0.5-point bins up to 100, or 20 log bins a decade from 0.001."""
    if scale == "pct":
        i = math.floor(min(max(value, 0.0), 99.5) / 0.5)
        return i * 0.5, (i + 1) * 0.5
    if value < 1e-3:
        return 0.0, 1e-3
    i = math.floor(math.log10(value) * 20)
    return 10 ** (i / 20), 10 ** ((i + 1) / 20)


def nearest_rank(values: list[float], p: int) -> float:
    """The hour of rank ceil(p n / 100) in value order (in integers, as the model compares)."""
    ordered = sorted(values)
    return ordered[-(-p * len(ordered) // 100) - 1]


def perfdb(home: Home, *args: str) -> None:
    assert cli.main(["--home", str(home.root), *args]) == 0, f"perfdb {' '.join(args)} failed"


def rows(home: Home, sql: str) -> list[tuple]:
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def percentiles(home: Home, period: str) -> dict[tuple, tuple]:
    columns = ", ".join(f"p{p}" for p in PERCENTILES)
    return {tuple(r[:4]): r[4:] for r in rows(
        home, f"select system_name, resource, entity, {period}, n_hours, value_max, {columns} from {PERIOD_TABLES[period]}")}


def check_against_the_hours(home: Home, month: dict[tuple, tuple], resources: dict[str, tuple]) -> int:
    """Every month percentile of `resources` within one bucket of the exact nearest-rank percentile of its hours,
    recomputed here from the hourly model; the number of percentiles checked."""
    checked = 0
    for resource, (model, entity, value, scale) in resources.items():
        hours: dict[tuple, list[float]] = {}
        for system, name, v in rows(home, f"select system_name, {entity}, {value} from {model} where {value} is not null"):
            hours.setdefault((system, name), []).append(v)
        assert hours, resource
        for (system, name), values in hours.items():
            n_hours, value_max, *reported = month[(system, resource, name, START.replace(day=1))]
            assert (n_hours, value_max) == (len(values), max(values)) and n_hours == 24 * DAYS
            for p, got in zip(PERCENTILES, reported):
                exact = nearest_rank(values, p)
                lower, upper = bucket(exact, scale)
                assert math.isclose(got, upper, rel_tol=1e-12), (resource, name, p, got, exact)
                in_scale = min(exact, 100.0) if scale == "pct" else exact  # a busy over 100 counts as 100
                assert lower <= in_scale <= got  # the exact value in the bucket reported: within one bucket
                checked += 1
    return checked


def grade(pct: float, lower: float, upper: float) -> str:
    """The bands of macros/capacity_grades.sql."""
    return next(g for g, below in (("within capacity", lower), ("warning", upper), ("critical", 100.0)) if pct < below) \
        if pct < 100.0 else "saturated"


def capacity_grades(home: Home) -> list[tuple]:
    return sorted(rows(home, "select resource_type, resource_name, month, busy_pct_p95, capacity_lower_pct, "
                             "capacity_upper_pct, p95_grade, max_grade, busy_pct_max from marts.rpt_capacity_p95_monthly"))


def test_month_percentiles_from_day_buckets_match_the_hours_and_survive_retention(tmp_path, capsys):
    spec = SystemSpec("\\R1", cpus=2, start=START, days=DAYS, processes=4, discs=2, lines=1, file_openers=1)
    measure.generate(spec, tmp_path / "site", ["csv"])
    home = Home(tmp_path / "home").create()
    perfdb(home, "ingest", *sorted(str(day) for day in (tmp_path / "site" / "csv" / "R1").iterdir()))
    perfdb(home, "build")

    month = percentiles(home, "month")
    checked = check_against_the_hours(home, month, HOURS)
    assert checked == 4 * (2 + 2 + 1 + 1 + 4)  # processors, discs, line busy and response, workloads
    # capacity thresholds on p95: every processor, disc and line graded in its bands on its month's p95
    grades = capacity_grades(home)
    assert len(grades) == 2 + 2 + 1
    for resource_type, name, first, p95, lower, upper, p95_grade, max_grade, busy_max in grades:
        assert p95 == month[("\\R1", f"{resource_type}_busy", name, first)][4]
        assert (p95_grade, max_grade) == (grade(p95, lower, upper), grade(busy_max, lower, upper))
    assert ("cpu", 85.0) in {(g[0], g[4]) for g in grades}  # the generated processors are TXPs (type 2)
    # the percentiles rise with p, and the buckets are fine enough to tell p50 from p99 on every processor
    assert all(list(r[2:]) == sorted(r[2:]) for r in month.values())
    assert all(r[2] < r[5] for key, r in month.items() if key[1] == "cpu_busy")
    # five days of one ISO week, month and year: the three grains merge the same hours
    week, year = percentiles(home, "week"), percentiles(home, "year")
    assert {k[:3]: v for k, v in week.items()} == {k[:3]: v for k, v in month.items()} == {k[:3]: v for k, v in year.items()}

    # retention keeps one day of raw files, intervals and hours (the seed table changed, as a site changes
    # seeds/retention.csv), then the next builds: the percentiles come from the day distributions only
    con = duckdb.connect(str(home.db_path))
    con.execute("update seeds.retention set keep_days = 1 where family in ('raw', 'interval', 'hourly')")
    con.close()
    result = apply_retention(home)
    assert result.files_purged == 8 * (DAYS - 1)  # cpu, disc, discopen, file, line, process, terminal, userdef a day
    last_day = START + dt.timedelta(days=DAYS - 1)
    for model, *_ in HOURS.values():
        assert rows(home, f"select min(cast(hour_start as date)) from {model}") == [(last_day,)], model
    for build in (["build"], ["build", "--full-refresh"]):
        perfdb(home, *build)
        for period, before in (("month", month), ("week", week), ("year", year)):
            assert percentiles(home, period) == before, (build, period)
        assert capacity_grades(home) == grades, build
    assert rows(home, "select count(distinct day) from marts.fct_busy_distribution_day") == [(DAYS,)]

    # `perfdb report capacity --p95` prints the published grades
    perfdb(home, "publish")
    capsys.readouterr()
    perfdb(home, "report", "capacity", "--p95", "--format", "json")
    printed = json.loads(capsys.readouterr().out)
    assert sorted((r["resource_type"], r["resource_name"], r["busy_pct_p95"], r["p95_grade"]) for r in printed) == [
        (g[0], g[1], g[3], g[6]) for g in grades]


def test_dasd_percentiles_from_day_buckets_match_the_hours_and_survive_retention(tmp_path):
    """SMF 74.1: each volume's busy and response time of the month within one bucket of its hours' exact
    percentiles, the same after retention purged four of the five days of hours."""
    dumps = smf.generate(tmp_path / "site", ["SYSA"], START, DAYS, seed=7, forms={"SYSA": "vb"})
    home = Home(tmp_path / "home").create()
    perfdb(home, "ingest", *sorted(str(dump) for dump in dumps))
    perfdb(home, "build")

    month = percentiles(home, "month")
    volumes = rows(home, "select count(distinct device_number) from intermediate.int_dasd__hourly")[0][0]
    assert volumes > 20  # a few dozen 3390 volumes (ingest/generate/_smf_dasd.py)
    assert check_against_the_hours(home, month, DASD_HOURS) == 4 * 2 * volumes
    # a response time spreads over log buckets: p50 below p99 on most volumes, as busy hours queue
    response = [r for key, r in month.items() if key[1] == "dasd_response"]
    assert sum(r[2] < r[5] for r in response) > volumes // 2
    dasd = {period: {k: v for k, v in percentiles(home, period).items() if k[1].startswith("dasd_")}
            for period in PERIOD_TABLES}

    # a day's dump also holds the records written just after its midnight, so the system's newest day is the
    # one after the last: keeping two days keeps the hours of the last one, and purges the first three dumps
    assert rows(home, "select max(day) from raw.ingest_file_days") == [(START + dt.timedelta(days=DAYS),)]
    con = duckdb.connect(str(home.db_path))
    con.execute("update seeds.retention set keep_days = 2 where family in ('raw', 'interval', 'hourly')")
    con.close()
    assert apply_retention(home).files_purged == DAYS - 2
    assert rows(home, "select min(cast(hour_start as date)) from intermediate.int_dasd__hourly") == [
        (START + dt.timedelta(days=DAYS - 1),)]
    perfdb(home, "build")
    for period, before in dasd.items():
        assert {k: v for k, v in percentiles(home, period).items() if k[1].startswith("dasd_")} == before, period
