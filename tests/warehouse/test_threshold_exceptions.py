"""rpt_threshold_exceptions and `perfdb report threshold` on the demo warehouse: one mart and one report
for every rule of the thresholds seed (issue 4: the network rules "appear in the same threshold report and
mart as the CPU rules, with the host, the interval and the observed value").

The golden crossing is one the commands generator plants: on day 15 of the demo (2026-01-20) Non-IP frames
reach VSE1's TCP/IP stack at 0.05 a second, so every two-hour QUERY STATS interval ending that day counts
0.05 x 7200 = 360 of them, over VSE-R1's limit of 0 (seed 004 L3268: Non-IP should be 0).
"""

from __future__ import annotations

import collections
import datetime as dt
import json

import pytest

from ingest import cli
from ingest.generate import commands
from ingest.warehouse import serving

pytestmark = pytest.mark.slow

NON_IP_DAY = commands.DEMO_START + dt.timedelta(days=15)
FIGURE_9 = {"qlen_max": ("CPU-T1", 2), "qlen_spread_across_hours": ("CPU-T2", 1), "swaps_per_s_max": ("CPU-T3", 2),
            "busy_pct_max": ("CPU-T4", 70), "busy_pct_spread_across_hours": ("CPU-T5", 20),
            "ibusy_pct_max": ("CPU-T6", 25)}


@pytest.fixture(scope="module")
def db(demo_home):
    # the report's own connection settings: DuckDB refuses a second, differently configured one in-process
    con = serving.connect_serving(demo_home)
    yield con
    con.close()


def report(capsys, home, *args: str) -> str:
    rc = cli.main(["--home", str(home.root), "report", "threshold", *args])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def test_a_network_crossing_is_in_the_unified_mart_with_host_interval_and_value(db):
    rows = db.execute(
        "select system_name, entity, source_command, interval_start, interval_end, observed_value, operator, "
        "limit_value from marts.rpt_threshold_exceptions "
        "where domain = 'network' and rule_id = 'VSE-R1' and exception_date = ? order by interval_end",
        [NON_IP_DAY],
    ).fetchall()
    midnight = dt.datetime.combine(NON_IP_DAY, dt.time())
    assert [(r[3], r[4]) for r in rows] == [
        (midnight + dt.timedelta(hours=h - 2), midnight + dt.timedelta(hours=h)) for h in range(0, 24, 2)
    ]
    assert {r[:3] for r in rows} == {("VSE1", "TCP/IP stack", "QUERY STATS")}
    assert [r[5] for r in rows] == [pytest.approx(0.05 * 7200)] * 12
    assert {r[6:] for r in rows} == {(">", 0.0)}


def test_every_network_violation_is_a_row_of_the_unified_mart(db):
    unified = db.execute(
        "select rule_id, severity, system_name, source_command, interval_start, interval_end, metric, observed_value, "
        "operator, limit_value, rule, source, exception_date from marts.rpt_threshold_exceptions "
        "where domain = 'network'"
    ).fetchall()
    network = db.execute(
        "select rule_id, severity, host, source_command, interval_start, interval_end, metric, observed_value, "
        "operator, limit_value, rule, source, cast(interval_end as date) "
        "from marts.rpt_network_threshold_violations"
    ).fetchall()
    assert collections.Counter(unified) == collections.Counter(network)
    assert len(network) > 100  # SNA-R01 alone crosses on 36 days of the demo


def test_cpu_rows_are_the_figure_1_rows_one_per_crossed_rule(db):
    unified = db.execute(
        "select system_name, exception_date, shift, entity, metric from marts.rpt_threshold_exceptions "
        "where domain = 'cpu'"
    ).fetchall()
    figure_1 = db.execute(
        "select system_name, shift_date, shift, 'cpu ' || cpu_num, unnest(rules_crossed) "
        "from marts.rpt_threshold_violations"
    ).fetchall()
    assert collections.Counter(unified) == collections.Counter(figure_1)
    assert len(figure_1) > 1000


@pytest.mark.parametrize("metric", FIGURE_9)
def test_cpu_rows_carry_the_figure_1_value_rule_and_limit(db, metric):
    rule_id, limit = FIGURE_9[metric]
    rows = db.execute(
        f"select e.observed_value, v.{metric}, e.rule_id, e.operator, e.limit_value, "
        "cast(e.interval_start as time) = v.time_of_day, e.interval_end = e.interval_start + to_hours(v.n_hours) "
        "from marts.rpt_threshold_exceptions as e "
        "inner join marts.rpt_threshold_violations as v "
        "on v.system_name = e.system_name and v.shift_date = e.exception_date and v.shift = e.shift "
        "and 'cpu ' || v.cpu_num = e.entity "
        "where e.domain = 'cpu' and e.metric = ?",
        [metric],
    ).fetchall()
    crossed = db.execute(
        f"select count(*) from marts.rpt_threshold_violations where crossed_{metric}"
    ).fetchone()[0]
    assert len(rows) == crossed
    for observed, printed, *rule in rows:
        assert observed == printed and observed > limit
        assert rule == [rule_id, ">", limit, True, True]  # the demo's shifts have all their hours


def test_report_prints_figure_1_then_the_network_crossing(capsys, demo_home, db):
    out = report(capsys, demo_home, "--date", str(NON_IP_DAY))
    figure_1, _, others = out.partition("OTHER THRESHOLD EXCEPTIONS")
    [(blocks,)] = db.execute(
        "select count(distinct (system_name, shift)) from marts.rpt_threshold_violations where shift_date = ?",
        [NON_IP_DAY],
    ).fetchall()
    assert figure_1.count("THRESHOLD REPORT") == blocks > 0
    assert " DATE: 01/20/26\n" in others
    vse = [line.split() for line in others.splitlines() if "VSE1" in line]
    assert vse[0] == ["network", "VSE1", "TCP/IP", "stack", "01/19", "22:00-00:00", "VSE-R1", "360", ">", "0",
                      "Non-IP", "frames", "reached", "the", "stack", "(should", "be", "0)"]
    assert [v[4:9] for v in vse[1:]] == [
        [f"{h:02d}:00-{h + 2:02d}:00", "VSE-R1", "360", ">", "0"] for h in range(0, 22, 2)
    ]


def test_report_json_is_the_unified_rows_of_the_date(capsys, demo_home, db):
    rows = json.loads(report(capsys, demo_home, "--date", str(NON_IP_DAY), "--format", "json"))
    columns = [c for c, *_ in db.execute("describe marts.rpt_threshold_exceptions").fetchall()]
    [(count,)] = db.execute(
        "select count(*) from marts.rpt_threshold_exceptions where exception_date = ?", [NON_IP_DAY]
    ).fetchall()
    assert [list(r) for r in rows] == [columns] * count
    assert {r["domain"] for r in rows} == {"cpu", "network"}
    first_vse = next(r for r in rows if r["rule_id"] == "VSE-R1")
    assert (first_vse["system_name"], first_vse["interval_start"], first_vse["interval_end"]) == (
        "VSE1", "2026-01-19 22:00:00", "2026-01-20 00:00:00")
    assert first_vse["observed_value"] == pytest.approx(360)


def test_the_latest_exceptions_are_every_row_of_the_last_7_days_held(db):
    days = [d for (d,) in db.execute("select distinct exception_date from marts.rpt_threshold_exceptions order by 1").fetchall()]
    last = days[-1]
    want = db.execute("select count(*) from marts.rpt_threshold_exceptions where exception_date > ?",
                      [last - dt.timedelta(days=7)]).fetchall()
    got = db.execute("select count(*), min(exception_date), max(exception_date) "
                     "from marts.rpt_threshold_exceptions_last_7_days").fetchall()
    assert got == [(want[0][0], min(d for d in days if d > last - dt.timedelta(days=7)), last)]
    assert want[0][0] > 0 and len(days) > 7  # the demo has older exceptions, left out
