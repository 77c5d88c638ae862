"""What-ifs per processor and the baseline model they rest on (seed 001, Evans L1795-L1821), recomputed
from the rows below the marts of the shared demo warehouse.

* A workload loads only the processors it runs on (L1811): each CPU of a what-if grows by the workload's
  share of that CPU's time, U' = U x (1 + g x share), the processor pool by its share of the system.
* The baseline model of the average workday (first shift, workdays of the last 7 days) from the workloads'
  service demands reproduces each demo processor's measured busy within 5 % (L1817); a copy of the demo
  whose ORDERS transactions cost twice the CPU in the afternoon does not, and its what-ifs say so.

The hand-computed cases are dbt unit tests in models/marts/capacity/_capacity__models.yml.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import duckdb
import pytest

from ingest import cli
from ingest.capacity import queueing
from ingest.home import Home
from ingest.warehouse import serving
from read_only_db import dict_rows

CURRENT_DAYS = 7  # dbt var capacity_current_days
GROWTH = 0.15  # dbt var capacity_whatif_workload_growth


def query(home: Home, sql: str, *, published: bool = True) -> list[dict]:
    con = serving.connect_serving(home) if published else duckdb.connect(str(home.db_path), read_only=True)
    try:
        return dict_rows(con, sql)
    finally:
        con.close()


def cpu_name(cpu_num: int) -> str:
    return f"CPU {cpu_num:02d}"


def recent(rows: list[dict], time: str = "hour_start") -> list[dict]:
    """The rows of each system's last CURRENT_DAYS days (after its last hour minus the days)."""
    last: dict[str, dt.datetime] = {}
    for r in rows:
        last[r["system_name"]] = max(last.get(r["system_name"], r[time]), r[time])
    return [r for r in rows if r[time] > last[r["system_name"]] - dt.timedelta(days=CURRENT_DAYS)]


def shares(home: Home) -> tuple[dict, dict]:
    """Each workload's share of each processor's time and of its system's, over the recent days."""
    rows = recent(query(home, "select system_name, hour_start, cpu_num, workload, cpu_s "
                              "from intermediate.int_workload__cpu_hourly"))
    on_cpu, cpu_total = defaultdict(float), defaultdict(float)
    in_system, system_total = defaultdict(float), defaultdict(float)
    for r in rows:
        on_cpu[r["system_name"], cpu_name(r["cpu_num"]), r["workload"]] += r["cpu_s"]
        cpu_total[r["system_name"], cpu_name(r["cpu_num"])] += r["cpu_s"]
        in_system[r["system_name"], r["workload"]] += r["cpu_s"]
        system_total[r["system_name"]] += r["cpu_s"]
    by_cpu = {k: v / cpu_total[k[:2]] for k, v in on_cpu.items()}
    by_system = {k: v / system_total[k[0]] for k, v in in_system.items()}
    return by_cpu, by_system


def share_of(row: dict, workload: str, by_cpu: dict, by_system: dict) -> float:
    if row["resource_type"] == "cpu":
        return by_cpu.get((row["system_name"], row["resource_name"], workload), 0.0)
    return by_system.get((row["system_name"], workload), 0.0)


@pytest.mark.slow
def test_workload_processor_hours_add_up_to_processes_and_workloads(demo_home):
    # NonStop: every process's CPU lands in its own processor, under its workload
    processes = {(r["system_name"], r["cpu_num"]): r["cpu_s"] for r in query(demo_home, """
        select system_name, cpu_num, sum(cpu_busy_s) as cpu_s from intermediate.int_process__hourly group by all""")}
    on_cpu = {(r["system_name"], r["cpu_num"]): r["cpu_s"] for r in query(demo_home, """
        select system_name, cpu_num, sum(cpu_s) as cpu_s from intermediate.int_workload__cpu_hourly
        where platform = 'nonstop' group by all""")}
    assert on_cpu.keys() == processes.keys() and len(on_cpu) == 12
    for key, seconds in processes.items():
        assert on_cpu[key] == pytest.approx(seconds, rel=1e-9)
    # both platforms: a workload's hour over its processors is its hour in fct_workload_hourly (CP and
    # zIIP seconds on z/OS, spread over the processors of their type)
    workloads = {(r["system_name"], r["hour_start"], r["workload"]): r for r in query(demo_home, """
        select system_name, hour_start, workload, cpu_s, coalesce(ziip_s, 0) as ziip_s from marts.fct_workload_hourly""")}
    summed = query(demo_home, """
        select w.system_name, w.hour_start, w.workload,
               sum(w.cpu_s) filter (where c.cpu_type <> 'zIIP') as cpu_s,
               coalesce(sum(w.cpu_s) filter (where c.cpu_type = 'zIIP'), 0) as ziip_s
        from intermediate.int_workload__cpu_hourly as w
        inner join intermediate.int_cpu__hourly as c using (system_name, cpu_num, hour_start)
        group by all""")
    # 11 workloads on each NonStop system, 6 on each z/OS one, in each of the demo's 1440 hours
    assert len(summed) == len(workloads) == 34 * 1440
    for r in summed:
        w = workloads[r["system_name"], r["hour_start"], r["workload"]]
        assert r["cpu_s"] == pytest.approx(w["cpu_s"], rel=1e-9, abs=1e-9)
        assert r["ziip_s"] == pytest.approx(w["ziip_s"], rel=1e-9, abs=1e-9)


@pytest.mark.slow
def test_workload_whatif_grows_only_the_processors_the_workload_runs_on(demo_home):
    by_cpu, by_system = shares(demo_home)
    rows = query(demo_home, "select * from marts.rpt_capacity_whatif_workload")
    assert {r["resource_type"] for r in rows} == {"cpu", "processor_pool"}
    for r in rows:
        share = share_of(r, r["workload"], by_cpu, by_system)
        assert r["workload_share_pct"] == pytest.approx(100 * share, abs=1e-4)
        assert r["projected_utilization_pct"] == pytest.approx(
            r["current_utilization_pct"] * (1 + GROWTH * share), abs=1e-3)

    # ORDERS on \DEV1 runs only in CPU 03, where it is all of the process time but MEASURE's MEASCTL $XM03
    # (0.922 %): that CPU grows by 15 % of its 99.078 %, the others not at all, the pool by its share of the system
    orders = {r["resource_name"]: r for r in rows if r["workload"] == "ORDERS" and r["system_name"] == "\\DEV1"}
    assert {name: r["workload_share_pct"] for name, r in orders.items() if r["resource_type"] == "cpu"} == {
        "CPU 00": 0, "CPU 01": 0, "CPU 02": 0, "CPU 03": 99.078}
    moved = {name for name, r in orders.items() if r["projected_utilization_pct"] != r["current_utilization_pct"]}
    assert moved == {"CPU 03", "all processors"}
    cpu3, pool = orders["CPU 03"], orders["all processors"]
    assert cpu3["projected_utilization_pct"] == pytest.approx(cpu3["current_utilization_pct"] * (1 + 0.15 * 0.99078), abs=1e-3)
    assert 0 < pool["workload_share_pct"] < 100
    assert pool["projected_utilization_pct"] - pool["current_utilization_pct"] < (
        cpu3["projected_utilization_pct"] - cpu3["current_utilization_pct"])


@pytest.mark.slow
def test_driver_whatif_grows_each_processor_by_the_shares_there(demo_home):
    by_cpu, by_system = shares(demo_home)
    # each workload's growth in a scenario, from the seeds and the workloads' recent transactions a day
    hours = recent(query(demo_home, "select system_name, hour_start, workload, transactions from marts.fct_workload_hourly"))
    days = defaultdict(set)
    transactions = defaultdict(float)
    for r in hours:
        days[r["system_name"]].add(r["hour_start"].date())
        transactions[r["system_name"], r["workload"]] += r["transactions"] or 0
    per_day = defaultdict(float)
    for (system, workload), n in transactions.items():
        per_day[workload] += n / len(days[system])
    drivers = query(demo_home, "select driver, workload, transactions_per_unit from seeds.business_drivers")
    growth: dict[tuple[str, str], float] = defaultdict(float)
    for s in query(demo_home, "select scenario, driver, units_per_day, growth_pct from seeds.capacity_scenarios"):
        for d in drivers:
            if d["driver"] == s["driver"] and per_day[d["workload"]] > 0:
                driven = min(1.0, s["units_per_day"] * d["transactions_per_unit"] / per_day[d["workload"]])
                growth[s["scenario"], d["workload"]] += s["growth_pct"] / 100 * driven

    rows = query(demo_home, "select * from marts.rpt_capacity_whatif_driver")
    assert rows
    for r in rows:
        g = sum(grown * share_of(r, workload, by_cpu, by_system)
                for (scenario, workload), grown in growth.items() if scenario == r["scenario"])
        assert r["utilization_growth_pct"] == pytest.approx(100 * g, abs=1e-4)
        assert r["projected_utilization_pct"] == pytest.approx(r["current_utilization_pct"] * (1 + g), abs=1e-3)
    # the processors of one system grow by different amounts: the workloads the drivers reach are not
    # spread evenly over \DEV1's CPUs
    dev1 = {r["utilization_growth_pct"] for r in rows if r["system_name"] == "\\DEV1" and r["resource_type"] == "cpu"
            and r["scenario"] == rows[0]["scenario"]}
    assert len(dev1) > 1


def baseline_recomputed(home: Home, *, published: bool = True) -> dict[tuple[str, int, int], dict]:
    """rpt_capacity_baseline_validation from the hours below it: per system, processor and hour of the
    average workday, measured and modelled busy, queue and throughput."""
    workdays = {r["calendar_date"] for r in query(home, "select calendar_date from intermediate.int_calendar__day "
                                                        "where is_workday", published=published)}
    last = {r["system_name"]: r["last_hour"] for r in query(home, """
        select system_name, max(hour_start) as last_hour from intermediate.int_workload__cpu_hourly group by all""",
        published=published)}
    cpu_hours = [r for r in query(home, """
        select system_name, cpu_num, hour_start, measured_s, busy_pct, qlen from intermediate.int_cpu__hourly
        where shift = 1 and busy_pct is not null and measured_s > 0""", published=published)
        if r["system_name"] in last and r["hour_start"].date() in workdays
        and r["hour_start"] > last[r["system_name"]] - dt.timedelta(days=CURRENT_DAYS)]
    workloads = defaultdict(list)
    for r in query(home, "select platform, system_name, hour_start, workload, transactions from marts.fct_workload_hourly",
                   published=published):
        workloads[r["system_name"], r["hour_start"]].append(r)
    on_cpu = {(r["system_name"], r["hour_start"], r["cpu_num"], r["workload"]): r for r in query(home, """
        select system_name, hour_start, cpu_num, workload, cpu_s, transactions from intermediate.int_workload__cpu_hourly""",
        published=published)}

    # every workload in every baseline hour of every processor: its time there and its throughput
    cells = []
    for c in cpu_hours:
        for w in workloads[c["system_name"], c["hour_start"]]:
            there = on_cpu.get((c["system_name"], c["hour_start"], c["cpu_num"], w["workload"]), {})
            n = w["transactions"] if w["platform"] == "zos" else there.get("transactions")
            cells.append((c, w["workload"], there.get("cpu_s") or 0.0, n or 0))
    own, busy = defaultdict(float), defaultdict(float)
    for c in cpu_hours:
        busy[c["system_name"], c["cpu_num"]] += c["busy_pct"] / 100 * c["measured_s"]
    totals = defaultdict(lambda: [0.0, 0.0, 0.0])  # seconds, transactions, measured seconds
    for c, workload, seconds, n in cells:
        own[c["system_name"], c["cpu_num"]] += seconds
        t = totals[c["system_name"], c["cpu_num"], workload]
        t[0] += seconds
        t[1] += n
        t[2] += c["measured_s"]
    capture = {k: own[k] / busy[k] for k in busy}

    out: dict[tuple[str, int, int], dict] = {}
    for c in cpu_hours:
        key = (c["system_name"], c["cpu_num"], c["hour_start"].hour)
        out.setdefault(key, defaultdict(float))
        o = out[key]
        o["days"] += 1
        o["measured_s"] += c["measured_s"]
        o["busy_s"] += c["busy_pct"] / 100 * c["measured_s"]
        if c["qlen"] is not None:
            o["qlen_s"] += c["qlen"] * c["measured_s"]
            o["qlen_time"] += c["measured_s"]
    for c, workload, seconds, n in cells:
        o = out[c["system_name"], c["cpu_num"], c["hour_start"].hour]
        total_s, total_n, total_time = totals[c["system_name"], c["cpu_num"], workload]
        per_transaction = total_n > 0
        own_demand = total_s / (total_n if per_transaction else total_time)
        demand = own_demand / capture[c["system_name"], c["cpu_num"]]
        o["modelled_s"] += (n if per_transaction else c["measured_s"]) * demand
        if per_transaction and own_demand > 0:
            o["transactions"] += n
            o["modelled_transactions"] += seconds / own_demand
    for o in out.values():
        o["measured_busy_pct"] = 100 * o["busy_s"] / o["measured_s"]
        o["modelled_busy_pct"] = 100 * o["modelled_s"] / o["measured_s"]
        u = o["modelled_s"] / o["measured_s"]
        # the M/M/1 number at the processor; none for a processor modelled saturated
        o["modelled_qlen"] = u * queueing.response_factor(u, 1) if u < 1 else None
        o["measured_qlen"] = o["qlen_s"] / o["qlen_time"] if o["qlen_time"] else None
        o["measured_transactions_per_s"] = o["transactions"] / o["measured_s"]
        o["modelled_transactions_per_s"] = o["modelled_transactions"] / o["measured_s"]
    return out


@pytest.mark.slow
def test_baseline_model_of_the_demo_reproduces_its_processors(demo_home):
    expected = baseline_recomputed(demo_home)
    rows = query(demo_home, "select * from marts.rpt_capacity_baseline_validation")
    # 21 processors (SYSA 6, SYSB 3, \DEV1 4, \PROD1 8) x the 8 hours of the first shift, over the 5
    # workdays of the last 7 days (2026-02-27, 03-02 .. 03-05)
    assert len(rows) == len(expected) == 21 * 8
    for r in rows:
        e = expected[r["system_name"], r["cpu_num"], r["hour_of_day"]]
        assert r["baseline_days"] == e["days"] == 5
        assert r["measured_busy_pct"] == pytest.approx(e["measured_busy_pct"], abs=1e-4)
        assert r["modelled_busy_pct"] == pytest.approx(e["modelled_busy_pct"], abs=1e-4)
        error = 100 * (e["modelled_busy_pct"] - e["measured_busy_pct"]) / e["measured_busy_pct"]
        assert r["busy_error_pct"] == pytest.approx(error, abs=1e-4)
        assert r["busy_within_5pct"] == (abs(error) <= 5)
        if e["modelled_qlen"] is None:
            assert r["modelled_qlen"] is None
        else:
            assert r["modelled_qlen"] == pytest.approx(e["modelled_qlen"], abs=1e-4)
        if e["measured_qlen"] is None:  # SMF 70 records no processor queue
            assert r["measured_qlen"] is None and r["qlen_within_5pct"] is None
        else:
            assert r["measured_qlen"] == pytest.approx(e["measured_qlen"], abs=1e-4)
        assert r["measured_transactions_per_s"] == pytest.approx(e["measured_transactions_per_s"], abs=1e-4)
        assert r["modelled_transactions_per_s"] == pytest.approx(e["modelled_transactions_per_s"], abs=1e-4)

    # every processor's day within 5 % on average (the worst, \PROD1's CPU 01 whose disc processes'
    # CPU per request varies, 4.63 %); 163 of the 168 hours within 5 % each
    mean_error = defaultdict(list)
    for r in rows:
        mean_error[r["system_name"], r["resource_name"]].append(abs(r["busy_error_pct"]))
    worst = {k: sum(v) / len(v) for k, v in mean_error.items()}
    assert max(worst.values()) <= 5
    assert max(worst, key=worst.get) == ("\\PROD1", "CPU 01")
    assert sum(r["busy_within_5pct"] for r in rows) == 163
    # the demo's QLEN is not the M/M/1 number at the processor: the model's queues are off, as said
    assert not any(r["qlen_within_5pct"] for r in rows if r["system_name"] == "\\PROD1")

    summary = {r["system_name"]: r for r in query(demo_home, "select * from marts.rpt_capacity_baseline_summary")}
    assert {s: r["baseline_validated"] for s, r in summary.items()} == {
        "SYSA": True, "SYSB": True, "\\DEV1": True, "\\PROD1": True}
    for system, r in summary.items():
        errors = [v for (s, _), v in worst.items() if s == system]
        assert r["worst_processor_mean_abs_busy_error_pct"] == pytest.approx(max(errors), abs=1e-4)
        assert r["processor_hours"] == 8 * len(errors)
        # Evans asks queue lengths and throughputs to match within 5 % too (L1817): the note says where they
        # miss on average, recomputed from the hours, so nobody reads a response time from such a model
        qlen_errors = [abs(x["qlen_error_pct"]) for x in rows if x["system_name"] == system and x["qlen_error_pct"] is not None]
        qlen_off = bool(qlen_errors) and sum(qlen_errors) / len(qlen_errors) > 5
        assert ("its queue lengths are off by" in r["baseline_note"]) == qlen_off
        assert qlen_off == (system in ("\\PROD1", "\\DEV1"))  # the demo's QLEN is not the M/M/1 number
        if qlen_off:
            assert f"({sum(e <= 5 for e in qlen_errors)} of {len(qlen_errors)} processor-hours within 5 %)" in r["baseline_note"]
    for mart in ("rpt_capacity_whatif_workload", "rpt_capacity_whatif_driver"):
        assert {r["baseline_validated"] for r in query(demo_home, f"select baseline_validated from marts.{mart}")} == {True}


@pytest.mark.slow
def test_a_cost_per_transaction_that_changes_through_the_day_fails_the_baseline(copy_of_demo_home):
    home = copy_of_demo_home
    # from noon on, \DEV1's ORDERS servers receive half the requests for the same CPU: each costs twice
    con = duckdb.connect(str(home.db_path))
    try:
        con.execute(r"""update raw.measure_process set messages_received = messages_received // 2
                        where system_name = '\DEV1' and program_file_name like '%ORDRSRV'
                            and hour(from_timestamp) >= 12""")
    finally:
        con.close()
    models = ("int_process__hourly int_workload__hourly fct_workload_hourly int_workload__cpu_hourly "
              "rpt_capacity_baseline_validation rpt_capacity_baseline_summary rpt_capacity_whatif_workload")
    assert cli.main(["--home", str(home.root), "build", "--full-refresh", "--select", models]) == 0

    rows = query(home, "select * from marts.rpt_capacity_baseline_validation where system_name = '\\DEV1'",
                 published=False)
    expected = baseline_recomputed(home, published=False)
    for r in rows:
        assert r["modelled_busy_pct"] == pytest.approx(expected["\\DEV1", r["cpu_num"], r["hour_of_day"]]["modelled_busy_pct"],
                                                       abs=1e-4)
    # CPU 03 runs ORDERS alone: the demand of the day's average cost overstates the morning and
    # understates the afternoon by far more than 5 %
    cpu3 = {r["hour_of_day"]: r["busy_error_pct"] for r in rows if r["resource_name"] == "CPU 03"}
    assert all(cpu3[h] > 5 for h in range(8, 12)) and all(cpu3[h] < -5 for h in range(12, 16))

    summary = {r["system_name"]: r for r in query(home, "select * from marts.rpt_capacity_baseline_summary", published=False)}
    assert not summary["\\DEV1"]["baseline_validated"]
    # the rule of the catalogue the verdict evaluates (Evans, seed 001 L1819): fired on \DEV1 only
    assert {s: (r["rule_id"], r["fired"]) for s, r in summary.items() if s.startswith("\\")} == {
        "\\DEV1": ("001-b6.4-4", True), "\\PROD1": ("001-b6.4-4", False)}
    assert "CPU 03" in summary["\\DEV1"]["baseline_note"]
    assert summary["\\PROD1"]["baseline_validated"]
    marked = {(r["system_name"], r["baseline_validated"]) for r in query(
        home, "select system_name, baseline_validated from marts.rpt_capacity_whatif_workload", published=False)}
    assert ("\\DEV1", False) in marked and ("\\DEV1", True) not in marked and ("\\PROD1", True) in marked
