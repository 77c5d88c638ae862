"""Seed 004's rules on TCP/IP for VSE's SET DIAGNOSE=PERFORM displays, on the demo warehouse: the connection mart
recomputed from the counters below it (formula 004-aF19 on the document's own sample), the rules firing on the
days the demo plants and on no other, and their status in rpt_rule_status."""

from __future__ import annotations

import datetime as dt

import pytest

from ingest.generate import _vse_diagnose, commands
from read_only_db import dict_rows, read_only

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(demo_home):
    yield from read_only(demo_home.serving_path)


def day(n: int) -> dt.date:
    return commands.DEMO_START + dt.timedelta(days=n)


def test_the_connection_mart_recomputes_from_the_displays_counters(db):
    counters = {}
    for host, at, name, value in db.execute(
            "select host, captured_at, counter_name, value from intermediate.int_counter__snapshot "
            "where command = 'DIAGNOSE=PERFORM'").fetchall():
        counters.setdefault((host, at), {})[name] = value
    rows = dict_rows(db, "select * from marts.fct_vse_connection_performance order by interval_end")
    assert len(rows) == len(counters) == commands.DEMO_DAYS
    for row in rows:
        c = counters[row["host"], row["interval_end"]]
        duration_s = c["connection_duration"] / 1e6
        assert row["duration_s"] == pytest.approx(duration_s)
        assert row["interval_start"] == row["interval_end"] - dt.timedelta(seconds=round(duration_s, 3))
        assert row["bytes_sent_per_s"] == pytest.approx(c["byte_count_of_data_sent"] / duration_s)
        assert row["sws_time_pct"] == pytest.approx(100 * c["sws_mode_total_time"] / c["connection_duration"])
        assert row["max_turnaround_ms"] == pytest.approx(c["maximum_turn_around_time"] / 1e3)
        assert (row["retransmission_mode_count"], row["depth_mode_count"]) == (
            c["retransmission_mode_count"], c["maximum_depth_mode_count"])
    # the document's sample (L3449-L3465): 10,747,742 bytes in 22.52 s, 16.16 s of it in SWS mode
    (sample,) = [r for r in rows if r["interval_end"].date() == day(_vse_diagnose.SAMPLE_DAY)]
    assert round(sample["bytes_sent_per_s"]) == 477259 and round(sample["sws_time_pct"], 2) == 71.76
    assert (sample["sws_mode_count"], sample["retransmissions_count"], sample["resent_pct"]) == (123, 0, 0)


def test_each_rule_fires_on_its_planted_day_only(db):
    fired = db.execute(
        "select rule_id, cast(interval_end as date), observed_value from marts.rpt_threshold_exceptions "
        "where rule_id in ('004-bR7', '004-bR8', '004-bR9', '004-aR25', '004-aR27') order by 2, 1").fetchall()
    assert fired == [
        ("004-bR7", day(_vse_diagnose.RETRANSMIT_DAY), 2.0),  # retransmission mode entered twice (L3476)
        ("004-aR27", day(_vse_diagnose.SAMPLE_DAY), pytest.approx(71.7618, abs=1e-4)),  # SWS mode > 50 % (L3457)
        ("004-bR8", day(_vse_diagnose.SAMPLE_DAY), pytest.approx(71.7618, abs=1e-4)),
        ("004-bR9", day(_vse_diagnose.DEPTH_DAY), 3.0),  # maximum depth mode (L3477)
        ("004-aR25", day(_vse_diagnose.SLOW_ACK_DAY), 620.0),  # a block waited 620 ms for its ACK (L1043)
    ]


def test_the_rules_and_the_formula_are_evaluated_on_every_display(db):
    status = {r["rule_id"]: (r["status"], r["evaluations"], r["findings"]) for r in dict_rows(
        db, "select * from marts.rpt_rule_status where rule_id in "
            "('004-bR7', '004-bR8', '004-bR9', '004-aR25', '004-aR27', '004-aF19')")}
    days = commands.DEMO_DAYS
    assert status == {
        "004-bR7": ("evaluated", days, 1), "004-bR8": ("evaluated", days, 1), "004-bR9": ("evaluated", days, 1),
        "004-aR25": ("evaluated", days, 1), "004-aR27": ("evaluated", days, 1), "004-aF19": ("evaluated", days, None),
    }
