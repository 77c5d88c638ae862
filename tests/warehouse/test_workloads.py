"""Workloads on both platforms: generated SMF 72.3 and MEASURE data come back through the seed
workload_definitions and the workload marts with the shares the generators wrote; unassigned work is
reported; weekly rows are the sums of their shift rows (workloads and processors). The seed's other
sources: MEASURE USERDEF counters, SMF 30 steps by report class, SMF 119 connections by port and host;
what a transaction costs by component, system overhead (measured CPU minus all processes, seed 001 L3441)
included, recomputed from the processor, process and counter rows; and the sizing formulas on the measured
FTP, TN3270 and application work.

One warehouse of its own: z/OS system SYSA and NonStop system \\PROD1 from Sunday 2026-01-04 to
Tuesday 2026-01-06 (two ISO weeks), built with the workload models and what they read."""

from __future__ import annotations

import csv
import datetime as dt
import fnmatch
import json
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from ingest import cli, dbt_runner, pipeline
from ingest.capacity import sizing
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import measure as measure_gen
from ingest.generate import smf as smf_gen
from ingest.generate._measure_inventory import SystemSpec
from ingest.home import Home
from ingest.warehouse import serving
from read_only_db import read_only

REPO = Path(__file__).parents[2]
START, DAYS, SEED = dt.date(2026, 1, 4), 3, 14
MODELS = "+fct_workload_hourly +fct_workload_userdef_hourly +fct_zos_work_hourly +fct_workload_tcp_hourly +fct_workload_weekly +fct_workload_daily +rpt_capacity_sizing_measured +rpt_workload_characterization +rpt_workload_cost_per_transaction +fct_capacity_cost_per_transaction +fct_cpu_weekly"


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Home:
    home = Home(tmp_path_factory.mktemp("workloads")).create()
    smf_gen.generate(home.landing / "smf", ["SYSA"], START, DAYS, SEED, forms={"SYSA": "vbs"})
    measure_gen.generate(SystemSpec("PROD1", cpus=4, start=START, days=DAYS, seed=SEED), home.landing / "measure", ["csv"])
    assert {r.status for r in pipeline.ingest_paths(home, [home.landing])} == {"loaded"}
    assert dbt_runner.build(home, select=MODELS, quiet=True) == 0
    serving.publish(home)  # for the sizing report, which reads the published copy
    return home


@pytest.fixture(scope="module")
def db(home):
    yield from read_only(home.db_path)


def plans() -> list[smf_plan.DayPlan]:
    return [smf_plan.plan_day("SYSA", START + dt.timedelta(days=k), SEED) for k in range(DAYS)]


def seed_rows() -> list[dict]:
    with open(REPO / "dbt_project" / "seeds" / "workload_definitions.csv", newline="") as f:
        return list(csv.DictReader(f))


def workload_of(platform: str, names: dict[str, str | None]) -> str:
    """The seed's rule, read independently of the SQL: highest priority, then longest pattern, else unassigned."""
    hits = [r for r in seed_rows() if r["platform"] == platform and names.get(r["source"]) is not None
            and fnmatch.fnmatchcase(names[r["source"]], r["pattern"])]
    if not hits:
        return "unassigned"
    return max(hits, key=lambda r: (int(r["priority"] or -1), len(r["pattern"]), [-ord(c) for c in r["pattern"]]))["workload"]


def test_a_generated_day_round_trips_through_staging(db):
    want: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    for plan in plans():
        for c in plan.wlm:
            w = want[c.wlm.name]
            w[0] += c.cpu_service_units
            w[1] += c.transactions
            w[2] += c.ziip_service_units
            w[3] += c.cp_s
    got = db.execute("""
        select class_name, sum(cpu_service_units), sum(transactions), sum(ziip_service_units), sum(cp_cpu_s)
        from staging.stg_smf__workload_period where interval_start < ? group by class_name""",
                     [dt.datetime.combine(START + dt.timedelta(days=DAYS), dt.time())]).fetchall()
    assert {name: (cpu, tx, ziip) for name, cpu, tx, ziip, _ in got} == {n: (w[0], w[1], w[2]) for n, w in want.items()}
    assert {name: round(cp, 6) for name, *_, cp in got} == {n: round(w[3], 6) for n, w in want.items()}


def test_service_classes_get_their_workloads_by_priority_then_longest_pattern(db):
    got = dict(db.execute("""
        select primary_name, workload from intermediate.int_workload__entity where platform = 'zos'""").fetchall())
    # DDFHIGH: DDF* has priority 10 and wins over the longer *HIGH; SYSSTC matches nothing
    assert got == {"CICSHIGH": "ONLINE", "DDFHIGH": "DB2-DDF", "STCHI": "STARTED-TASKS", "BATCHMED": "BATCH",
                   "TSOHI": "TSO", "SYSSTC": "unassigned"}
    assert got == {c.name: workload_of("zos", {"service_class": c.name}) for c in smf_plan.WLM_CLASSES}


def test_zos_workload_shares_are_the_generated_shares(db):
    share = {"day": defaultdict(float), "night": defaultdict(float)}
    for c in smf_plan.WLM_CLASSES:
        share["day"][workload_of("zos", {"service_class": c.name})] += 100 * c.share_day
        share["night"][workload_of("zos", {"service_class": c.name})] += 100 * c.share_night
    for hour, period in ((dt.datetime(2026, 1, 5, 10), "day"), (dt.datetime(2026, 1, 6, 2), "night")):
        got = dict(db.execute("""
            select workload, cpu_share_pct from marts.fct_workload_hourly
            where platform = 'zos' and system_name = 'SYSA' and hour_start = ?""", [hour]).fetchall())
        assert got.keys() == share[period].keys() and "unassigned" in got
        assert all(abs(got[w] - share[period][w]) < 0.5 for w in got), (got, dict(share[period]))
    # the whole run: CP seconds per workload, as the plans wrote them, within 0.5 percentage points
    cp: dict[str, float] = defaultdict(float)
    for plan in plans():
        for c in plan.wlm:
            cp[workload_of("zos", {"service_class": c.wlm.name})] += c.cp_s
    got = dict(db.execute("""
        select workload, 100 * sum(cpu_s) / sum(sum(cpu_s)) over () from marts.fct_workload_monthly
        where platform = 'zos' group by workload""").fetchall())
    assert got.keys() == cp.keys()
    assert all(abs(got[w] - 100 * cp[w] / sum(cp.values())) < 0.5 for w in got)
    tx = db.execute("""
        select sum(transactions), round(sum(cpu_s) * 1000 / sum(transactions), 6) from marts.fct_workload_hourly
        where platform = 'zos' and workload = 'TSO'""").fetchone()
    tso = [c for plan in plans() for c in plan.wlm if c.wlm.name == "TSOHI"]
    assert tx == (sum(c.transactions for c in tso), round(sum(c.cp_s for c in tso) * 1000 / sum(c.transactions for c in tso), 6))


def test_nonstop_workloads_follow_the_seed_and_keep_unassigned_work(db):
    by_entity = db.execute("""
        select program_file_name, process_name, sum(cpu_busy_s), sum(messages_received_count)
        from intermediate.int_process__hourly group by all""").fetchall()
    want: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for program, process, cpu_s, received in by_entity:
        w = want[workload_of("nonstop", {"program": program, "process": process})]
        w[0] += cpu_s
        w[1] += received
    got = db.execute("""
        select workload, sum(cpu_s), sum(transactions) from marts.fct_workload_hourly
        where platform = 'nonstop' group by workload""").fetchall()
    assert {w: (round(cpu, 3), tx) for w, cpu, tx in got} == {w: (round(v[0], 3), v[1]) for w, v in want.items()}
    assert "unassigned" in want and want["unassigned"][0] > 0
    # every hour's shares add up to 100 %, unassigned included
    assert db.execute("""
        select min(total), max(total) from (
            select round(sum(cpu_share_pct), 9) as total from marts.fct_workload_hourly group by platform, system_name, hour_start
        ) as t""").fetchone() == (100.0, 100.0)


def test_userdef_counters_go_with_the_workloads_of_their_programs(db):
    # MEASURE USERDEF: the instrumented $PROGS.SERVER1 programs count RESP-TIME and THROUGHPUT; no
    # `userdef` row is shipped, so each counter takes its program's workload
    by_counter = db.execute("""
        select program_file_name, counter_name, sum(counter_value) from intermediate.int_userdef__hourly
        group by all""").fetchall()
    want: dict[tuple, float] = defaultdict(float)
    for program, counter, value in by_counter:
        want[(workload_of("nonstop", {"userdef": counter, "program": program}), counter)] += value
    got = db.execute("""
        select workload, counter_name, sum(counter_value) from marts.fct_workload_userdef_hourly group by all""").fetchall()
    assert {(w, c): v for w, c, v in got} == dict(want)
    assert {w for w, _, _ in got} == {"ACCOUNTS", "CUSTOMERS", "ORDERS"}
    assert {c for _, c, _ in got} == {"RESP-TIME", "THROUGHPUT"}


def test_smf30_steps_take_their_report_class_workload_else_their_service_class_one(db):
    jobs = dict(db.execute("""
        select distinct job_name, workload from marts.fct_zos_work_hourly where work_type = 'STC'""").fetchall())
    # RTCPIP names the TCP/IP stack, whose service class SYSSTC no row maps; DDF* (priority 10) wins
    assert jobs == {"CICSPRD1": "ONLINE", "CICSPRD2": "ONLINE", "DB2PDBM1": "STARTED-TASKS", "DB2PDIST": "DB2-DDF",
                    "MQP1MSTR": "STARTED-TASKS", "TCPIP": "TCPIP", "FTPD1": "FTP", "TN3270": "TN3270"}
    pieces = db.execute("""
        select report_class, service_class, sum(cpu_s) from intermediate.int_zos_work__piece group by all""").fetchall()
    want: dict[str, float] = defaultdict(float)
    for report_class, service_class, cpu_s in pieces:
        want[workload_of("zos", {"report_class": report_class, "service_class": service_class})] += cpu_s
    got = db.execute("select workload, sum(cpu_s) from marts.fct_zos_work_hourly group by workload").fetchall()
    assert {w: round(cpu, 6) for w, cpu in got} == {w: round(cpu, 6) for w, cpu in want.items()}
    assert {"TCPIP", "BATCH", "TSO"} <= want.keys() and "unassigned" not in want


def test_tcp_connections_take_the_workload_of_their_port_or_remote_host(db):
    want: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for plan in plans():
        for c in plan.connections:
            port = c.remote_port if c.active_open else c.local_port
            w = want[workload_of("zos", {"tcp_port": str(port), "host": c.remote_ip})]
            w[0] += 1
            w[1] += c.in_bytes
            w[2] += c.out_bytes
    got = db.execute("""
        select workload, sum(connection_count), sum(in_bytes), sum(out_bytes) from marts.fct_workload_tcp_hourly
        group by workload""").fetchall()
    assert {w: tuple(v) for w, *v in got} == {w: tuple(v) for w, v in want.items()}
    # 203.0.113.* is longer than any port, so partners' web and MQ traffic is theirs; IPv6 web work no row names
    assert want.keys() == {"TN3270", "FTP", "DB2-DDF", "MQ", "PARTNER-LINKS", "unassigned"}


def test_characterization_finds_the_few_workloads_that_make_80_percent(db):
    got = db.execute("""
        select workload, cpu_rank, is_major from marts.rpt_workload_characterization
        where platform = 'zos' order by cpu_rank""").fetchall()
    shares = db.execute("""
        select workload, cpu_share_pct from marts.fct_workload_monthly where platform = 'zos' order by cpu_s desc, workload""").fetchall()
    running, major = 0.0, []
    for workload, pct in shares:
        major.append(running < 80)
        running += pct
    assert got == [(w, k + 1, m) for k, ((w, _), m) in enumerate(zip(shares, major))]
    assert [w for w, _, m in got if m] != [w for w, _, _ in got]  # a few workloads, not all


def test_weekly_rows_are_the_sums_of_their_shift_rows(db):
    shifts = db.execute("""
        select platform, system_name, shift_date, shift, workload, cpu_s, transactions from marts.fct_workload_shift""").fetchall()
    want: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0, 0])
    for platform, system, day, shift, workload, cpu_s, tx in shifts:
        w = want[(platform, system, day - dt.timedelta(days=day.weekday()), shift, workload)]
        w[0] += cpu_s
        w[1] += tx or 0
        w[2] += 1
    got = db.execute("""
        select platform, system_name, week_start, shift, workload, cpu_s, coalesce(transactions, 0), n_days
        from marts.fct_workload_weekly""").fetchall()
    assert {k[:5]: (round(k[5], 6), k[6], k[7]) for k in got} == {k: (round(v[0], 6), v[1], v[2]) for k, v in want.items()}
    assert {k[2] for k in got} == {dt.date(2025, 12, 29), dt.date(2026, 1, 5)}  # Mondays: Sunday the 4th is in the first week
    # each shift carries its day's type from the calendar, to scope by
    assert dict(db.execute("select distinct shift_date, day_type from marts.fct_workload_shift").fetchall()) == {
        dt.date(2026, 1, 4): "weekend", dt.date(2026, 1, 5): "workday", dt.date(2026, 1, 6): "workday"}


def test_daily_rows_sum_their_shifts_and_give_each_workload_its_share_of_the_day(db):
    shifts = db.execute("""
        select platform, system_name, shift_date, workload, cpu_s, transactions from marts.fct_workload_shift""").fetchall()
    want: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0])
    for platform, system, day, workload, cpu_s, tx in shifts:
        w = want[(platform, system, day, workload)]
        w[0] += cpu_s
        w[1] += tx or 0
    day_cpu: dict[tuple, float] = defaultdict(float)
    for (platform, system, day, _), (cpu_s, _) in want.items():
        day_cpu[(platform, system, day)] += cpu_s
    got = db.execute("""
        select platform, system_name, shift_date, workload, cpu_s, coalesce(transactions, 0), cpu_share_pct
        from marts.fct_workload_daily""").fetchall()
    assert {k[:4]: (round(k[4], 6), k[5], round(k[6], 6)) for k in got} == {
        k: (round(v[0], 6), v[1], round(100 * v[0] / day_cpu[k[:3]], 6)) for k, v in want.items()}
    assert len(got) == len(want) and {k[1] for k in got} == {"SYSA", "\\PROD1"}


def test_processor_weeks_condense_their_shift_rows(db):
    shifts = db.execute("""
        select system_name, cpu_num, shift, shift_date, n_hours, busy_pct_avg, busy_pct_max, busy_pct_min
        from marts.fct_cpu_shift""").fetchall()
    want: dict[tuple, list] = defaultdict(list)
    for system, cpu, shift, day, *values in shifts:
        want[(system, cpu, shift, day - dt.timedelta(days=day.weekday()))].append(values)
    got = db.execute("""
        select system_name, cpu_num, shift, week, n_shifts, n_hours, busy_pct_avg, busy_pct_max, busy_pct_min
        from marts.fct_cpu_weekly""").fetchall()
    assert {k[:4]: (k[4], k[5], round(k[6], 9), k[7], k[8]) for k in got} == {
        k: (len(v), sum(x[0] for x in v), round(sum(x[1] for x in v) / len(v), 9), max(x[2] for x in v), min(x[3] for x in v))
        for k, v in want.items()}
    assert {k[3] for k in got} == {dt.date(2025, 12, 29), dt.date(2026, 1, 5)}


def measured_system_days(db) -> dict[tuple, dict]:
    """Per platform, system and day, recomputed from the rows below the marts: the busy seconds of all the
    processors (MEASURE CPU; RMF CP busy), the transactions (MEASURE THROUGHPUT counters; the transactions
    ended in the application service classes) and each component's process or class CPU (MEASURE PROCESS;
    SMF 72.3), over the hours that have both processors and transactions."""
    component = {(r["platform"], r["workload"]): r["component"] for r in seed_rows()}
    busy = {("nonstop", s, h): v for s, h, v in db.execute("""
        select system_name, hour_start, sum(busy_pct / 100 * measured_s) from intermediate.int_cpu__hourly
        where source = 'measure' group by all""").fetchall()}
    busy |= {("zos", s, h): v for s, h, v in db.execute("""
        select system_id, date_trunc('hour', interval_start), sum(busy_s) from marts.fct_zos_cpu_type_interval
        where cpu_type = 'CP' group by all""").fetchall()}
    tx = {("nonstop", s, h): v for s, h, v in db.execute("""
        select system_name, hour_start, sum(counter_value) from intermediate.int_userdef__hourly
        where counter_name = 'THROUGHPUT' group by all""").fetchall()}
    for system, hour, workload, n in db.execute("""
            select system_name, hour_start, workload, transactions from intermediate.int_workload__hourly
            where platform = 'zos'""").fetchall():
        if component.get(("zos", workload)) == "application":
            tx[("zos", system, hour)] = tx.get(("zos", system, hour), 0) + n
    process = [("nonstop", s, h, workload_of("nonstop", {"program": p, "process": n}), c) for s, h, p, n, c in db.execute("""
        select system_name, hour_start, program_file_name, process_name, cpu_busy_s from intermediate.int_process__hourly""").fetchall()]
    process += [("zos", s, h, workload_of("zos", {"service_class": c}), v) for s, h, c, v in db.execute("""
        select system_id, date_trunc('hour', interval_start), class_name, cp_cpu_s from staging.stg_smf__workload_period
        where not is_report_class""").fetchall()]
    days: dict[tuple, dict] = defaultdict(lambda: {"measured": 0.0, "transactions": 0, "components": defaultdict(float)})
    for key in busy.keys() & tx.keys():
        day = days[(key[0], key[1], key[2].date())]
        day["measured"] += busy[key]
        day["transactions"] += tx[key]
    for platform, system, hour, workload, cpu_s in process:
        if (platform, system, hour) in busy.keys() & tx.keys():
            days[(platform, system, hour.date())]["components"][component.get((platform, workload), "system")] += cpu_s
    return days


def test_cost_per_transaction_components_add_up_to_the_measured_cpu(db):
    days = measured_system_days(db)
    got: dict[tuple, dict] = defaultdict(dict)
    for platform, system, day, component, cpu_s, tx, ms, total_ms, measured, captured, capture in db.execute("""
            select platform, system_name, day, component, cpu_s, transactions, cpu_ms_per_transaction,
                total_cpu_ms_per_transaction, measured_cpu_s, captured_cpu_s, capture_ratio_pct
            from marts.rpt_workload_cost_per_transaction""").fetchall():
        want = days[(platform, system, day)]
        captured_want = sum(want["components"].values())
        # one transaction count and one total: all the processors' busy seconds x 1000 / transactions
        assert (tx, round(measured, 3), round(captured, 3)) == (want["transactions"], round(want["measured"], 3), round(captured_want, 3))
        assert total_ms == pytest.approx(1000 * want["measured"] / want["transactions"], rel=1e-9)
        assert capture == pytest.approx(100 * captured_want / want["measured"], rel=1e-9)
        # system overhead: "the difference between total CPU time and all processes" (seed 001 L3441)
        cpu_want = want["measured"] - captured_want if component == "system_overhead" else want["components"][component]
        assert cpu_s == pytest.approx(cpu_want, rel=1e-9, abs=1e-6)
        assert ms == pytest.approx(1000 * cpu_want / want["transactions"], rel=1e-9, abs=1e-9)
        got[(platform, system, day)][component] = (ms, total_ms)
    assert got.keys() == days.keys() and {k[1] for k in got} == {"SYSA", "\\PROD1"}
    for components in got.values():  # the components of a system-day add up to its total (Fig. 7's rows to theirs)
        total_ms = next(iter(components.values()))[1]
        assert sum(ms for ms, _ in components.values()) == pytest.approx(total_ms, rel=0.01)
    assert {c for k, v in got.items() if k[0] == "nonstop" for c in v} == {
        "application", "pathway_tcp", "tmf_disk", "line_handler", "system", "system_overhead"}
    # the generated z/OS day: the classes capture CAPTURE_RATIO of the CP busy time
    assert {round(v["system_overhead"][0] / v["system_overhead"][1], 2) for k, v in got.items() if k[0] == "zos"} == {
        round(1 - smf_plan.CAPTURE_RATIO, 2)}


def test_cost_per_transaction_marts_count_the_same_transactions(db):
    hourly = db.execute("""
        select system_name, cast(period_start as date), sum(transactions), sum(cpu_count * busy_pct / 100 * period_s)
        from marts.fct_capacity_cost_per_transaction where source <> 'benchmark' group by all""").fetchall()
    daily = dict(((s, d), (tx, measured)) for s, d, tx, measured in db.execute("""
        select distinct system_name, day, transactions, measured_cpu_s from marts.rpt_workload_cost_per_transaction""").fetchall())
    assert {(s, d): (tx, round(cpu, 3)) for s, d, tx, cpu in hourly} == {k: (tx, round(m, 3)) for k, (tx, m) in daily.items()}


def test_daily_workload_shares_add_up_to_100_and_the_chart_shows_the_top_band(db):
    totals = [t for (t,) in db.execute("""
        select sum(cpu_share_pct) from marts.fct_workload_daily group by platform, system_name, shift_date""").fetchall()]
    assert totals and all(t == pytest.approx(100, abs=1e-9) for t in totals)
    chart = yaml.safe_load((REPO / "dashboards/charts/share_of_cpu_by_workload.yaml").read_text())
    form_data = json.loads(chart["query_context"])["form_data"]
    for params in (chart["params"], form_data):  # a fixed top of 100 hid the band of a day at 100.0000001
        low, high = params["y_axis_bounds"]
        assert low == 0 and (high is None or high >= max(totals))


def test_sizing_report_applies_the_documents_formulas_to_the_measured_workloads(home, db, capsys):
    assert cli.main(["--home", str(home.root), "report", "sizing", "--mips", "1200", "--format", "json"]) == 0
    got = {(r["system_name"], r["workload"]): r for r in json.loads(capsys.readouterr().out)}
    applications = {r["workload"] for r in seed_rows() if r["component"] == "application"}
    monthly = [row for row in db.execute("""
        select system_name, workload, transactions, cpu_ms_per_transaction from marts.fct_workload_monthly
        where transactions > 0 and month_start = date '2026-01-01'""").fetchall() if row[1] in applications]
    assert got.keys() == {(s, w) for s, w, *_ in monthly} and ("SYSA", "TSO") in got
    for system, workload, transactions, cpu_ms in monthly:
        row = got[(system, workload)]
        assert (row["transactions"], row["cpu_ms_per_transaction"]) == (transactions, round(cpu_ms, 4))
        assert row["transactions_per_s_per_cpu"] == round(0.70 * 1000 / cpu_ms, 4)
        assert row["pathlength_ki"] == round(cpu_ms * 1200, 1)
        assert row["tn3270_terminals_per_processor"] == round(sizing.tn3270_terminals_per_processor(0.70, 1200, cpu_ms * 1200), 1)
    # the generated TSO class: 20 transactions a CP second, 50 ms each, 14 a second per processor at 70 %
    assert (got[("SYSA", "TSO")]["cpu_ms_per_transaction"], got[("SYSA", "TSO")]["transactions_per_s_per_cpu"]) == (
        pytest.approx(50, abs=0.1), pytest.approx(14, abs=0.05))


def test_sizing_mart_applies_the_formulas_to_the_measured_ftp_tn3270_and_application_work(home, db, capsys):
    cols = ("ftp_transfers", "ftp_bytes", "ftp_cpu_s", "tn3270_sessions", "tn3270_session_hours", "tn3270_bytes",
            "tn3270_cpu_s", "ftp_ki_per_kb", "mips_per_engine", "application_cpu_ms_per_transaction", "pathlength_ki",
            "tn3270_terminals_per_processor")
    got = {(r[0], r[1]): dict(zip(cols, r[2:])) for r in db.execute(f"""
        select system_id, measured_date, {', '.join(cols)} from marts.rpt_capacity_sizing_measured""").fetchall()}
    applications = {r["workload"] for r in seed_rows() if r["component"] == "application"}
    cost: dict[dt.date, list[float]] = defaultdict(lambda: [0.0, 0])
    for day, workload, cpu_s, tx in db.execute("""
            select cast(hour_start as date), workload, cpu_s, transactions from marts.fct_workload_hourly
            where platform = 'zos' and transactions > 0""").fetchall():
        if workload in applications:
            cost[day][0] += cpu_s
            cost[day][1] += tx
    assert got.keys() == {("SYSA", p.day) for p in plans()}
    for plan in plans():
        row = got[("SYSA", plan.day)]
        # the FTP and TN3270 servers' SMF 30 intervals, by their report classes RFTPD and RTN3270
        server_cpu = {w: sum(r.cpu_tcb_cs + r.cpu_srb_cs for r in plan.work if r.workload == w and r.subtype == 2) / 100
                      for w in ("FTP", "TN3270")}
        assert (row["ftp_transfers"], row["ftp_bytes"], row["ftp_cpu_s"]) == (
            len(plan.ftp), sum(t.transfer_bytes for t in plan.ftp), pytest.approx(server_cpu["FTP"], abs=1e-6))
        assert (row["tn3270_sessions"], row["tn3270_bytes"], row["tn3270_cpu_s"]) == (
            len(plan.tn3270), sum(t.in_bytes + t.out_bytes for t in plan.tn3270), pytest.approx(server_cpu["TN3270"], abs=1e-6))
        assert row["tn3270_session_hours"] == pytest.approx(
            sum((t.end - t.start).total_seconds() for t in plan.tn3270) / 3600, abs=0.01)
        cpu_ms = 1000 * cost[plan.day][0] / cost[plan.day][1]
        assert row["mips_per_engine"] == 1200  # the seed processor_speeds
        assert row["application_cpu_ms_per_transaction"] == pytest.approx(round(cpu_ms, 4), abs=1e-4)
        assert row["pathlength_ki"] == pytest.approx(sizing.pathlength_ki_of_cpu_ms(cpu_ms, 1200), abs=1e-3)
        assert row["tn3270_terminals_per_processor"] == pytest.approx(
            sizing.tn3270_terminals_per_processor(0.70, 1200, cpu_ms * 1200), abs=1e-3)
        # the mart gives back the coefficients the generator's servers ran at (seed 004: KI per KB moved; 2
        # transactions a minute of 280 KI per session), to the centisecond each SMF interval is rounded to
        kb, kips = row["ftp_bytes"] / 1024, 1000 * row["mips_per_engine"]
        assert row["ftp_ki_per_kb"] == pytest.approx(smf_plan.FTP_KI_PER_KB, abs=0.05)
        assert row["ftp_ki_per_kb"] == pytest.approx(round(row["ftp_cpu_s"] * kips / kb, 4), abs=1e-4)
        assert row["tn3270_cpu_s"] * kips / (row["tn3270_session_hours"] * 60) == pytest.approx(
            smf_plan.TN3270_TRANSACTIONS_PER_MIN * sizing.TN3270_OVERHEAD_KI_PER_TXN, rel=0.05)
    # the report prints the mart, every FTP and TN3270 column filled
    assert cli.main(["--home", str(home.root), "report", "sizing", "--measured", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [(r["system_id"], r["measured_date"], r["ftp_bytes"]) for r in printed] == sorted(
        (s, d.isoformat(), v["ftp_bytes"]) for (s, d), v in got.items())
    columns = [c for c in printed[0] if c.startswith(("ftp_", "tn3270_"))]
    assert len(columns) == 12 and all(r[c] is not None for r in printed for c in columns), printed
