"""MSU, the rolling four-hour average and capping from SMF 70.1 (marts/msu), on the shared demo warehouse
(read-only): the monthly peak recomputed from the interval rows, the first four hours of every image's
data invalid, capping where the demo's defined capacity is reached, and `perfdb report msu --limit`
equal to counting the intervals above the limit, the CPC rows the sums of their images' and the distribution
the counts of the valid intervals. The 4HRA's arithmetic is the models' dbt unit tests
(a five-minute ramp, an IPL gap)."""

from __future__ import annotations

import json

import pytest

from ingest import cli
from ingest.warehouse.serving import connect_serving
from read_only_db import dict_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def con(demo_home):
    # the reports' own connection settings: DuckDB opens one file in one process with one configuration
    con = connect_serving(demo_home)
    yield con
    con.close()


def test_the_monthly_peak_is_the_highest_valid_4hra_of_the_month(con):
    monthly = dict_rows(con, "select * from marts.fct_msu_lpar_monthly order by system_id, month_start")
    recomputed = {
        (r["system_id"], r["month_start"]): r for r in dict_rows(con, """
            select system_id, cast(date_trunc('month', interval_start) as date) as month_start,
                max(rolling_4h_msu_per_h) filter (where is_4hra_valid) as peak,
                count(*) filter (where is_capped) as capped, count(*) filter (where is_4hra_valid) as valid
            from marts.fct_msu_lpar_interval group by all""")
    }
    assert len(monthly) == len(recomputed) > 0
    for row in monthly:
        mine = recomputed[(row["system_id"], row["month_start"])]
        assert row["peak_4hra_msu_per_h"] == pytest.approx(mine["peak"], rel=1e-12)
        assert (row["capped_interval_count"], row["valid_interval_count"]) == (mine["capped"], mine["valid"])
        at_peak = dict_rows(con, f"""select rolling_4h_msu_per_h, is_4hra_valid from marts.fct_msu_lpar_interval
            where system_id = '{row["system_id"]}' and interval_start = '{row["peak_interval_start"]}'""")
        assert at_peak == [{"rolling_4h_msu_per_h": row["peak_4hra_msu_per_h"], "is_4hra_valid": True}]


def test_the_first_four_hours_of_an_images_data_are_invalid(con):
    # the demo's RMF intervals are 30 minutes: the first 7 of each image end less than 4 hours after its first
    rows = dict_rows(con, """
        with ranked as (
            select system_id, is_4hra_valid,
                row_number() over (partition by system_id order by interval_start) as n
            from marts.fct_msu_lpar_interval)
        select system_id, count(*) filter (where n <= 7 and is_4hra_valid) as valid_early,
            count(*) filter (where n > 7 and not is_4hra_valid) as invalid_later
        from ranked group by system_id order by system_id""")
    assert rows and all(r["valid_early"] == 0 and r["invalid_later"] == 0 for r in rows)


def test_sysa_reaches_its_defined_capacity(con):
    [sysa] = dict_rows(con, """select max(defined_capacity_msu_per_h) as defined, count(*) filter (where is_capped) as capped,
        count(*) filter (where is_capped and rolling_4h_msu_per_h < 480) as capped_below
        from marts.fct_msu_lpar_interval where system_id = 'SYSA'""")
    assert sysa["defined"] == 480 and sysa["capped"] > 0 and sysa["capped_below"] == 0


def test_the_projection_for_a_candidate_limit_counts_the_intervals_above_it(demo_home, con, capsys):
    assert cli.main(["--home", str(demo_home.root), "report", "msu", "--system", "SYSA", "--limit", "500",
                     "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    counts = {str(r["month_start"]): r for r in dict_rows(con, """
        select cast(date_trunc('month', interval_start) as date) as month_start,
            count(*) filter (where is_4hra_valid and rolling_4h_msu_per_h > 500) as over, count(*) filter (where is_4hra_valid) as valid
        from marts.fct_msu_lpar_interval where system_id = 'SYSA' group by all""")}
    assert len(report) == len(counts) > 0
    for row in report:
        mine = counts[row["month_start"]]
        assert row["over_limit_pct"] == pytest.approx(round(100 * mine["over"] / mine["valid"], 3), abs=1e-9)
    assert any(row["over_limit_pct"] > 0 for row in report)


def test_a_month_without_data_says_so_and_a_bad_month_is_a_usage_error(demo_home, capsys):
    assert cli.main(["--home", str(demo_home.root), "report", "msu", "--month", "2031-01"]) == 1
    assert "no data of z/OS MSU (SMF 70.1) in 2031-01; the warehouse holds" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--home", str(demo_home.root), "report", "msu", "--month", "2031-13"])
    assert exit_.value.code == 2
    assert "'2031-13' is not a month, YYYY-MM" in capsys.readouterr().err


def test_the_cpc_rows_are_the_sums_of_their_images_rows(con):
    mismatched = dict_rows(con, """
        with images as (
            select cpc_serial, interval_start, count(*) as lpar_count, sum(msu_per_h) as msu_per_h,
                sum(rolling_4h_msu_per_h) as rolling_4h_msu_per_h, bool_and(is_4hra_valid) as is_4hra_valid
            from marts.fct_msu_lpar_interval where cpc_serial is not null group by all)
        select * from marts.fct_msu_cpc_interval as cpc full join images using (cpc_serial, interval_start)
        where images.lpar_count is distinct from cpc.lpar_count
            or abs(images.msu_per_h - cpc.msu_per_h) > 1e-6
            or abs(images.rolling_4h_msu_per_h - cpc.rolling_4h_msu_per_h) > 1e-6
            or images.is_4hra_valid is distinct from cpc.is_4hra_valid""")
    assert mismatched == []
    assert dict_rows(con, "select count(*) as n from marts.fct_msu_cpc_interval") == [{"n": 5760}]


def test_the_distribution_is_the_share_of_valid_intervals_at_or_above_each_band(con):
    bands = dict_rows(con, "select * from marts.rpt_msu_4hra_distribution order by all")
    valid = dict_rows(con, """
        select system_id, cast(date_trunc('month', interval_start) as date) as month_start, rolling_4h_msu_per_h
        from marts.fct_msu_lpar_interval where is_4hra_valid""")
    assert len(bands) > 10
    for band in bands:
        month = [r["rolling_4h_msu_per_h"] for r in valid
                 if (r["system_id"], r["month_start"]) == (band["system_id"], band["month_start"])]
        in_band = [v for v in month if band["band_floor_msu_per_h"] <= v < band["band_floor_msu_per_h"] + 25]
        at_or_above = [v for v in month if v >= band["band_floor_msu_per_h"]]
        assert band["interval_count"] == len(in_band)
        assert band["pct_at_or_above"] == pytest.approx(100 * len(at_or_above) / len(month))
