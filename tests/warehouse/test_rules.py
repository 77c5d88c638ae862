"""The rules catalogue on the demo warehouse: ``seeds.thresholds`` is its threshold rows, unchanged from the
seed it replaced; ``marts.rpt_rule_status`` counts each rule's evaluations and findings from the marts below
it; ``perfdb rules`` prints every rule with its status, and a rule it cannot evaluate with the input it needs.
"""

from __future__ import annotations

import json

import pytest

from ingest import cli
from ingest.warehouse import serving
from read_only_db import dict_rows

pytestmark = pytest.mark.slow

# the thresholds seed as it was before the catalogue, the SMF 74.1 DASD rules added since, seed 002's R05, R07 and R09, seed 004's rules on
# SET DIAGNOSE=PERFORM displays (vse_connection) and the Table 1 rules
# rpt_app_diagnostics compares (rule_id, system, entity, command, metric, operator, limit, severity): the model
# over the catalogue must give the threshold marts these rows
THRESHOLDS = [
    ("001-b6.4-10", "*", "app_program", "*", "process_count", ">", 12.0, "warning"),
    ("001-b6.4-11", "*", "app_file", "*", "writes_per_block_split", "<", 10.0, "warning"),
    ("001-b6.4-9", "*", "app_process", "*", "priority", ">", 185.0, "warning"),
    ("001-tab1-3", "*", "app_process", "*", "cpu_per_io_s", ">", 0.03, "warning"),
    ("001-tab1-7", "*", "app_process", "*", "min_interval_io_per_s", ">", 20.0, "warning"),
    ("001-tab1-8", "*", "app_process", "*", "file_open_call_count", ">", 1000.0, "warning"),
    ("002-R05", "*", "buffer_pool", "snaadmin query_buffer_availability", "max_throttle_status", ">", 30.0, "info"),
    ("002-R07", "*", "csaix_memory", "snaadmin query_buffer_availability", "buf_avail_ram_pct", ">", 25.0, "info"),
    ("002-R09", "*", "csaix_memory", "snaadmin query_kernel_memory_limit", "unlimited_kernel_memory_ram_pct", ">", 50.0,
     "warning"),
    ("004-aR25", "*", "vse_connection", "*", "max_turnaround_ms", ">", 500.0, "warning"),
    ("004-aR27", "*", "vse_connection", "*", "sws_time_pct", ">", 50.0, "warning"),
    ("004-bR7", "*", "vse_connection", "*", "retransmission_mode_count", ">", 0.0, "warning"),
    ("004-bR8", "*", "vse_connection", "*", "sws_time_pct", ">", 50.0, "warning"),
    ("004-bR9", "*", "vse_connection", "*", "depth_mode_count", ">", 0.0, "warning"),
    ("AIX-M-01", "*", "buffer_pool", "netstat -m", "requests_failed_count", ">", 0.0, "warning"),
    ("AIX-M-02", "*", "buffer_pool", "netstat -m", "requests_delayed_count", ">", 0.0, "info"),
    ("BUSY-PROC-1", "*", "busy_process", "*", "cpu_busy_s", ">", 60.0, None),
    ("BUSY-PROC-2", "*", "busy_process", "*", "priority", "<", 200.0, None),
    ("CPU-T1", "*", "cpu", "*", "qlen_max", ">", 2.0, "warning"),
    ("CPU-T2", "*", "cpu", "*", "qlen_spread_across_hours", ">", 1.0, "warning"),
    ("CPU-T3", "*", "cpu", "*", "swaps_per_s_max", ">", 2.0, "warning"),
    ("CPU-T4", "*", "cpu", "*", "busy_pct_max", ">", 70.0, "warning"),
    ("CPU-T5", "*", "cpu", "*", "busy_pct_spread_across_hours", ">", 20.0, "warning"),
    ("CPU-T6", "*", "cpu", "*", "ibusy_pct_max", ">", 25.0, "warning"),
    ("DASD-T1", "*", "dasd", "*", "response_ms", ">", 5.0, "warning"),
    ("DASD-T2", "*", "dasd", "*", "iosq_share_pct", ">", 20.0, "warning"),
    ("DISC-T1", "*", "disc", "*", "busy_pct_max", ">", 70.0, "warning"),
    ("LINE-T1", "*", "line", "*", "busy_pct_max", ">", 70.0, "warning"),
    ("NET-IF-01", "*", "interface", "*", "error_pct", ">", 0.0, "warning"),
    ("NET-IF-02", "*", "interface", "*", "drop_pct", ">", 0.0, "info"),
    ("NET-TCP-01", "*", "tcpip", "*", "retransmitted_pct", ">", 2.0, "warning"),
    ("PROC-ACT-HI", "*", "process_activity", "*", "io_per_trans", ">", 20.0, "info"),
    ("PROC-ACT-LO", "*", "process_activity", "*", "io_per_trans", "<", 5.0, "info"),
    ("PROC-T1", "*", "process", "*", "pqlen_max", ">", 2.0, "warning"),
    ("SNA-R01", "*", "buffer_pool", "snaadmin query_buffer_availability", "throttle_status", ">", 30.0, "warning"),
    ("SNA-R02", "*", "buffer_pool", "snaadmin query_buffer_availability", "throttle_status", ">=", 70.0, "critical"),
    ("SNA-R03", "*", "buffer_pool", "snaadmin query_buffer_availability", "congested_flag", ">=", 1.0, "warning"),
    ("SNA-R04", "*", "buffer_pool", "snaadmin query_buffer_availability", "was_congested_flag", ">=", 1.0, "info"),
    ("SNA-R06", "*", "buffer_pool", "snaadmin query_buffer_availability", "in_use_pct", ">", 80.0, "warning"),
    ("SNA-R08", "*", "buffer_pool", "snaadmin query_kernel_memory_limit", "in_use_pct", ">", 80.0, "warning"),
    ("USERDEF-T1", "*", "userdef", "RESP-TIME", "counter_rate_max", ">", 2.0, "warning"),
    ("VM-POOL-01", "*", "buffer_pool", "NETSTAT POOLSIZE", "max_used_pct", ">=", 90.0, "warning"),
    ("VSE-R1", "*", "vse_stack", "*", "non_ip_count", ">", 0.0, "warning"),
    ("VSE-R2", "*", "vse_stack", "*", "misrouted_pct", ">", 0.1, "warning"),
    ("VSE-R22", "*", "vse_stack", "*", "complete_scans_pct", ">", 1.0, "info"),
    ("VSE-REJ", "*", "vse_stack", "*", "inbound_rejections_count", ">", 0.0, "info"),
    ("VTAM-01", "*", "buffer_pool", "D NET,BFRUSE", "max_used_pct", ">=", 90.0, "warning"),
    ("VTAM-02", "*", "buffer_pool", "D NET,BFRUSE", "expansions_count", ">", 0.0, "info"),
    ("VTAM-03", "*", "buffer_pool", "D NET,BFRUSE", "expansion_failed_flag", ">=", 1.0, "critical"),
]


@pytest.fixture(scope="module")
def db(demo_home):
    # the report's own connection settings: DuckDB refuses a second, differently configured one in-process
    con = serving.connect_serving(demo_home)
    yield con
    con.close()


def rules(capsys, home, *args: str) -> list[dict]:
    assert cli.main(["--home", str(home.root), "rules", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_thresholds_model_is_the_seed_it_replaced(db):
    rows = db.execute("select rule_id, system_name, entity, source_command, metric, operator, \"limit\", severity "
                      "from seeds.thresholds order by rule_id").fetchall()
    assert rows == THRESHOLDS
    assert db.execute("select source from seeds.thresholds where rule_id = 'CPU-T4'").fetchone() == (
        "King 1986, Fig. 9 (seed 001 L2173): BUSY-MAX-D > 70",)


def test_a_threshold_rule_counts_the_values_it_compared_and_those_that_crossed(db):
    # CPU-T4 (seed 001 L2173, BUSY-MAX-D > 70) against every processor shift of fct_cpu_shift
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = 'CPU-T4'")
    compared, crossed, systems = db.execute(
        "select count(busy_pct_max), count(*) filter (where busy_pct_max > 70), "
        "count(distinct system_name) filter (where busy_pct_max is not null) from marts.fct_cpu_shift").fetchone()
    assert (status["status"], status["evaluations"], status["findings"], status["systems"]) == (
        "evaluated", compared, crossed, systems)
    assert (compared, crossed, systems) == (3780, 505, 4)
    assert status["words"] == "(busy-max-d $>$ 70) OR"  # the seed's OCR of Figure 9, line 2173
    # every alarm's findings are its rows of rpt_threshold_exceptions
    mismatched = db.execute(
        "select status.rule_id from marts.rpt_rule_status as status "
        "left join (select rule_id, count(*) as n from marts.rpt_threshold_exceptions group by rule_id) as e "
        "using (rule_id) where status.evaluated_by = 'rpt_threshold_exceptions' "
        "and coalesce(status.findings, 0) <> coalesce(e.n, 0)").fetchall()
    assert mismatched == []


def test_perfdb_rules_of_one_document(demo_home, capsys):
    listed = rules(capsys, demo_home, "--doc", "000")
    assert len(listed) == 79 and {r["document"] for r in listed} == {"000"}
    evaluated = {r["rule_id"]: (r["kind"], r["evaluations"], r["findings"]) for r in listed if r["status"] == "evaluated"}
    # the Appendix A throughput and transactions per second of the benchmark runs; the three transfer-time
    # reductions and the RUSIZES example of rpt_formula_results; the configuration rules
    # evaluated on the demo's listings (rpt_config_findings: seed 000's Appendix A base and tuned listings, SYSA's
    # VTAM and NCP, aix01's, VSE1's) plus, outside SQL, on the runs' parameters (55 DELAY, 44 pacing windows, 24 thewall:
    # seed 000 L341's three baseline pacing windows below 8, 13 thewall below 8192)
    assert evaluated == {
        "000-F1": ("formula", 457, None), "000-F3": ("formula", 457, None),
        "000-F2": ("formula", 3, None), "000-F8": ("formula", 1, None),
        "000-R29": ("configuration", 3, 2), "000-R32": ("configuration", 3 + 24, 1 + 13),
        "000-R44": ("configuration", 3, 0), "000-R57": ("configuration", 2, 0),
        "000-delay-0": ("configuration", 3 + 55, 1), "000-iobuf-equals-unitsz": ("configuration", 3, 0),
        "000-maxbfru-from-piu": ("configuration", 1, 0), "000-maxdata-ge-maxtsl": ("configuration", 3, 0),
        "000-maxtsl-tic1": ("configuration", 1, 0),
        "000-pacing-window-8": ("configuration", 14 + 44, 7 + 3), "000-rcvbufc-two-frames": ("configuration", 3, 0),
        "000-ru-fits-frame": ("configuration", 5 + 2, 0), "000-size-chain": ("configuration", 3, 1),
        "000-slodown-6": ("configuration", 3, 1), "000-unitsz-4000": ("configuration", 3, 2),
    }
    everything = rules(capsys, demo_home)
    by_document: dict[str, list[int]] = {}
    for r in everything:
        counts = by_document.setdefault(r["document"], [0, 0])
        counts[r["status"] == "evaluated"] += 1
    # [not evaluable, evaluated] per document on the demo (formulas of rpt_formula_results, diagnostics of
    # rpt_app_diagnostics, configuration rules of rpt_config_findings)
    assert by_document == {"000": [60, 19], "001": [49, 45], "002": [27, 23], "003": [8, 8], "004": [59, 36],
                           "formats": [0, 7]}


def test_a_rule_not_evaluable_says_which_input_is_missing(demo_home, capsys):
    (rule,) = [r for r in rules(capsys, demo_home, "--doc", "000", "--kind", "threshold", "--status", "not evaluable")
               if r["rule_id"] == "000-R37"]
    assert rule["lines"] == "L736" and rule["evaluations"] == 0 and rule["findings"] is None
    assert rule["reason"] == ("needs obs.adapter_utilization_pct, interactive workload: an observed pacing window or "
                              "adapter utilization (APPNPACE, APPNT/APPNF, Performance Tools/400): no capture of "
                              "them is parsed")
    assert rule["words"].startswith("- For interactive environments, the adapter utilization should be kept under 60%")
    assert cli.main(["--home", str(demo_home.root), "rules", "--doc", "004", "--status", "not evaluable"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "59 rules: 0 evaluated, 59 not evaluable"
