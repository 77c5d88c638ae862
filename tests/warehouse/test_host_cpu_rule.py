"""Seed 002's CPU rule (002-R27: busy >= 85 % on a TN Server or SNA gateway host, L1022, L1155) on the demo
warehouse: aix01's vmstat every two hours, its busy (us + sy of the last report) above 85 % at 13 of its busiest
peaks only; the mart holds the host the seed host_roles names, the rule fires at those 13 captures and at no
other, and rpt_rule_status counts every capture as an evaluation."""

from __future__ import annotations

import datetime as dt

import pytest

from ingest.generate import commands
from read_only_db import dict_rows, read_only

pytestmark = pytest.mark.slow

CAPTURES = commands.DEMO_DAYS * 24 * 60 // commands.DEMO_EVERY_MIN
# (capture time, busy %) of aix01's captures at 85 % or more: weekday middays whose load drew high
CROSSED = [("2026-01-09T12", 86), ("2026-01-12T14", 86), ("2026-01-15T14", 86), ("2026-01-21T12", 85),
           ("2026-01-27T12", 86), ("2026-02-06T14", 86), ("2026-02-11T12", 85), ("2026-02-12T14", 85),
           ("2026-02-18T14", 87), ("2026-02-24T12", 87), ("2026-02-25T12", 85), ("2026-02-26T12", 86),
           ("2026-03-05T12", 85)]


@pytest.fixture(scope="module")
def db(demo_home):
    yield from read_only(demo_home.serving_path)


def at(hour: str) -> dt.datetime:
    return dt.datetime.fromisoformat(hour + ":00:00")


def test_the_mart_reads_the_last_report_of_every_capture_of_the_tn_server(db):
    rows = dict_rows(db, "select * from marts.fct_host_cpu_snapshot order by captured_at")
    assert len(rows) == CAPTURES and {(r["host"], r["host_role"], r["source_command"]) for r in rows} == {
        ("aix01", "tn_server", "vmstat")}
    by_time = {r["captured_at"]: r for r in rows}
    assert all(r["busy_pct"] == r["user_pct"] + r["system_pct"] and r["io_wait_pct"] == 1 for r in rows)
    # a night's capture: the second report (the interval), not the first (since boot: 24 %)
    assert by_time[at("2026-01-05T02")]["busy_pct"] == 21


def test_the_rule_fires_at_85_percent_or_more_only(db):
    fired = db.execute(
        "select system_name, entity, interval_end, observed_value, severity from marts.rpt_threshold_exceptions "
        "where rule_id = '002-R27' order by interval_end").fetchall()
    assert fired == [("aix01", "tn_server", at(hour), float(busy), "warning") for hour, busy in CROSSED]
    # the hour before the first crossing: the same busy day, below the limit
    (below,) = db.execute("select busy_pct from marts.fct_host_cpu_snapshot "
                          "where captured_at = timestamp '2026-01-09 10:00:00'").fetchone()
    assert below == 52
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '002-R27'")
    assert (status["status"], status["kind"], status["evaluations"], status["systems"], status["findings"]) == (
        "evaluated", "threshold", CAPTURES, 1, len(CROSSED))
