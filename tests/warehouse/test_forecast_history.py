"""Forecast history: two nightly builds a week apart leave two forecasts per resource, the first kept as it
was made; projected against actual compares the first week's 7-day forecast with the peak measured a week
later, and the dashboard's listing says why a system has no comparison before it has one. (The hand-computed errors of a resource with known linear growth are the dbt unit test
forecast_accuracy_of_a_resource_with_linear_growth, run by test_dbt_unit_tests.)"""

from __future__ import annotations

import datetime as dt

import duckdb
import pytest

from ingest import dbt_runner, pipeline
from ingest.generate import measure as measure_gen
from ingest.generate._measure_inventory import SystemSpec
from ingest.home import Home

# a week of working days is enough history here; the unit tests, written for the default, are left out
BUILD = ["build", "--select", "+rpt_capacity_forecast_vs_actual", *dbt_runner.UNIT_TESTS_LEFT_OUT,
         "--vars", "{capacity_min_history_days: 3}"]
WEEK1, WEEK2 = dt.date(2026, 1, 5), dt.date(2026, 1, 12)  # Mondays


def night(home: Home, monday: dt.date) -> None:
    """A week of MEASURE data arrives, then the nightly ingest and build."""
    spec = SystemSpec("PROD1", cpus=2, start=monday, days=5, processes=16, seed=3)
    paths = measure_gen.generate(spec, home.landing / f"measure-{monday}", ["csv"])
    assert {r.status for r in pipeline.ingest_paths(home, paths)} == {"loaded"}
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0


def query(home: Home, sql: str) -> list[tuple]:
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


HISTORY = """
    select forecast_date, resource_type, system_name, resource_name, shift, horizon_days, target_date, projected_pct
    from marts.fct_capacity_forecast_history order by all"""


LISTING = """
    select system_name, forecast_date, target_date, projected_pct, actual_pct, note
    from marts.rpt_capacity_forecast_vs_actual order by all"""


@pytest.fixture(scope="module")
def two_nights(tmp_path_factory):
    home = Home(tmp_path_factory.mktemp("forecast_history")).create()
    night(home, WEEK1)
    first = query(home, HISTORY), query(home, LISTING)
    night(home, WEEK2)
    return home, first


def test_two_nights_a_week_apart_leave_two_forecasts(two_nights):
    home, (first, _) = two_nights
    assert first and {row[0] for row in first} == {WEEK1 + dt.timedelta(days=4)}  # made on Friday the 9th
    kept = query(home, HISTORY)
    assert {row[0] for row in kept} == {dt.date(2026, 1, 9), dt.date(2026, 1, 16)}
    assert [row for row in kept if row[0] == dt.date(2026, 1, 9)] == first  # the first night's forecasts, unchanged
    per_resource = query(home, """
        select resource_type, system_name, resource_name, shift, count(distinct forecast_date)
        from marts.fct_capacity_forecast_history group by all""")
    assert {n for *_, n in per_resource} == {2}
    # a rebuild on the same data adds nothing
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0
    assert query(home, HISTORY) == kept


def test_projected_against_actual(two_nights):
    home, _ = two_nights
    compared = query(home, """
        select a.resource_type, a.resource_name, a.shift, a.projected_pct, a.actual_pct, a.error_pct_points, a.error_pct,
               a.is_miss, h.projected_pct, p.peak_pct
        from marts.rpt_capacity_forecast_accuracy as a
        inner join marts.fct_capacity_forecast_history as h
            on h.forecast_date = a.forecast_date and h.resource_type = a.resource_type and h.resource_name = a.resource_name
            and h.shift is not distinct from a.shift and h.horizon_days = a.horizon_days
        inner join marts.fct_capacity_daily_peak as p
            on p.resource_type = a.resource_type and p.resource_name = a.resource_name
            and p.shift is not distinct from a.shift and p.peak_date = date '2026-01-16'
        where a.forecast_date = date '2026-01-09' and a.horizon_days = 7""")
    resources = query(home, """
        select count(*) from marts.fct_capacity_forecast_history where forecast_date = date '2026-01-09' and horizon_days = 7""")
    assert len(compared) == resources[0][0] > 0  # every 7-day forecast of the first night met its measured day
    for *_, projected, actual, error_points, error_pct, is_miss, kept_projection, peak in compared:
        assert (projected, actual) == (kept_projection, peak)
        assert error_points == pytest.approx(projected - actual)
        assert error_pct == pytest.approx(100 * (projected - actual) / actual)
        assert is_miss == (abs(100 * (projected - actual) / actual) > 5)
    # and nothing is compared with a day not measured yet (the 30- and 90-day horizons)
    assert query(home, "select max(target_date) from marts.rpt_capacity_forecast_accuracy") == [(dt.date(2026, 1, 16),)]


def test_the_listing_says_why_a_system_has_no_comparison_until_its_first_target_day(two_nights):
    home, (_, listing_after_one_night) = two_nights
    assert listing_after_one_night == [("\\PROD1", None, None, None, None,
                                        "No forecast of this system has reached its target day yet: every build keeps "
                                        "its forecasts, and each is compared here with the peak measured on its target "
                                        "day once that day is loaded.")]
    compared = query(home, """
        select system_name, forecast_date, target_date, projected_pct, actual_pct, cast(null as varchar)
        from marts.rpt_capacity_forecast_accuracy order by all""")
    assert query(home, LISTING) == compared and compared  # once compared, the forecasts alone
