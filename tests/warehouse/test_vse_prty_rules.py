"""Seed 004's PRTY rule (004-aR20) on the demo warehouse: VSE1's partition priorities each morning, the
document's sequence but on the day a batch partition runs above TCP/IP; the mart recomputed from the
displayed places, the rule firing on that day only, and its status in rpt_rule_status."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from ingest.generate import commands
from read_only_db import dict_rows, read_only

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(demo_home):
    yield from read_only(demo_home.serving_path)


def test_the_mart_places_tcpip_among_the_displayed_partitions(db):
    displayed = db.execute(
        "select host, captured_at, entity, value from intermediate.int_counter__snapshot "
        "where command = 'PRTY' and counter_name = 'priority_position' order by host, captured_at").fetchall()
    places = {key: {p: place for *_, p, place in group}
              for key, group in itertools.groupby(displayed, key=lambda r: (r[0], r[1]))}
    rows = dict_rows(db, "select * from marts.fct_vse_partition_priority order by captured_at")
    assert len(rows) == len(places) == commands.DEMO_DAYS
    for row in rows:
        shown = places[row["host"], row["captured_at"]]
        above = {p for p, place in shown.items() if place > shown["F7"]}
        assert row["tcpip_position"] == shown["F7"] and row["partitions_count"] == len(shown) == 18
        # seed 004 L2234: Batch, CICS, TCP/IP, VTAM, POWER; only VTAM (F3) and POWER (F1) belong above TCP/IP
        assert row["tcpip_outranked_count"] == len(above - {"F3", "F1"})
        assert row["cics_above_tcpip"] is False
    by_day = {(r["captured_at"].date() - commands.DEMO_START).days: r for r in rows}
    assert (by_day[0]["tcpip_position"], by_day[0]["tcpip_outranked_count"]) == (16, 0)  # F2, F7, F3, F1 on top
    assert (by_day[commands.PRTY_DAY]["tcpip_position"], by_day[commands.PRTY_DAY]["tcpip_outranked_count"]) == (15, 1)


def test_the_rule_fires_on_the_day_a_batch_partition_runs_above_tcpip_only(db):
    fired = db.execute(
        "select system_name, entity, interval_end, observed_value, severity from marts.rpt_threshold_exceptions "
        "where rule_id = '004-aR20'").fetchall()
    day = commands.DEMO_START + dt.timedelta(days=commands.PRTY_DAY)
    assert fired == [("VSE1", "F7", dt.datetime.combine(day, dt.time(commands.PRTY_HOUR)), 1.0, "info")]
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '004-aR20'")
    assert (status["status"], status["kind"], status["evaluations"], status["systems"], status["findings"]) == (
        "evaluated", "threshold", commands.DEMO_DAYS, 1, 1)
