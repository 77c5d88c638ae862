"""Seed 001's MEASURE rules the TERMINAL entity and DELTA-TIME make evaluable, on the demo warehouse: the terminal
response time (001-aF17) of every terminal's day, the ATMs per line (001-b6.4-17: \\PROD1's second line carries
15, beyond 13) and the performance data base's INTERVAL 1 HOURS around the clock (001-b6.4-7: \\DEV1 measured one
Tuesday in 30-minute intervals), and MEASURE's own share of the CPU (001-aF15: above 1.14 % on that Tuesday only).
TERMINAL records come in the structured forms only: the Wednesdays, which arrive as MEASCOM text, have none."""

from __future__ import annotations

import datetime as dt

import pytest

from ingest.generate import measure
from read_only_db import dict_rows, read_only

pytestmark = pytest.mark.slow

HALF_HOUR_DAY = dt.date(2026, 2, 10)
# the demo's days with structured records: all but the Wednesdays (MEASCOM text)
STRUCTURED_DAYS = sum(1 for d in range(measure.DEMO_DAYS)
                      if (measure.DEMO_START + dt.timedelta(days=d)).weekday() != measure.DEMO_TEXT_WEEKDAY)


@pytest.fixture(scope="module")
def db(demo_home):
    yield from read_only(demo_home.serving_path)


def status(db, rule_id: str) -> tuple:
    (row,) = dict_rows(db, f"select * from marts.rpt_rule_status where rule_id = '{rule_id}'")
    return row["status"], row["evaluated_by"], row["evaluations"], row["systems"], row["findings"]


def test_terminal_response_time_is_response_time_over_transactions_per_terminal_day(db):
    assert STRUCTURED_DAYS == 51
    rows = db.execute(
        "select system_name, count(distinct line_name || subdev_name), count(*), sum(transaction_count), "
        "sum(response_time_us) from marts.fct_terminal_daily group by system_name order by system_name").fetchall()
    lines = db.execute(
        "select system_name, sum(transaction_count), sum(response_time_us) from staging.stg_measure__line "
        "where source_form <> 'meascom' and delta_time_us > 0 group by system_name order by system_name").fetchall()
    # 8 ATMs on \DEV1's line, 10 + 15 on \PROD1's two; their counts add up to their lines'
    assert [r[:3] for r in rows] == [("\\DEV1", 8, 8 * 51), ("\\PROD1", 25, 25 * 51)]
    assert [(s, t, r) for s, _, _, t, r in rows] == lines
    bad = db.execute("select count(*) from marts.fct_terminal_daily "
                     "where abs(response_ms - response_time_us / transaction_count / 1e3) > 1e-9").fetchone()
    assert bad == (0,)
    assert status(db, "001-aF17") == ("evaluated", "fct_terminal_daily", (8 + 25) * 51, None, None)


def test_the_days_measured_without_terminal_records_are_listed_not_dropped(db):
    """The Wednesdays, sent as MEASCOM text, have no TERMINAL records: fct_terminal_daily has no rows for them, and
    the data health mart says so rather than let 51 days pass for 60 (`perfdb rules` too: test_rules.py)."""
    text_days = [measure.DEMO_START + dt.timedelta(days=d) for d in range(measure.DEMO_DAYS)
                 if (measure.DEMO_START + dt.timedelta(days=d)).weekday() == measure.DEMO_TEXT_WEEKDAY]
    assert len(text_days) == measure.DEMO_DAYS - STRUCTURED_DAYS == 9
    missing = db.execute("select * from marts.rpt_measure_missing_days order by all").fetchall()
    assert missing == [(system, day, "TERMINAL", "meascom", "not in the files of the day")
                       for system in ("\\DEV1", "\\PROD1") for day in text_days]
    recorded = db.execute("select count(*) from marts.fct_terminal_daily as t inner join marts.rpt_measure_missing_days "
                          "as m on m.system_name = t.system_name and m.report_date = t.report_date").fetchone()
    assert recorded == (0,)


def test_more_than_13_atms_fire_on_prod1s_second_line_only(db):
    fired = db.execute("select system_name, line_name, metric_value, count(*) from marts.rpt_line_terminals "
                       "where fired group by all").fetchall()
    assert fired == [("\\PROD1", "$X25L02", 15.0, 51)]
    counts = db.execute("select system_name, line_name, min(metric_value), max(metric_value) "
                        "from marts.rpt_line_terminals group by all order by all").fetchall()
    assert counts == [("\\DEV1", "$X25L01", 8.0, 8.0), ("\\PROD1", "$X25L01", 10.0, 10.0),
                      ("\\PROD1", "$X25L02", 15.0, 15.0)]
    assert status(db, "001-b6.4-17") == ("evaluated", "rpt_line_terminals", 3 * 51, 2, 51)


def test_the_day_measured_in_30_minute_intervals_breaks_the_hourly_interval(db):
    fired = dict_rows(db, "select * from marts.rpt_measure_intervals where fired")
    assert [(r["system_name"], r["report_date"], r["interval_count"], r["interval_s_min"], r["interval_s_max"],
             r["measured_hours"], r["day_hours"]) for r in fired] == [
        ("\\DEV1", HALF_HOUR_DAY, 48, 1800.0, 1800.0, 24.0, 24.0)]
    assert status(db, "001-b6.4-7") == ("evaluated", "rpt_measure_intervals", 2 * measure.DEMO_DAYS, 2, 1)
    # the hourly marts read the half hours as the hours they make up: 24 hours of 3 600 s, two intervals each
    hours = db.execute(
        "select count(*), min(interval_count), max(interval_count), min(measured_s), max(measured_s) "
        "from intermediate.int_cpu__hourly where system_name = '\\DEV1' and cast(hour_start as date) = ?",
        [HALF_HOUR_DAY]).fetchone()
    assert hours == (24 * 4, 2, 2, 3600.0, 3600.0)


def test_measure_takes_more_than_seed_001s_1_14_percent_only_on_dev1s_day_of_two_measurements(db):
    # L1192: MEASURE's processes took 0.02 % to 1.14 % of the CPU time. The demo measures them with the rest: the
    # MEASMON primary and a MEASCTL per CPU (1 + 8 on \PROD1, 1 + 4 on \DEV1) take 0.6 % of \PROD1's CPU busy and
    # 0.7 % of \DEV1's, twice that on \DEV1's half-hour day, when an application analysis ran beside the daily
    # measurement (ingest.generate.measure.DEMO_SYSTEMS)
    days = db.execute(
        "select system_name, count(*), min(process_count), max(process_count), round(min(metric_value), 2), "
        "round(max(metric_value), 2), count(*) filter (where fired) from marts.rpt_measure_overhead "
        "where rule_id = '001-aF15' group by system_name order by system_name").fetchall()
    assert days == [("\\DEV1", 60, 5, 5, 0.7, 1.4, 1), ("\\PROD1", 60, 9, 9, 0.6, 0.6, 0)]
    fired = db.execute("select system_name, report_date, round(measure_busy_s, 1), round(cpu_busy_s, 1), "
                       "round(metric_value, 4), limit_value from marts.rpt_measure_overhead where fired").fetchall()
    assert fired == [("\\DEV1", HALF_HOUR_DAY, 1724.1, 123147.7, 1.4, 1.14)]
    assert status(db, "001-aF15") == ("evaluated", "rpt_measure_overhead", 2 * 60, 2, 1)
