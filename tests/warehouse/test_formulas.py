"""The documents' formulas as a mart (``marts.rpt_formula_results``, ``dbt_project/macros/formulas.sql``) on the
demo warehouse: every worked example of the seed ``reference_formula_inputs`` reproduces the result the document
prints to its printed precision, except the cases whose seed row says why the document's own arithmetic differs;
the Python twins of ``ingest.capacity.sizing`` give the same numbers on the same inputs; the measured TN3270 and
FTP cases recompute from the rows below them; ``perfdb rules`` counts each formula row's cases.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import pytest

from ingest import cli
from ingest.capacity import sizing
from ingest.warehouse import serving
from read_only_db import dict_rows

pytestmark = pytest.mark.slow

SEEDS = Path(__file__).resolve().parents[2] / "dbt_project" / "seeds"
INPUTS = SEEDS / "reference" / "reference_formula_inputs.csv"
CATALOGUE = SEEDS / "rules_catalogue.csv"
MODEL = "rpt_formula_results"

# the functions of ingest.capacity.sizing that compute a formula of the mart, on the seed's input names
PYTHON_TWINS = {
    "tn3270_pathlength_ki": lambda i: sizing.pathlength_ki(i["utilization"], i["mips"], i["transactions_per_s"]),
    "tn3270_overhead_mips": lambda i: sizing.tn3270_overhead_mips(i["transactions_per_s"], i["overhead_ki"],
                                                                  i["tv_ratio"]),
    "tn3270_overhead_pct": lambda i: 100 * sizing.tn3270_overhead_utilization(
        i["transactions_per_s"], i["mips"], i["overhead_ki"], i["tv_ratio"]),
    "itrr_by_pathlength": lambda i: sizing.itr_ratio(i["pathlength_ki"], i["overhead_ki"]),
    "ftp_cpu_utilization": lambda i: sizing.ftp_cpu_utilization(i["ki_per_kb"], i["kb_per_s"], i["kips"]),
    "ftp_mips_per_100_kb_s": lambda i: sizing.ftp_mips_per_100_kb_s(i["ki_per_kb"]),
    "tps_per_cpu": lambda i: sizing.transactions_per_s_per_cpu(i["utilization"], i["cpu_ms_per_transaction"]),
    "max_tn_daemons": lambda i: sizing.max_daemons(i["remaining_kb"], i["daemon_kb"]),
    "ru_bytes": lambda i: sizing.ru_bytes(int(i["mantissa"]) << 4 | int(i["exponent"])),
    "ncp_maxbfru": lambda i: sizing.ncp_maxbfru(i["piu_bytes"], i["unitsz"]) + i["extra_buffers"],
    "frame_for_ru": lambda i: sizing.frame_for_ru(i["ru_size"], i["header_bytes"]),
}


def seed_rows() -> list[dict]:
    with INPUTS.open(newline="") as f:
        return list(csv.DictReader(f))


def seed_cases() -> dict[tuple[str, str], dict]:
    """(formula, case) -> {"inputs": {name: value}, "result": the result row or None}."""
    cases: dict[tuple[str, str], dict] = defaultdict(lambda: {"inputs": {}, "result": None})
    for row in seed_rows():
        case = cases[row["formula"], row["case_name"]]
        if row["role"] == "input":
            case["inputs"][row["name"]] = float(row["value"])
        else:
            case["result"] = row
    return dict(cases)


@pytest.fixture(scope="module")
def con(demo_home):
    # the reports' own connection settings: DuckDB opens one file in one process with one configuration
    con = serving.connect_serving(demo_home)
    yield con
    con.close()


@pytest.fixture(scope="module")
def results(con) -> dict[tuple[str, str], dict]:
    return {(r["formula"], r["case_name"]): r for r in dict_rows(con, f"select * from marts.{MODEL}")}


def test_every_worked_example_is_computed_and_reproduces_the_printed_result(results):
    cases = seed_cases()
    documented = {key: r for key, r in results.items() if r["source"] == "document"}
    assert set(documented) == set(cases)
    differing = set()
    for key, case in cases.items():
        row, printed = documented[key], case["result"]
        if printed is None:
            assert row["agreement"] == "no printed result" and row["printed_result"] is None, key
            continue
        decimals = int(printed["decimals"])
        assert row["printed_result"] == float(printed["value"]) and row["decimals"] == decimals, key
        agrees = abs(row["result"] - float(printed["value"])) <= 0.5 * 10 ** -decimals + 1e-9
        assert row["agreement"] == ("agrees" if agrees else "differs"), key
        assert row["result_at_printed_precision"] == pytest.approx(round(row["result"], decimals)), key
        # a case that does not reproduce the printed figure is one whose seed row says why
        assert agrees or printed["note"], key
        if not agrees:
            differing.add(key)
    assert differing == {key for key, case in cases.items() if case["result"] and case["result"]["note"]}
    assert len(differing) == 15


def test_the_3172_vtam_cycles_and_the_capacity_examples_of_the_issue(results):
    def value(formula, case):
        return results[formula, case]["result"]

    assert value("vtam_3172_outbound_bnn", "BNN example") == pytest.approx(6.738)
    assert value("vtam_3172_inbound_bnn", "BNN example") == pytest.approx(4.329)
    assert value("vtam_3172_routed_appn", "100 routed PIUs/s to an APPN node") == pytest.approx(4.8275)
    assert value("vtam_3172_total", "BNN example plus APPN routing") == pytest.approx(15.8945)
    assert value("vtam_3172_projected", "BNN example plus APPN routing on a 39.5 % busy processor") == \
        pytest.approx(55.3945)
    assert value("tn3270_overhead_mips", "native: 10 txn/s over TCP/IP") == pytest.approx(2.8)
    assert value("tn3270_overhead_pct", "native: 10 txn/s over TCP/IP on 24 MIPS") == pytest.approx(2.8 / 24 * 100)
    assert value("itrr_by_pathlength", "2003-207 example: 600 KI (no ITRR printed)") == pytest.approx(600 / 880)
    assert value("ftp_cpu_utilization", "LIBR at 300 KB/s on 20 MIPS") == pytest.approx(0.225)
    assert value("bdp_window_kb", "8 Mbit/s link and 20 ms PING") == pytest.approx(20)
    assert value("ecsa_v4r4_kb", "10,000 MNPS sessions (no example printed)") == \
        pytest.approx(1.6 * 1024 + 1.8 * 10_000 + 3 + 120)
    assert results["vtam_3172_outbound_bnn", "BNN example"]["inputs"] == "l_o = 400, n_o = 3, m = 20000000"


def test_the_glasstone_review_examples_of_improvement_bottleneck_sorting_and_caching(results):
    def case(formula, name):
        row = results[formula, name]
        return row["result"], row["agreement"]

    # L106, L132: the improvement factors multiply; the document truncates the OLTP product 16.854 to 16.8
    assert case("improvement_factor_product", "OLTP since TCP2: five innovations") == (pytest.approx(16.85376), "differs")
    assert case("improvement_factor_product", "Batch sequential copy: four innovations") == (pytest.approx(7.7924), "agrees")
    assert case("improvement_factor_product", "OLTP hardware: TXP and VLX") == (pytest.approx(4.48), "agrees")
    # L116-L118: the CPU bounds the old system at 1 tps; 2.5 times faster, the disc bounds it at 1000/800
    assert case("bottleneck_tps", "one CPU and one disc: 1000 ms of CPU and 800 ms of disc") == (1.0, "agrees")
    assert case("bottleneck_tps", "a CPU 2.5 times faster: 400 ms of CPU and 800 ms of disc") == (1.25, "agrees")
    # L537: 83.0 / 69.7 x 1.64 = 1.95 (the double multiplier); L1448: N/604 = 166 s
    assert case("double_multiplier", "VLX vs TXP at the same response time") == (pytest.approx(1.95294, abs=1e-5), "agrees")
    assert case("serial_sort_time_s", "serial FASTSORT on the VLX: 100000 records") == (pytest.approx(165.563, abs=1e-3), "agrees")
    # Table 1 (L1354-L1358): sqrt(file x 16 KB / 2) to one significant digit; 10G gives 9.05 MB, printed 10M
    assert case("two_pass_sort_memory_mb", "1M file in 16-Kbyte blocks") == (pytest.approx(0.090510, abs=1e-6), "agrees")
    assert case("two_pass_sort_memory_mb", "10G file in 16-Kbyte blocks") == (pytest.approx(9.0510, abs=1e-4), "differs")
    # VLX Tables 1 and 2 (L389-L409): 709/581 - 1 = 22 %, 6.27/4.47 - 1 = 40 %; L762: 20 x 1536 = 30,720 bytes
    assert case("rate_improvement_pct", "unstructured read/write: records per second TXP to VLX")[1] == "agrees"
    assert case("elapsed_improvement_pct", "structured read/write without TMF: elapsed s TXP to VLX") == (
        pytest.approx(40.268, abs=1e-3), "agrees")
    assert case("readlink_cache_bytes", "20 buffers in use of 1536 bytes") == (30720, "agrees")
    # L962, L972: Table 1's TXP B30 inter-CPU line averaged over 0 to 512 bytes approximates Figure 4's 3.73 ms
    assert case("averaged_message_cpu_ms", "TXP B30 inter-CPU by Table 1") == (pytest.approx(3.66676), "differs")
    # Table 2 (L302-L314): the VLX's 4.03 + 0.41 + 0.02 + 0 = 4.46; the TXP's parts add to 6.51, printed 6.66; the
    # miss penalty (0.63 x 3.69 % + 1.14 x 3.05 %) x 23 cycles = 1.33 on the TXP, x 10 = 0.58 on the VLX, printed 0.41
    assert case("cycles_per_instruction", "NonStop VLX average instruction") == (pytest.approx(4.46), "agrees")
    assert case("cycles_per_instruction", "NonStop TXP average instruction") == (pytest.approx(6.51), "differs")
    assert case("cache_miss_penalty_cycles", "NonStop TXP average instruction") == (pytest.approx(1.334391), "agrees")
    assert case("cache_miss_penalty_cycles", "NonStop VLX average instruction") == (pytest.approx(0.580170), "differs")
    # L1332: 14 runs through a tournament of ten: five merged first leave ten for the last merge
    assert case("first_merge_runs", "14 runs and a tournament of ten") == (5, "agrees")
    # L2289: the Julian FROM-TIMESTAMP of 1996-04-21 08:15:00 is 67,239,450,000 centiseconds after 1974-12-31
    # 00:00, shifted 16 bits (tests/measure/test_julian.py checks it against the MEASURE parser)
    assert case("tandem_timestamp_48", "MEASURE FROM-TIMESTAMP of 1996-04-21 08:15:00 (no example printed)") == (
        67_239_450_000 * 65_536, "no printed result")


def test_the_python_twins_give_the_marts_numbers_on_the_seeds_inputs(results):
    cases = seed_cases()
    checked = 0
    for (formula, case_name), case in cases.items():
        if formula in PYTHON_TWINS:
            assert PYTHON_TWINS[formula](case["inputs"]) == pytest.approx(results[formula, case_name]["result"]), \
                (formula, case_name)
            checked += 1
    assert checked >= 15
    # the Python default of the TN3270 overhead is the document's figure the seed holds (L4347, L4393)
    overheads = {float(r["value"]) for r in seed_rows() if r["name"] == "overhead_ki"}
    assert overheads == {sizing.TN3270_OVERHEAD_KI_PER_TXN}


def test_the_measured_cases_recompute_from_the_rows_below(con, results):
    speeds = {r["system_name"]: r["mips_per_engine"] for r in dict_rows(con, "select * from seeds.processor_speeds")}
    hours = dict_rows(con, """
        select w.system_name, cast(w.hour_start as date) as day, w.hour_start,
            sum(w.transactions) as transactions, sum(w.cpu_s) as cpu_s
        from marts.fct_workload_hourly as w
        where w.platform = 'zos' and w.transactions > 0
            and w.workload in (select workload from seeds.workload_definitions where component = 'application')
        group by 1, 2, 3""")
    peaks: dict[tuple, dict] = {}
    for h in hours:
        key = (h["system_name"], h["day"])
        if h["system_name"] in speeds and (key not in peaks or (h["transactions"], -h["hour_start"].timestamp())
                                           > (peaks[key]["transactions"], -peaks[key]["hour_start"].timestamp())):
            peaks[key] = h
    assert peaks, "the demo has application hours on z/OS"
    for (system, day), h in peaks.items():
        case = f"{system} {day} peak application hour"
        tx_s, busy, mips = h["transactions"] / 3600, h["cpu_s"] / 3600, speeds[system]
        assert results["tn3270_pathlength_ki", case]["result"] == pytest.approx(busy * mips * 1000 / tx_s)
        assert results["tn3270_overhead_mips", case]["result"] == pytest.approx(tx_s * 280 / 1000)
        assert results["tn3270_overhead_pct", case]["result"] == pytest.approx(tx_s * 280 / 1000 / mips * 100)
        assert results["tn3270_online_pct", case]["result"] == pytest.approx(100 * busy + tx_s * 280 / 1000 / mips * 100)
    days = dict_rows(con, "select * from marts.rpt_capacity_sizing_measured")
    ftp_days = [d for d in days if d["ftp_ki_per_kb"] is not None]
    assert ftp_days, "the demo has FTP days"
    for d in ftp_days:
        case = f"{d['system_id']} {d['measured_date']} FTP day"
        expected = d["ftp_ki_per_kb"] * d["ftp_bytes"] / 1024 / 86400 / (d["mips_per_engine"] * 1000)
        assert results["ftp_cpu_utilization", case]["result"] == pytest.approx(expected)
    for d in (d for d in days if d["pathlength_ki"]):
        case = f"{d['system_id']} {d['measured_date']} application pathlength"
        assert results["itrr_by_pathlength", case]["result"] == pytest.approx(d["pathlength_ki"] / (d["pathlength_ki"] + 280))
    measured = [r for r in results.values() if r["source"] == "measured"]
    assert len(measured) == 4 * len(peaks) + len(ftp_days) + 2 * sum(1 for d in days if d["pathlength_ki"])
    assert all(r["agreement"] is None and r["system_name"] for r in measured)


def test_each_formula_row_of_the_catalogue_it_names_is_evaluated_by_its_cases(con, results):
    with CATALOGUE.open(newline="") as f:
        implemented = {r["rule_id"] for r in csv.DictReader(f) if r["evaluated_by"] == MODEL}
    cases_per_rule: dict[str, int] = defaultdict(int)
    for r in results.values():
        for rule_id in r["rule_ids"].split(";"):
            cases_per_rule[rule_id] += 1
    assert set(cases_per_rule) == implemented and len(implemented) == 93
    status = {r["rule_id"]: r for r in dict_rows(con, f"select * from marts.rpt_rule_status where evaluated_by = '{MODEL}'")}
    assert {rule_id: (r["kind"], r["status"], r["evaluations"]) for rule_id, r in status.items()} == \
        {rule_id: ("formula", "evaluated", n) for rule_id, n in cases_per_rule.items()}


def test_report_sizing_formulas_prints_each_case_with_the_printed_result_and_agreement(demo_home, capsys):
    assert cli.main(["--home", str(demo_home.root), "report", "sizing", "--formulas", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    outbound = next(r for r in rows if r["formula"] == "vtam_3172_outbound_bnn")
    assert (outbound["document"], outbound["line"], outbound["result"], outbound["printed"], outbound["agreement"]) == \
        ("003", 888, 6.74, "6.74%", "agrees")
    assert outbound["inputs"] == "l_o = 400, n_o = 3, m = 20000000" and outbound["words"].startswith("U_o = L_o")
    inbound = next(r for r in rows if r["formula"] == "vtam_3172_inbound_bnn")
    assert (inbound["result"], inbound["agreement"]) == (4.33, "differs")
    assert len(rows) == len(seed_cases()) + sum(1 for r in rows if r["agreement"] is None)
