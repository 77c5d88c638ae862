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
        "e.interval_start = s.first_hour_start, e.interval_end = e.interval_start + to_hours(v.n_hours) "
        "from marts.rpt_threshold_exceptions as e "
        "inner join marts.rpt_threshold_violations as v "
        "on v.system_name = e.system_name and v.shift_date = e.exception_date and v.shift = e.shift "
        "and 'cpu ' || v.cpu_num = e.entity "
        "inner join marts.fct_cpu_shift as s on s.system_name = v.system_name and s.shift_date = v.shift_date "
        "and s.shift = v.shift and s.cpu_num = v.cpu_num "
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
    assert {r["domain"] for r in rows} == {"cpu", "line", "process", "userdef", "dasd", "network"}
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


# -- Figure 1's columns recomputed from the hours (issue 25) --------------------------------------------


def hourly_shifts(db) -> dict[tuple, list[tuple]]:
    """Each processor shift's hours of int_cpu__hourly, (hour_start, busy_pct, qlen) in hour order."""
    shifts = collections.defaultdict(list)
    for system, cpu, day, shift, hour, busy, qlen in db.execute(
        "select system_name, cpu_num, shift_date, shift, hour_start, busy_pct, qlen "
        "from intermediate.int_cpu__hourly where shift is not null order by hour_start"
    ).fetchall():
        shifts[(system, cpu, day, shift)].append((hour, busy, qlen))
    return shifts


def test_time_of_day_is_the_hour_of_the_processors_max_busy(db):
    hours = hourly_shifts(db)
    rows = db.execute(
        "select system_name, cpu_num, shift_date, shift, time_of_day, busy_pct_max "
        "from marts.rpt_threshold_violations"
    ).fetchall()
    for *key, time_of_day, busy_max in rows:
        shift_hours = hours[tuple(key)]
        top = max(busy for _, busy, _ in shift_hours)
        first_top = next(hour for hour, busy, _ in shift_hours if busy == top)  # the first hour on a tie
        assert (time_of_day, busy_max) == (first_top.time(), top), key
    # Figure 1 prints 11:00, 13:00, 14:00 ...: the demo's maxima fall on most hours, not the 3 shift starts
    assert len({r[4] for r in rows}) > 12


def test_figure_9_spreads_are_max_minus_min_of_the_processors_hours(db):
    """CPU-T5 and CPU-T2: BUSY-DELT and QLEN-DELT of Fig. 9 over the Fig. 6 records of one processor and
    shift, i.e. across its hours (not across processors, the Fig. 2 trend report's DELT)."""
    limits = dict(db.execute(
        "select rule_id, \"limit\" from seeds.thresholds where rule_id in ('CPU-T2', 'CPU-T5')").fetchall())
    expected = {"CPU-T5": {}, "CPU-T2": {}}
    for (system, cpu, day, shift), shift_hours in hourly_shifts(db).items():
        busy = [b for _, b, _ in shift_hours if b is not None]
        qlen = [q for _, _, q in shift_hours if q is not None]  # z/OS processors have no queue length
        for rule_id, values in (("CPU-T5", busy), ("CPU-T2", qlen)):
            if values and max(values) - min(values) > limits[rule_id]:
                expected[rule_id][(system, f"cpu {cpu}", day, shift)] = max(values) - min(values)
    for rule_id, want in expected.items():
        got = {tuple(key): value for *key, value in db.execute(
            "select system_name, entity, exception_date, shift, observed_value from marts.rpt_threshold_exceptions "
            "where rule_id = ?", [rule_id]).fetchall()}
        assert got.keys() == want.keys() and len(got) > 0
        assert all(got[key] == pytest.approx(want[key]) for key in want)


def test_os_version_is_carried_forward_on_days_whose_records_name_none(db):
    measured = collections.defaultdict(dict)  # system -> shift date -> version its last hour named
    for system, day, version in db.execute(
        "select system_name, shift_date, max_by(os_version, first_hour_start) from marts.fct_cpu_shift "
        "where os_version is not null group by all"
    ).fetchall():
        measured[system][day] = version
    rows = db.execute(
        "select v.system_name, v.shift_date, v.os_version, v.os_version_carried_forward, v.os_version_measured_on, "
        "s.os_version from marts.rpt_threshold_violations as v "
        "inner join marts.fct_cpu_shift as s using (system_name, shift_date, shift, cpu_num)"
    ).fetchall()
    carried = [r for r in rows if r[3]]
    # the demo's MEASCOM text days (Wednesdays) name no version; every Figure 1 row has one now
    assert len(carried) > 100 and all(r[2] is not None for r in rows)
    for system, day, version, was_carried, measured_on, own in rows:
        assert was_carried == (own is None)
        if was_carried:
            last = max(d for d in measured[system] if d <= day)
            assert (version, measured_on) == (measured[system][last], last)
            assert measured_on < day or own is None
        else:
            assert (version, measured_on) == (own, day)


# the shift rules "for process, disk, line, and USERDEF data" (King 1986, L2119): the fact, the value,
# what names the entity, and the rows a rule compares
SHIFT_RULES = {
    "LINE-T1": ("marts.fct_line_shift", "busy_pct_max", "device_name", "true"),
    "PROC-T1": ("marts.fct_process_shift", "pqlen_max", "process_key", "true"),
    "USERDEF-T1": ("marts.fct_userdef_shift", "counter_rate_max", "process_key || ' ' || counter_name",
                   "counter_name = 'RESP-TIME'"),
    # SMF 74.1 volumes: the shift's response time from its summed intervals (docs/smf74_format.md)
    "DASD-T1": ("marts.fct_dasd_shift", "response_ms", "volser || ' (' || device_number || ')'", "true"),
}


@pytest.mark.parametrize("rule_id", SHIFT_RULES)
def test_line_process_and_userdef_crossings_are_the_shifts_over_their_limit(db, rule_id):
    fact, metric, entity, compared = SHIFT_RULES[rule_id]
    [(operator, limit)] = db.execute(
        "select operator, \"limit\" from seeds.thresholds where rule_id = ?", [rule_id]).fetchall()
    assert operator == ">"
    want = db.execute(
        f"select system_name, {entity}, shift_date, shift, {metric} from {fact} "
        f"where {compared} and {metric} > ?", [limit]).fetchall()
    got = db.execute(
        "select system_name, entity, exception_date, shift, observed_value from marts.rpt_threshold_exceptions "
        "where rule_id = ?", [rule_id]).fetchall()
    assert collections.Counter(got) == collections.Counter(want)
    assert len(want) > 0  # the demo crosses each of them


def test_the_oltp_band_judges_oltp_servers_only(db):
    """Glasstone 1986 (L2264): 5 to 20 file I/Os per OLTP transaction, for server processes (L2262); a batch
    job's, a monitor's, disc process's or line handler's messages are not transactions."""
    servers = {workload for (workload,) in db.execute(
        "select workload from seeds.workload_definitions where platform = 'nonstop' group by 1 "
        "having max(component) = 'application' and not max(coalesce(batch, false))").fetchall()}
    workloads = {
        (system, day, program, process): workload
        for system, day, program, process, workload in db.execute(
            "select system_name, day, primary_name, secondary_name, workload from intermediate.int_workload__entity "
            "where platform = 'nonstop' and primary_source = 'program'"
        ).fetchall()
    }
    rows = db.execute(
        "select system_name, report_date, program_file_name, process_name, messages_sent_count, "
        "messages_received_count, io_per_trans, oltp_band_rule_id from marts.rpt_process_activity"
    ).fetchall()
    flagged = batch_above = 0
    for system, day, program, process, sent, received, io_per_trans, rule_id in rows:
        assert io_per_trans == pytest.approx(sent / received)
        server = workloads.get((system, day, program, process)) in servers
        want = ("PROC-ACT-HI" if io_per_trans > 20 else "PROC-ACT-LO" if io_per_trans < 5 else None) if server else None
        assert rule_id == want, (program, io_per_trans)
        flagged += want is not None
        batch_above += not server and workloads.get((system, day, program, process)) == "BATCH" and io_per_trans > 20
    assert 0 < flagged < len(rows) / 4
    # the demo's batch jobs read far more than 20 I/Os per message received, and no rule judges them
    assert batch_above == 240


def test_report_states_how_many_rows_each_rule_flagged(capsys, demo_home, db):
    day = NON_IP_DAY
    out = report(capsys, demo_home, "--date", str(day))
    block = out.partition("ROWS FLAGGED PER RULE\n")[2].splitlines()[4:-1]
    printed = {line.split()[0]: int(line.split()[-1]) for line in block}
    want = dict(db.execute(
        "select rule_id, count(*) from marts.rpt_threshold_exceptions where exception_date = ? group by 1", [day]
    ).fetchall())
    want.update(db.execute(
        "select oltp_band_rule_id, count(*) from marts.rpt_process_activity "
        "where report_date = ? and oltp_band_rule_id is not null group by 1", [day]).fetchall())
    rules = {r for (r,) in db.execute(
        "select rule_id from seeds.thresholds where entity not in ('busy_process')").fetchall()}
    assert printed == {rule_id: want.get(rule_id, 0) for rule_id in rules}
    assert printed["CPU-T5"] == db.execute(
        "select count(*) from marts.rpt_threshold_violations where shift_date = ? and crossed_busy_pct_spread_across_hours",
        [day]).fetchone()[0] > 0
    assert all(printed[r] > 0 for r in ("LINE-T1", "PROC-T1", "USERDEF-T1"))
