"""Forecast history: two nightly builds a week apart leave two forecasts per resource, the first kept as it
was made; projected against actual compares the first night's 7-day forecast, made on a Sunday, with the peak
measured on the next workday (Monday: the trend is fitted on workdays, and a Sunday's other workload would make
every such forecast miss); the monthly and quarterly roll-up is recomputed from the compared forecasts; and the
dashboard's listing says why a system has no comparison before it has one. The demo warehouse, built night by
night, shows all of it on first view. (The hand-computed cases are the dbt unit tests
forecast_history_compares_a_weekend_target_on_the_next_workday, forecast_accuracy_of_a_resource_with_linear_growth
and forecast_accuracy_rolls_up_by_month_and_quarter, run by test_dbt_unit_tests.)"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from statistics import mean

import pytest

from ingest import dbt_runner, pipeline
from ingest.generate import measure as measure_gen
from ingest.generate._landing import landing_day
from ingest.generate._measure_inventory import SystemSpec
from ingest.home import Home
import read_only_db

# a week of working days is enough history here; the unit tests, written for the default, are left out
BUILD = ["build", "--select", "+rpt_capacity_forecast_vs_actual +rpt_capacity_forecast_accuracy_by_period",
         *dbt_runner.UNIT_TESTS_LEFT_OUT, "--vars", "{capacity_min_history_days: 3}"]
WEEK1, WEEK2 = dt.date(2026, 1, 5), dt.date(2026, 1, 12)  # Mondays
SUNDAY, MONDAY = dt.date(2026, 1, 11), dt.date(2026, 1, 19)  # the first night's last day; a week and a day on


def night(home: Home, first_day: dt.date, days: int) -> None:
    """Days of MEASURE data arrive, then the nightly ingest and build."""
    spec = SystemSpec("PROD1", cpus=2, start=first_day, days=days, processes=16, seed=3)
    paths = measure_gen.generate(spec, home.landing / f"measure-{first_day}", ["csv"])
    assert {r.status for r in pipeline.ingest_paths(home, paths)} == {"loaded"}
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0


def query(home: Home, sql: str, params: list | None = None) -> list[tuple]:
    return read_only_db.rows(home.db_path, sql, params)


HISTORY = """
    select forecast_date, resource_type, system_name, resource_name, shift, horizon_days, target_date, projected_pct
    from marts.fct_capacity_forecast_history order by all"""


LISTING = """
    select system_name, forecast_date, target_date, projected_pct, actual_pct, note
    from marts.rpt_capacity_forecast_vs_actual order by all"""

TRENDS = """
    select resource_type, resource_name, shift, trend_peak_pct, growth_pct_points_per_day
    from marts.fct_capacity_forecast where trend_peak_pct is not null"""


@pytest.fixture(scope="module")
def two_nights(tmp_path_factory):
    """Monday to Sunday, then the next Monday to the Monday after: the first forecast is made on a Sunday."""
    home = Home(tmp_path_factory.mktemp("forecast_history")).create()
    night(home, WEEK1, 7)
    first = query(home, HISTORY), query(home, LISTING), query(home, TRENDS)
    night(home, WEEK2, 8)
    return home, first


def test_two_nights_a_week_apart_leave_two_forecasts(two_nights):
    home, (first, _, _) = two_nights
    assert first and {row[0] for row in first} == {SUNDAY}  # made on the last day loaded
    kept = query(home, HISTORY)
    assert {row[0] for row in kept} == {SUNDAY, MONDAY}
    assert [row for row in kept if row[0] == SUNDAY] == first  # the first night's forecasts, unchanged
    per_resource = query(home, """
        select resource_type, system_name, resource_name, shift, count(distinct forecast_date)
        from marts.fct_capacity_forecast_history group by all""")
    assert {n for *_, n in per_resource} == {2}
    # a rebuild on the same data adds nothing
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0
    assert query(home, HISTORY) == kept


def test_a_sunday_target_is_compared_on_monday(two_nights):
    home, (first, _, trends) = two_nights
    # the 7-day forecasts made on Sunday the 11th are for Monday the 19th, 8 days on, along the first night's trend
    trend = {(kind, name, shift): (level, growth) for kind, name, shift, level, growth in trends}
    week = [row for row in first if row[5] == 7]
    assert week and {row[6] for row in week} == {MONDAY}
    for _, kind, _, name, shift, _, _, projected in week:
        level, growth = trend[(kind, name, shift)]
        assert projected == pytest.approx(level + 8 * growth)
    # the 30-day ones: Tuesday 02-10, a workday, stays
    assert {row[6] for row in first if row[5] == 30} == {dt.date(2026, 2, 10)}

    compared = query(home, """
        select a.resource_type, a.resource_name, a.shift, a.target_date, a.projected_pct, a.actual_pct, a.error_pct_points,
               a.error_pct, a.is_miss, h.projected_pct, p.peak_pct
        from marts.rpt_capacity_forecast_accuracy as a
        inner join marts.fct_capacity_forecast_history as h
            on h.forecast_date = a.forecast_date and h.resource_type = a.resource_type and h.resource_name = a.resource_name
            and h.shift is not distinct from a.shift and h.horizon_days = a.horizon_days
        inner join marts.fct_capacity_daily_peak as p
            on p.resource_type = a.resource_type and p.resource_name = a.resource_name
            and p.shift is not distinct from a.shift and p.peak_date = ?
        where a.forecast_date = ? and a.horizon_days = 7""", [MONDAY, SUNDAY])
    assert len(compared) == len(week)  # every 7-day forecast of the first night met its measured Monday
    for *_, target, projected, actual, error_points, error_pct, is_miss, kept_projection, monday in compared:
        assert (target, projected, actual) == (MONDAY, kept_projection, monday)
        assert error_points == pytest.approx(projected - actual)
        assert error_pct == pytest.approx(100 * (projected - actual) / actual)
        assert is_miss == (abs(100 * (projected - actual) / actual) > 5)
    # and nothing is compared with a day not measured yet (the 30- and 90-day horizons)
    assert query(home, "select max(target_date) from marts.rpt_capacity_forecast_accuracy") == [(MONDAY,)]


ROLLED = """
    select period, period_start, period_label, system_name, resource_type, resource_name, shift, horizon_days,
           forecasts_compared, mean_projected_pct, mean_actual_pct, bias_pct_points, mean_abs_error_pct, misses,
           model_misses
    from marts.rpt_capacity_forecast_accuracy_by_period"""


def recomputed_roll_up(home: Home) -> dict[tuple, tuple]:
    """rpt_capacity_forecast_accuracy_by_period from the compared forecasts, in Python."""
    groups: dict[tuple, list[tuple]] = defaultdict(list)
    for system, kind, name, shift, horizon, target, projected, actual, error_pct, is_miss in query(home, """
            select system_name, resource_type, resource_name, shift, horizon_days, target_date, projected_pct,
                   actual_pct, error_pct, is_miss
            from marts.rpt_capacity_forecast_accuracy"""):
        quarter_start = dt.date(target.year, 3 * ((target.month - 1) // 3) + 1, 1)
        for period, start, label in (("month", target.replace(day=1), f"{target:%Y-%m}"),
                                     ("quarter", quarter_start, f"{target.year}-Q{(target.month - 1) // 3 + 1}")):
            groups[(period, start, label, system, kind, name, shift, horizon)].append((projected, actual, error_pct, is_miss))
    return {
        key: (len(rows), mean(r[0] for r in rows), mean(r[1] for r in rows), mean(r[0] - r[1] for r in rows),
              mean(abs(r[2]) for r in rows), sum(r[3] for r in rows), mean(abs(r[2]) for r in rows) > 5)
        for key, rows in groups.items()
    }


def assert_roll_up_recomputes(home: Home) -> int:
    """The roll-up equals its recomputation; returns its row count."""
    expected = recomputed_roll_up(home)
    rolled = {tuple(row[:8]): row[8:] for row in query(home, ROLLED)}
    assert rolled.keys() == expected.keys()
    for key, (n, projected, actual, bias, mape, misses, model_misses) in expected.items():
        assert rolled[key] == (n, pytest.approx(projected), pytest.approx(actual), pytest.approx(bias),
                               pytest.approx(mape), misses, model_misses), key
    return len(rolled)


def test_the_monthly_and_quarterly_roll_up_recomputes_from_the_compared_forecasts(two_nights):
    home, _ = two_nights
    [(resources,)] = query(home, "select count(*) from marts.rpt_capacity_forecast_accuracy")
    # one month (January) and one quarter, one horizon compared: a row per resource in each
    assert assert_roll_up_recomputes(home) == 2 * resources > 0
    assert {row[2] for row in query(home, ROLLED)} == {"2026-01", "2026-Q1"}


def test_the_listing_says_why_a_system_has_no_comparison_until_its_first_target_day(two_nights):
    home, (_, listing_after_one_night, _) = two_nights
    assert listing_after_one_night == [("\\PROD1", None, None, None, None,
                                        "No forecast of this system has reached its target day yet: every build keeps "
                                        "its forecasts, and each is compared here with the peak measured on its target "
                                        "day once that day is loaded.")]
    compared = query(home, """
        select system_name, forecast_date, target_date, projected_pct, actual_pct, cast(null as varchar)
        from marts.rpt_capacity_forecast_accuracy order by all""")
    assert query(home, LISTING) == compared and compared  # once compared, the forecasts alone


@pytest.mark.slow
def test_the_demo_shows_forecasts_of_earlier_nights_against_what_was_measured(demo_home):
    """The demo builds its two months night by night (ingest.pipeline.demo), so its forecasts of January and
    February have met their measured target days on first view, each on a workday."""
    nights = [night for night, _ in pipeline.demo_nights(sorted(p for p in demo_home.landing.rglob("*") if p.is_file()))]
    assert nights == [dt.date(2026, 1, 29), dt.date(2026, 2, 26), dt.date(2026, 3, 6)]
    # each file landed the morning after the last day it holds: a week of MEASURE records the Monday after, a
    # Wednesday's MEASCOM report on Thursday, a week's SMF dump, a month of captures, a day's benchmark report
    assert {path: landing_day(demo_home.landing / path) for path in [
        "measure/binary/PROD1/2026-W02/zmscpu", "measure/meascom/PROD1/2026-W05/meascom-2026-01-28.txt",
        "smf/SMF.SYSA.D26005.D26011.VB.dump", "commands/aix01/netstat-v/aix01_netstat-v_2026-01.log",
        "benchmark/os2lab__aping__20260202T160000.txt"]} == {
        "measure/binary/PROD1/2026-W02/zmscpu": dt.date(2026, 1, 12),
        "measure/meascom/PROD1/2026-W05/meascom-2026-01-28.txt": dt.date(2026, 1, 29),
        "smf/SMF.SYSA.D26005.D26011.VB.dump": dt.date(2026, 1, 12),
        "commands/aix01/netstat-v/aix01_netstat-v_2026-01.log": dt.date(2026, 2, 1),
        "benchmark/os2lab__aping__20260202T160000.txt": dt.date(2026, 2, 3)}
    assert query(demo_home, "select count(*), count(*) filter (where full_refresh) from audit.builds") == [(3, 0)]
    systems = {row[0] for row in query(demo_home, "select distinct system_name from marts.fct_capacity_forecast_history")}
    compared = query(demo_home, """
        select a.system_name, count(*), count(distinct a.forecast_date), bool_and(c.is_workday)
        from marts.rpt_capacity_forecast_accuracy as a
        left join intermediate.int_calendar__day as c on c.calendar_date = a.target_date
        group by a.system_name""")
    assert {system for system, *_ in compared} == systems == {"\\PROD1", "\\DEV1", "SYSA", "SYSB", "aix01"}
    assert all(n > 0 and workdays for _, n, _, workdays in compared)
    # the forecasts whose nominal day was a weekend day (made on a Sunday, or a Saturday): close to the workday
    # peak they are compared with, and far from the weekend's peak they were compared with before: processors and
    # links, whose weekend peaks are far below the workday ones (the DASD volumes left out: a response time is no
    # utilization, and the demo's volumes are hardly less busy at weekends: a forecast of their busy is 12 % off the
    # weekend's peak on average)
    [(moved, on_workday, on_weekend)] = query(demo_home, """
        select count(*), avg(abs(a.error_pct)), avg(abs(100 * (a.projected_pct - w.peak_pct) / w.peak_pct))
        from marts.rpt_capacity_forecast_accuracy as a
        inner join marts.fct_capacity_daily_peak as w
            on w.resource_type = a.resource_type and w.system_name = a.system_name and w.resource_name = a.resource_name
            and w.shift is not distinct from a.shift and w.peak_date = a.forecast_date + a.horizon_days
        where a.target_date <> a.forecast_date + a.horizon_days and a.resource_type not in ('dasd_response', 'dasd_busy')""")
    assert moved > 0 and on_workday < 10 and on_weekend > 100
    assert query(demo_home, "select count(*) from marts.rpt_capacity_forecast_vs_actual where note is not null") == [(0,)]
    assert assert_roll_up_recomputes(demo_home) > 0
    assert {row[2] for row in query(demo_home, ROLLED)} == {"2026-02", "2026-03", "2026-Q1"}
