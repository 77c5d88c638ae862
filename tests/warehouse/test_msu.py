"""MSU, the rolling four-hour average and capping from SMF 70.1 (marts/msu), on the shared demo warehouse
(read-only): the monthly peak recomputed from the interval rows, the first four hours of every image's
data invalid, capping where the demo's defined capacity is reached, and `perfdb report msu --limit`
equal to counting the intervals above the limit; the CPC rows the sums of their images' on the grid of
their interval ends, the capacity group's rows and capping recomputed from its members' likewise, the work of
the top five peaks recomputed from the SMF 72.3 and SMF 30 rows, and the distribution the counts of the valid
intervals. The 4HRA's arithmetic is the models' dbt unit tests (a five-minute ramp, an IPL gap, two images
offset by 2.5 minutes)."""

from __future__ import annotations

import bisect
import datetime as dt
import json

import pytest

from ingest import cli
from ingest.warehouse.serving import connect_serving
from read_only_db import dict_rows

pytestmark = pytest.mark.slow
FOUR_HOURS = dt.timedelta(hours=4)


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


def grid_sums(images: list[dict], key) -> dict[tuple, dict]:
    """The images' rows summed per group (``key`` of a row) on the common grid of their interval ends, each
    rounded to the second: per segment, each image's MSU/h time-weighted over the segment and its 4HRA over
    the four hours before the segment's end, summed; the 4HRA valid when every image in those hours covers
    them within a minute (as macros/msu.sql states it, recomputed here row by row)."""
    by_group: dict[tuple, dict[str, list[dict]]] = {}
    for row in images:
        by_group.setdefault(key(row), {}).setdefault(row["system_id"], []).append(row)
    out = {}
    for group, systems in by_group.items():
        first_start: dict[dt.datetime, dt.datetime] = {}
        for rows_ in systems.values():
            rows_.sort(key=lambda r: r["interval_start"])
            for r in rows_:
                point = (r["interval_end"] + dt.timedelta(milliseconds=500)).replace(microsecond=0)
                first_start[point] = min(first_start.get(point, r["interval_start"]), r["interval_start"])
        previous = None
        for point in sorted(first_start):
            start = max(previous or first_start[point], first_start[point])
            previous = point
            window_start = point - FOUR_HOURS
            parts = []
            for rows_ in systems.values():
                k = bisect.bisect_left([r["interval_start"] for r in rows_], point)
                overlapping = []
                while k > 0 and rows_[k - 1]["interval_end"] > window_start:
                    k -= 1
                    overlapping.append(rows_[k])
                if not overlapping:
                    continue

                def seconds(r, a, b):
                    return max(0.0, (min(r["interval_end"], b) - max(r["interval_start"], a)).total_seconds())
                covered = sum(seconds(r, window_start, point) for r in overlapping)
                in_segment = [(r, seconds(r, start, point)) for r in overlapping if seconds(r, start, point) > 0]
                parts.append({
                    "rolling": sum(r["msu_per_h"] * seconds(r, window_start, point) for r in overlapping) / covered,
                    "valid": covered >= 4 * 3600 - 60,
                    "msu": sum(r["msu_per_h"] * w for r, w in in_segment) / sum(w for _, w in in_segment) if in_segment else None,
                    "capped": any(r["is_capped"] for r, _ in in_segment),
                })
            valid = all(p["valid"] for p in parts)
            out[(*group, start)] = {
                "interval_end": point, "lpar_count": sum(p["msu"] is not None for p in parts),
                "msu_per_h": sum(p["msu"] for p in parts if p["msu"] is not None),
                "rolling_4h_msu_per_h": sum(p["rolling"] for p in parts) if valid else None, "is_4hra_valid": valid,
                "capped_lpar_count": sum(p["capped"] for p in parts)}
    return out


def assert_same_sums(built: dict[tuple, dict], recomputed: dict[tuple, dict], count_column: str) -> None:
    assert built.keys() == recomputed.keys()
    for k, mine in recomputed.items():
        row = built[k]
        assert (row["interval_end"], row[count_column], row["is_4hra_valid"]) == (
            mine["interval_end"], mine["lpar_count"], mine["is_4hra_valid"]), k
        assert row["msu_per_h"] == pytest.approx(mine["msu_per_h"], rel=1e-9), k
        rolling = mine["rolling_4h_msu_per_h"]
        assert row["rolling_4h_msu_per_h"] == (None if rolling is None else pytest.approx(rolling, rel=1e-9)), k


@pytest.fixture(scope="module")
def images(con):
    return dict_rows(con, "select * from marts.fct_msu_lpar_interval where cpc_serial is not null and msu_per_h is not null")


def test_the_cpc_rows_are_the_sums_of_their_images_on_the_grid_of_their_interval_ends(con, images):
    built = {(r["cpc_serial"], r["interval_start"]): r for r in dict_rows(con, "select * from marts.fct_msu_cpc_interval")}
    recomputed = grid_sums(images, lambda r: (r["cpc_serial"],))
    assert_same_sums(built, recomputed, "lpar_count")
    assert all(built[k]["capped_lpar_count"] == mine["capped_lpar_count"] for k, mine in recomputed.items())
    # the demo's images are synchronised (30-minute intervals, a few ms short): one segment per RMF interval
    assert len(built) == 5760 and sum(r["is_4hra_valid"] for r in built.values()) > 5000


def test_the_capacity_group_is_its_members_4hra_against_the_group_limit(con, images):
    members = [r for r in images if r["capacity_group_name"] is not None]
    built = {(r["cpc_serial"], r["capacity_group_name"], r["interval_start"]): r
             for r in dict_rows(con, "select * from marts.fct_msu_group_interval")}
    recomputed = grid_sums(members, lambda r: (r["cpc_serial"], r["capacity_group_name"]))
    assert_same_sums(built, recomputed, "member_count")
    limits = {(r["cpc_serial"], r["capacity_group_name"]): r["group_max_msu_per_h"] for r in members}
    capped = [k for k, mine in recomputed.items()
              if mine["is_4hra_valid"] and mine["rolling_4h_msu_per_h"] >= limits[k[:2]]]
    assert sorted(k for k, r in built.items() if r["is_capped"]) == sorted(capped)
    # the demo's SYSB is the one member of GRPB (limit 300 MSU/h), which its busiest hours reach
    assert set(limits.items()) == {(("000000000002B3F7", "GRPB"), 300)} and len(capped) > 0


def test_the_peak_work_is_the_work_of_the_top_five_days_of_each_cpc_and_month(con):
    cpc = dict_rows(con, """select cpc_serial, interval_start, interval_end, rolling_4h_msu_per_h
        from marts.fct_msu_cpc_interval where is_4hra_valid order by cpc_serial, interval_start""")
    days: dict[tuple, dict] = {}
    for r in cpc:  # a day's highest valid 4HRA, the earliest of equal ones
        k = (r["cpc_serial"], r["interval_start"].date())
        if k not in days or r["rolling_4h_msu_per_h"] > days[k]["rolling_4h_msu_per_h"]:
            days[k] = r
    months: dict[tuple, list[dict]] = {}
    for (serial, day), r in days.items():
        months.setdefault((serial, day.replace(day=1)), []).append(r)
    images = dict_rows(con, "select cpc_serial, system_id, interval_start, interval_end from marts.fct_msu_lpar_interval")
    work = dict_rows(con, """
        select system_id, interval_start as work_start, interval_end as work_end, 'service class' as work_kind,
            class_name as work_name, cp_cpu_s from staging.stg_smf__workload_period where not is_report_class
        union all
        select system_id, period_start, period_end, 'job', job_name, cpu_s from intermediate.int_zos_work__piece""")
    expected: dict[tuple, float] = {}
    for (serial, month), peaks in months.items():
        peaks.sort(key=lambda r: (-r["rolling_4h_msu_per_h"], r["interval_start"]))
        for rank, peak in enumerate(peaks[:5], start=1):
            systems = {i["system_id"] for i in images if i["cpc_serial"] == serial
                       and i["interval_start"] < peak["interval_end"] and i["interval_end"] > peak["interval_start"]}
            for w in work:
                if w["system_id"] in systems and w["work_start"] < peak["interval_end"] and w["work_end"] > peak["interval_start"]:
                    k = (serial, month, rank, peak["interval_start"], w["system_id"], w["work_kind"], w["work_name"])
                    expected[k] = expected.get(k, 0.0) + (w["cp_cpu_s"] or 0.0)
    built = {(r["cpc_serial"], r["month_start"], r["peak_rank"], r["interval_start"], r["system_id"], r["work_kind"],
              r["work_name"]): r["cp_cpu_s"] for r in dict_rows(con, "select * from marts.rpt_msu_peak_work")}
    assert built.keys() == expected.keys()
    assert all(built[k] == pytest.approx(v, rel=1e-9, abs=1e-9) for k, v in expected.items())
    # two CPCs, three months of the demo's 60 days: five peaks each, each with service classes and jobs
    ranks = {k[:3] for k in built}
    assert len(ranks) == 2 * 3 * 5 and {k[5] for k in built} == {"service class", "job"}


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
