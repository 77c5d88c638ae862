"""The rules catalogue on the demo warehouse: ``seeds.thresholds`` is its threshold rows, unchanged from the
seed it replaced; ``marts.rpt_rule_status`` counts each rule's evaluations and findings from the marts below
it; ``perfdb rules`` prints every rule with its status, and a rule it cannot evaluate with the input it needs.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from ingest import cli
from ingest.warehouse import serving
from read_only_db import dict_rows

pytestmark = pytest.mark.slow

# the thresholds seed as it was before the catalogue, the SMF 74.1 DASD rules added since, the Table 1 rules
# rpt_app_diagnostics compares, seed 000's bottleneck (rpt_benchmark_vs_reference) and pacing (rpt_session_pacing)
# rules, Glasstone's processor (rpt_cpu_balance), workload (rpt_workload_concentration) and OLTP band rules,
# MEASURE's own overhead (rpt_measure_overhead), seed 002's R05, R07, R09 and R27 (host_cpu, vmstat), seed 003's channel maxima (rpt_channel_utilization) and release regressions
# (rpt_release_regression) and seed 004's rules
# on SET DIAGNOSE=PERFORM displays (vse_connection), PRTY displays (vse_prty), paired benchmark runs
# (rpt_vse_benchmark_pairs) and FTP rates (rpt_vse_ftp_rates) (rule_id, system, entity, command, metric, operator, limit,
# severity): the model over the catalogue must give the threshold marts these rows
THRESHOLDS = [
    ("000-R10", "*", "session_pacing", "D NET,SESSIONS", "send_window", "<", 8.0, "critical"),
    ("000-R62", "*", "benchmark_run", "*", "throughput_ratio", "<", 0.1, "critical"),
    ("001-aF15", "*", "measure_overhead", "*", "measure_cpu_pct", ">", 1.14, "info"),
    ("001-aF34", "*", "system_cpu", "*", "busy_pct_avg", ">", 70.0, "warning"),
    ("001-b6.4-10", "*", "app_program", "*", "process_count", ">", 12.0, "warning"),
    ("001-b6.4-11", "*", "app_file", "*", "writes_per_block_split", "<", 10.0, "warning"),
    ("001-b6.4-13", "*", "app_process", "*", "pathmon_busy_pct", ">", 3.0, "warning"),
    ("001-b6.4-15", "*", "system_cpu", "*", "busy_pct_spread_across_cpus", ">", 4.0, "info"),
    ("001-b6.4-17", "*", "line_terminals", "*", "terminal_count", ">", 13.0, "warning"),
    ("001-b6.4-3", "*", "workload_mix", "*", "top_4_cpu_share_pct", "<", 80.0, "info"),
    ("001-b6.4-5", "*", "forecast_history", "*", "history_days", "<", 730.0, "info"),
    ("001-b6.4-8", "*", "process_activity", "*", "io_per_trans_outside_oltp_band", ">", 0.0, "info"),
    ("001-b6.4-9", "*", "app_process", "*", "priority", ">", 185.0, "warning"),
    ("001-tab1-3", "*", "app_process", "*", "cpu_per_io_s", ">", 0.03, "warning"),
    ("001-tab1-7", "*", "app_process", "*", "min_interval_io_per_s", ">", 20.0, "warning"),
    ("001-tab1-8", "*", "app_process", "*", "file_open_call_count", ">", 1000.0, "warning"),
    ("002-R05", "*", "buffer_pool", "snaadmin query_buffer_availability", "max_throttle_status", ">", 30.0, "info"),
    ("002-R07", "*", "csaix_memory", "snaadmin query_buffer_availability", "buf_avail_ram_pct", ">", 25.0, "info"),
    ("002-R09", "*", "csaix_memory", "snaadmin query_kernel_memory_limit", "unlimited_kernel_memory_ram_pct", ">", 50.0,
     "warning"),
    ("002-R27", "*", "host_cpu", "vmstat", "busy_pct", ">=", 85.0, "warning"),
    ("003-VT-CH-01", "*", "channel_path", "*", "channel_util_pct", ">=", 95.0, "warning"),
    ("003-VT-CH-02", "*", "channel_path", "*", "channel_util_pct", ">=", 78.0, "warning"),
    ("003-VT-RG-01", "*", "release_pair", "*", "cpu_change", ">", 0.05, "warning"),
    ("003-VT-RG-02", "*", "release_pair", "*", "throughput_change", "<", -0.05, "warning"),
    ("004-aR20", "*", "vse_prty", "*", "tcpip_outranked_count", ">", 0.0, "info"),
    ("004-aR25", "*", "vse_connection", "*", "max_turnaround_ms", ">", 500.0, "warning"),
    ("004-aR27", "*", "vse_connection", "*", "sws_time_pct", ">", 50.0, "warning"),
    ("004-bR13", "*", "benchmark_pair", "*", "departure", ">", 0.0, "info"),
    ("004-bR15", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
    ("004-bR16", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
    ("004-bR17", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
    ("004-bR25", "*", "benchmark_run", "*", "file_io_over_transfer", "<", 1.25, "info"),
    ("004-bR26", "*", "benchmark_run", "*", "edr_over_baseline_low", "<", 1.0, "info"),
    ("004-bR28", "*", "benchmark_pair", "*", "departure", ">", 0.1, "warning"),
    ("004-bR30", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
    ("004-bR31", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
    ("004-bR33", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
    ("004-bR34", "*", "benchmark_pair", "*", "departure", ">", 0.05, "info"),
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

# (evaluations, findings) on the demo
DEMO_GLASSTONE_SYSTEM_RULES = {"001-aF34": (1080, 74), "001-b6.4-15": (1080, 626), "001-b6.4-3": (240, 0)}


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
    assert (compared, crossed, systems) == (3780, 504, 4)
    assert status["words"] == "(busy-max-d $>$ 70) OR"  # the seed's OCR of Figure 9, line 2173
    # every alarm's findings are its rows of rpt_threshold_exceptions
    mismatched = db.execute(
        "select status.rule_id from marts.rpt_rule_status as status "
        "left join (select rule_id, count(*) as n from marts.rpt_threshold_exceptions group by rule_id) as e "
        "using (rule_id) where status.evaluated_by = 'rpt_threshold_exceptions' "
        "and coalesce(status.findings, 0) <> coalesce(e.n, 0)").fetchall()
    assert mismatched == []


def test_the_available_capacity_rules_compare_each_resources_current_peak_with_its_bound(db):
    # Evans (seed 001 L1733): available capacity 70 % to 80 %; the ATM article (L3194): above 85 % on a NonStop
    # TXP, 95 % on a VLX. fct_capacity_forecast grades each resource against its row of
    # reference_capacity_thresholds; the rule is the one the row names, compared at the resource's current peak
    rows = db.execute(
        "select b.rule_id, f.system_name, f.resource_name, f.threshold_pct, f.current_peak_pct "
        "from marts.fct_capacity_forecast as f inner join seeds.reference_capacity_thresholds as b "
        "on b.resource_type = f.resource_type and b.cpu_type = f.threshold_cpu_type "
        "where b.rule_id is not null and f.current_peak_pct is not null").fetchall()
    expected: dict[str, list[int]] = {}
    for rule_id, _, _, bound, peak in rows:
        counts = expected.setdefault(rule_id, [0, 0])
        counts[0] += 1
        counts[1] += peak > bound
    status = {r: [n, f] for r, n, f in db.execute(
        "select rule_id, evaluations, findings from marts.rpt_rule_status where evaluated_by = 'fct_capacity_forecast'"
    ).fetchall()}
    assert status == expected == {"001-b6.4-1": [20, 8], "001-b6.4-2": [14, 1]}
    # the TXP's bound is 85 and the VLX's 95: \PROD1's saturated CPU 06 crosses, no processor of \DEV1 does
    bounds = {(system, rule_id): bound for rule_id, system, _, bound, _ in rows}
    assert (bounds["\\PROD1", "001-b6.4-2"], bounds["\\DEV1", "001-b6.4-2"]) == (85.0, 95.0)
    crossed = sorted((system, name) for rule_id, system, name, bound, peak in rows
                     if rule_id == "001-b6.4-2" and peak > bound)
    assert crossed == [("\\PROD1", "CPU 06")]


def test_perfdb_rules_of_one_document(demo_home, capsys):
    listed = rules(capsys, demo_home, "--doc", "000")
    assert len(listed) == 79 and {r["document"] for r in listed} == {"000"}
    evaluated = {r["rule_id"]: (r["kind"], r["evaluations"], r["findings"]) for r in listed if r["status"] == "evaluated"}
    # the Appendix A throughput and transactions per second of the benchmark runs (every run, 20 of them the demo's
    # TCP/IP for VSE runs); the worked examples of
    # rpt_formula_results (transfer-time reductions, effective throughput 0.327 and 10.91 Mbit/s, RU 1024-44 = 980,
    # frame 16,384 + 9 = 16,393, MAXBFRU 2, RUSIZES, NCP's acknowledgement window 2, 1 and 16, and the cases without a printed result: receiver memory, NCP
    # buffers, AIX buffer units); the configuration rules evaluated on the demo's listings (rpt_config_findings:
    # seed 000's Appendix A base and tuned listings, SYSA's VTAM and NCP and mode table, aix01's (its link station to
    # aix02: a 4096-byte RU in 4000-byte frames, R06 and ru-fits-frame), VSE1's, AS4A's CL,
    # OS2A's .NDF, NCP1's subarea route) plus, outside SQL, on the runs' parameters (55 DELAY, 44 pacing windows,
    # 24 thewall: seed 000 L341's three baseline pacing windows below 8, 13 thewall below 8192); SYSA's D NET,SESSIONS
    # windows (6 displays of three bulk sessions, each with two directions: OS2A's held at NEXT 7 fires); the user's
    # benchmark runs against the published ones (none an order of magnitude below; 18 of them seed 004 TCP/IP for VSE
    # runs of the demo's vse_tcpip.jsonl, the IND$FILE and LANRES/VSE transfers having no published twin)
    assert evaluated == {
        "000-F1": ("formula", 457 + 20, None), "000-F3": ("formula", 457 + 20, None),
        "000-F2": ("formula", 3, None), "000-F4": ("formula", 2, None), "000-F5": ("formula", 1, None),
        "000-F6": ("formula", 1, None), "000-F7": ("formula", 1, None), "000-F8": ("formula", 1, None),
        "000-F9": ("formula", 1, None), "000-F10": ("formula", 1, None), "000-F14": ("formula", 3, None),
        "000-F16": ("formula", 2, None),
        "000-F11": ("configuration", 3, 0),
        "000-R02": ("configuration", 5, 1), "000-R05": ("configuration", 3, 1), "000-R06": ("configuration", 9, 1),
        "000-R07": ("configuration", 26, 1), "000-R15": ("configuration", 5, 1), "000-R20": ("configuration", 2, 1),
        "000-R21": ("configuration", 9, 0), "000-R22": ("configuration", 2, 1), "000-R25": ("configuration", 2, 1),
        "000-R29": ("configuration", 3, 2), "000-R32": ("configuration", 3 + 24, 1 + 13),
        "000-R33": ("configuration", 1, 1), "000-R34": ("configuration", 2, 1), "000-R35": ("configuration", 2, 1),
        "000-R39": ("configuration", 1, 1), "000-R40": ("configuration", 1, 1),
        "000-R44": ("configuration", 3, 0), "000-R53": ("configuration", 3, 2), "000-R57": ("configuration", 2, 0),
        "000-R10": ("threshold", 36, 6), "000-R62": ("diagnostic", 54 + 18, 0),
        # L202: the BIND RU sizes of SYSA's #BATCH sessions (6 displays each) against the X'8989' of SYSA's mode
        # table: AS4A's 4,096 both ways, DOSA's negotiated down to 960 (Figure 6, L1132); L886 on Appendix A's base
        # (T2TIMER not coded toward windows of 3, 10 and 2) and tuned (1,1,8) listings
        "000-R08": ("diagnostic", 12, 6), "000-R49": ("configuration", 2, 1),
        "000-delay-0": ("configuration", 4 + 55, 1), "000-iobuf-equals-unitsz": ("configuration", 3, 0),
        "000-maxbfru-from-piu": ("configuration", 1, 0), "000-maxdata-ge-maxtsl": ("configuration", 3, 0),
        "000-maxtsl-tic1": ("configuration", 1, 0),
        "000-pacing-window-8": ("configuration", 23 + 44, 9 + 3), "000-rcvbufc-two-frames": ("configuration", 3, 0),
        "000-ru-fits-frame": ("configuration", 7 + 2, 2), "000-rusizes-symmetric": ("configuration", 3, 0),
        "000-size-chain": ("configuration", 3, 1),
        "000-slodown-6": ("configuration", 3, 1), "000-unitsz-4000": ("configuration", 3, 2),
        # the DLC window and platform rules on Appendix A's base and tuned listings, Appendix B's defaults and tuned
        # values, aix01's and aix02's CS/AIX link stations and, R13 and R17, the two APPC runs (the baseline's
        # windows 8 / 4); F12 on the base and tuned listings and SYSA's VTAM and NCP (384 and 3992, not 4000); R51
        # on NCP1's subarea route; R14 across the listings (#BATCH of AS4A paced 7, of OS2A and SYSA 63); R16 on
        # the aix01 - aix02 link (4000 both ends)
        "000-F12": ("configuration", 3, 2), "000-R13": ("configuration", 7 + 2, 1 + 1),
        "000-R14": ("configuration", 3, 3), "000-R16": ("configuration", 2, 0),
        "000-R17": ("configuration", 7 + 2, 1 + 1), "000-R23": ("configuration", 2, 0),
        "000-R26": ("configuration", 2, 1), "000-R27": ("configuration", 2, 1), "000-R30": ("configuration", 2, 1),
        "000-R31": ("configuration", 2, 1), "000-R51": ("configuration", 1, 1), "000-R60": ("configuration", 2, 1),
        "000-R61": ("configuration", 2, 1),
        # L304 read literally on the nodes R06 reads (aix01-aix02's 4,096 and NCP1's 8,192 in 4,000-byte frames); L963
        # on SYSA's VTAM definitions (the RS/6000's PU on AIXMODES, APPC/MVS's APPL on TUNEMODE); L145 on the site's
        # APPC runs compared with Appendix A (the last day's tuned run over 4 sessions); SLODOWN 6 at 6 % free (L817)
        # and MachineA's windows of 8 and 63 (L361-L364)
        "000-R03": ("configuration", 7 + 2, 2), "000-R59": ("configuration", 1, 1), "000-R63": ("diagnostic", 6, 1),
        "000-F13": ("formula", 1, None), "000-F15": ("formula", 2, None),
    }
    everything = rules(capsys, demo_home)
    by_document: dict[str, list[int]] = {}
    for r in everything:
        counts = by_document.setdefault(r["document"], [0, 0])
        counts[r["status"] == "evaluated"] += 1
    # [not evaluable, evaluated] per document on the demo (formulas of rpt_formula_results, diagnostics of
    # rpt_app_diagnostics, configuration rules of rpt_config_findings); 001 also has the formulas of
    # fct_process_shift (READY-BUSY) and rpt_capacity_whatif (the +/-10 and 15 % bands), the baseline
    # check of rpt_capacity_baseline_summary, the forecasts' history of rpt_forecast_history, the FastSort
    # passes of rpt_fastsort_passes and MEASURE's own overhead of rpt_measure_overhead
    assert by_document == {"000": [13, 66], "001": [17, 77], "002": [9, 41], "003": [2, 14], "004": [18, 77],
                           "formats": [0, 7]}


def test_every_demo_forecast_rests_on_less_than_the_two_years_of_history_seed_001_regresses(db):
    # L1737: regression analysis and extrapolation collects "historical data for the last two years or so"; each
    # demo system's forecast regresses its 60 days, 2026-01-05 to 2026-03-05 (the day-short and the two-year cases
    # are the model's unit test)
    rows = db.execute("select system_name, history_start, history_end, metric_value, limit_value, fired "
                      "from marts.rpt_forecast_history where rule_id = '001-b6.4-5' order by system_name").fetchall()
    first, last = dt.date(2026, 1, 5), dt.date(2026, 3, 5)
    assert rows == [(system, first, last, 60.0, 730.0, True) for system in ("SYSA", "SYSB", "\\DEV1", "\\PROD1", "aix01")]
    assert db.execute("select status, evaluated_by, evaluations, systems, findings from marts.rpt_rule_status "
                      "where rule_id = '001-b6.4-5'").fetchone() == ("evaluated", "rpt_forecast_history", 5, 5, 5)


def test_seed_001_readlink_cache_rules_on_the_demo_peek_displays(demo_home, capsys):
    # three CPUs' PEEK /CPU n/ EXPEDITED displays (ingest.generate.peek): \DEV1's CPU 0 prints Figure 3 and keeps
    # both; \PROD1's CPU 6 discards 4.7 % before use and reads 6.8 % too late (aF12), its CPU 1 allows 64 buffers and
    # never used more than 18 (aF13)
    listed = {r["rule_id"]: r for r in rules(capsys, demo_home, "--doc", "001", "--kind", "configuration")}
    assert {rule_id: (listed[rule_id]["status"], listed[rule_id]["evaluations"], listed[rule_id]["systems"],
                      listed[rule_id]["findings"]) for rule_id in ("001-aF12", "001-aF13")} == {
        "001-aF12": ("evaluated", 3, 3, 1), "001-aF13": ("evaluated", 3, 3, 1)}


def test_seed_004_start_job_and_telnetd_pool_rules_on_the_demo_listings(demo_home, capsys):
    # VSE1's TCP/IP start job (ingest.generate.listings): its EXEC IPNET without DSPACE (seed 004 L2199); the IPINIT
    # members of VSE1 (a POOL=NO daemon) and VSE2 (20 pool buffers for 10 POOL=YES daemons, L3031-L3034)
    listed = {r["rule_id"]: r for r in rules(capsys, demo_home, "--doc", "004", "--kind", "configuration")}
    assert {rule_id: (listed[rule_id]["status"], listed[rule_id]["evaluations"], listed[rule_id]["systems"],
                      listed[rule_id]["findings"]) for rule_id in ("004-aR19", "004-aR14")} == {
        "004-aR19": ("evaluated", 1, 1, 1), "004-aR14": ("evaluated", 2, 2, 1)}

def test_a_rule_not_evaluable_says_which_input_is_missing(demo_home, capsys):
    (rule,) = [r for r in rules(capsys, demo_home, "--doc", "000", "--kind", "threshold", "--status", "not evaluable")
               if r["rule_id"] == "000-R37"]
    assert rule["lines"] == "L736" and rule["evaluations"] == 0 and rule["findings"] is None
    assert rule["reason"] == ("needs obs.adapter_utilization_pct of an adapter carrying interactive work: AS/400 "
                              "Performance Tools/400's IOP utilization (L736): not parsed; the interface byte rates the "
                              "warehouse has (fct_interface_interval) have no adapter speed beside them, and no capture "
                              "says which adapter carries interactive rather than bulk work (the 60 % is for "
                              "interactive work only)")
    assert rule["words"].startswith("- For interactive environments, the adapter utilization should be kept under 60%")
    assert cli.main(["--home", str(demo_home.root), "rules", "--doc", "004", "--status", "not evaluable"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "18 rules: 0 evaluated, 18 not evaluable"


def test_perfdb_rules_says_which_measured_days_its_terminal_rules_lack(demo_home, capsys):
    """The demo's MEASCOM text Wednesdays (9 days of \\DEV1 and \\PROD1) carry no TERMINAL records
    (marts.rpt_measure_missing_days, test_tandem_measure_rules.py)."""
    assert cli.main(["--home", str(demo_home.root), "rules", "--doc", "001", "--kind", "formula"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == (
        "TERMINAL: 18 days of 2 systems measured without TERMINAL records: the rules on them are evaluated without "
        "these days (marts.rpt_measure_missing_days)")


def test_the_rules_judged_across_the_demo_listings(db):
    # #BATCH is paced 7 / 7 on AS4A (its MAXLENRU 4096), 63 on OS2A and SYSA, each with 4,096-byte RUs (seed 000 L370-L413)
    modes = sorted(db.execute("select node, ru_bytes, pacing_window, fired from marts.rpt_mode_consistency").fetchall())
    assert modes == [("AS4A/#BATCH", 4096, 7, True), ("OS2A/#BATCH", 4096, 63, True), ("SYSA", 4096, 63, True)]
    links = sorted(db.execute("select rule_id, node, value, limit_value, fired from marts.rpt_link_stations").fetchall())
    # aix01 receives up to 32 frames where aix02 transmits 16 (seed 002 L920); aix02 receives 8 of aix01's 32; the
    # link's frames match (4000); aix02, a network node, routes between 4000- and 4105-byte I-fields (L567-L569)
    assert links == sorted([
        ("000-R16", "aix01-aix02", 4000, 4000, False), ("000-R16", "aix02-aix01", 4000, 4000, False),
        ("002-F11", "aix01-aix02", 32, 16, True), ("002-F11", "aix02-aix01", 8, 32, False),
        ("002-R13", "aix01-aix02", 32, 16, True), ("002-R13", "aix02-aix01", 8, 32, False),
        ("002-F17", "aix02-aix01", 4000, 4105, True), ("002-F17", "aix02-ncp", 4105, 4000, True),
        ("002-R25", "aix02-aix01", 4000, 4105, True), ("002-R25", "aix02-ncp", 4105, 4000, True)])


def test_seed_000_downward_negotiation_of_the_demo_sessions_bind_ru_sizes(db):
    # SYSA's mode table configures #BATCH with RUSIZES X'8989' (4,096 bytes each way); the BIND of AS4A's session
    # settled on that, DOSA's (NS/DOS) on 960 (seed 000 Figure 6, L1132): L202's downward negotiation. #BAT2K and
    # #INTER are in no mode table of SYSA: not compared
    rows = db.execute("select session, logmode, plu_to_slu_ru_size, slu_to_plu_ru_size, configured_plu_to_slu_ru_size, "
                      "configured_slu_to_plu_ru_size, fired, count(*) from marts.rpt_session_ru_sizes "
                      "group by session, logmode, plu_to_slu_ru_size, slu_to_plu_ru_size, configured_plu_to_slu_ru_size, "
                      "configured_slu_to_plu_ru_size, fired order by session").fetchall()
    assert rows == [("D0D1D2D3D4D5D6D7", "#BATCH", 960, 960, 4096, 4096, True, 6),
                    ("F1A2B3C4D5E6F701", "#BATCH", 4096, 4096, 4096, 4096, False, 6)]


def test_the_processor_and_workload_rules_of_glasstone_on_the_demos_shifts_and_days(db):
    # 001-aF34 (L513, L565: the TXP averaged 70 % at 1 s for 95 %) and 001-b6.4-15 (L2826: processors balanced
    # "to within 4%") on each system's shifts, the processors of one type together, recomputed from fct_cpu_shift;
    # 001-b6.4-3 (L1727: three or four applications make 80 % to 90 % of the workload) on each system's days of
    # fct_workload_daily. The NonStop processors each carry their own load (a saturated one on \PROD1): none of
    # their shifts is balanced within 4 points, SYSB's two CPs are in 92 of 180 and its and SYSA's zIIPs in all;
    # 74 z/OS CP shifts average above 70 %; the four largest applications hold 81 % to 100 % of the application CPU
    expected = dict(((r, (n, f)) for r, n, f in db.execute("""
        with shifts as (
            select system_name, shift_date, shift, cpu_type, avg(busy_pct_avg) as busy,
                max(busy_pct_avg) - min(busy_pct_avg) as spread
            from marts.fct_cpu_shift where busy_pct_avg is not null group by all)
        select '001-aF34', count(*), count(*) filter (where busy > 70) from shifts
        union all
        select '001-b6.4-15', count(*), count(*) filter (where spread > 4) from shifts""").fetchall()))
    expected["001-b6.4-3"] = db.execute("""
        with ranked as (
            select d.platform, d.system_name, d.shift_date, d.cpu_s,
                row_number() over (partition by d.platform, d.system_name, d.shift_date
                                   order by d.cpu_s desc, d.workload) as n
            from marts.fct_workload_daily as d
            where d.workload in (select workload from seeds.workload_definitions w
                                 where w.component = 'application' and w.platform = d.platform)),
        days as (select platform, system_name, shift_date, 100 * sum(cpu_s) filter (where n <= 4) / sum(cpu_s) as share
                 from ranked group by all)
        select count(*), count(*) filter (where share < 80) from days""").fetchone()
    status = {r: (n, f) for r, n, f in db.execute(
        "select rule_id, evaluations, findings from marts.rpt_rule_status "
        "where rule_id in ('001-aF34', '001-b6.4-15', '001-b6.4-3')").fetchall()}
    assert status == expected == DEMO_GLASSTONE_SYSTEM_RULES


def test_seed_003_channel_maxima_compare_each_ctc_path_with_its_connections(db):
    # seed 003 L386: 95 % with MPC+ (003-VT-CH-01, SYSB's VTAM listing: MPC+ YES), 78-80 % with VTAM V4R3
    # (003-VT-CH-02, SYSA: MPC+ NO); the two CTC paths of each system, 48 RMF intervals a day for 60 days (SMF 73.1);
    # the FICON and OSA paths are not compared; a peak-hour interval of a saturated path is a finding
    rows = db.execute(
        "select rule_id, system_name, connection_type, limit_value, count(*), count(*) filter (where fired), "
        "count(distinct chpid) from marts.rpt_channel_utilization "
        "group by rule_id, system_name, connection_type, limit_value order by rule_id").fetchall()
    assert rows == [("003-VT-CH-01", "SYSB", "MPC+", 95.0, 2 * 48 * 60, 231, 2),
                    ("003-VT-CH-02", "SYSA", "non-MPC+", 78.0, 2 * 48 * 60, 156, 2)]
    assert db.execute("select count(*) from marts.rpt_channel_utilization "
                      "where fired <> (channel_util_pct >= limit_value)").fetchone() == (0,)
    status = db.execute(
        "select rule_id, status, evaluations, systems, findings from marts.rpt_rule_status "
        "where rule_id in ('003-VT-CH-01', '003-VT-CH-02') order by rule_id").fetchall()
    assert status == [("003-VT-CH-01", "evaluated", 5760, 1, 231), ("003-VT-CH-02", "evaluated", 5760, 1, 156)]
    # the utilisation is RMF's, SMF73PBY / SMF73PTI of the raw section; the undefined CHPIDs are left out
    assert db.execute(
        "select count(*) from staging.stg_smf__channel_path as s inner join raw.smf73_channel_path as r "
        "on r.system_id = s.system_id and r.interval_start = s.interval_start and r.chpid = s.chpid "
        "where abs(s.utilization_pct - 100.0 * r.partition_busy_us / r.partition_interval_us) > 1e-4").fetchone() == (0,)
