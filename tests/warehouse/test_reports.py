"""`perfdb report threshold` and `perfdb report trend`: ENFORM layouts, masks and machine formats.

The serving warehouse here holds mart rows that carry the values printed in King 1986 (Tandem Systems
Review, Dec 1986), Figures 1 and 2. Those values cannot come out of one consistent data set: in some
rows, max - delt > avg. So the rows are written straight into the marts, with the unified
rpt_threshold_exceptions rows they stand for and a few network crossings beside them.
tests/measure/test_dbt_measure.py builds the marts from raw counters and runs the same commands on the result;
tests/warehouse/test_threshold_exceptions.py does so on the demo warehouse.
"""

from __future__ import annotations

import datetime as dt
import json

import duckdb
import pyarrow as pa
import pytest

from ingest import cli
from ingest.home import Home
from ingest.reports import _enform_format as enform_format
from ingest.reports import threshold

T = dt.time
FIG1_DATE = dt.date(1986, 5, 8)

# Figure 1 (THRESHOLD REPORT, \BANCA, 05/08/86): TIME OF DAY, MAX CPU QLEN, DELT CPU QLEN, MAX CPU SWAP,
# MAX CPU BUSY, DELT CPU BUSY, MAX INTR BUSY, AVG CPU QLEN, AVG CPU SWAP, AVG CPU BUSY, AVG CPU INTR.
# The OCR shows CPU 0 four times for five rows; here each row has its own processor.
FIGURE_1_ROWS = [
    (T(11), 2.0, 1.3, 0.2, 55.4, 10.5, 8.5, 1.2, 0.1, 42.6, 6.3),
    (T(13), 3.4, 2.8, 1.4, 65.1, 15.3, 10.2, 1.5, 0.3, 53.3, 8.6),
    (T(14), 4.6, 2.7, 3.1, 60.2, 17.9, 13.8, 2.6, 1.6, 52.4, 11.5),
    (T(15), 7.1, 4.1, 1.2, 75.1, 24.9, 15.5, 2.6, 0.6, 63.6, 12.9),
    (T(17), 9.3, 1.1, 7.2, 85.3, 23.0, 19.2, 3.8, 1.8, 73.2, 14.4),
]
FIGURE_1_PRINTED = [
    "11:00    2.0    1.3     .2   55.4   10.5    8.5    1.2     .1   42.6    6.3",
    "13:00    3.4    2.8    1.4   65.1   15.3   10.2    1.5     .3   53.3    8.6",
    "14:00    4.6    2.7    3.1   60.2   17.9   13.8    2.6    1.6   52.4   11.5",
    "15:00    7.1    4.1    1.2   75.1   24.9   15.5    2.6     .6   63.6   12.9",
    "17:00    9.3    1.1    7.2   85.3   23.0   19.2    3.8    1.8   73.2   14.4",
]
RULES = ["qlen_max", "qlen_spread_across_hours", "swaps_per_s_max", "busy_pct_max",
         "busy_pct_spread_across_hours", "ibusy_pct_max"]
LIMITS = [2, 1, 2, 70, 20, 25]  # Figure 9
EXCEPTION_COLUMNS = [
    "domain", "system_name", "entity", "source_command", "exception_date", "shift", "interval_start", "interval_end",
    "rule_id", "severity", "rule", "metric", "observed_value", "operator", "limit_value", "source",
]
NETWORK_DATE = dt.date(1986, 5, 11)  # network crossings only
VIOLATION_COLUMNS = [
    "system_name", "shift_date", "shift", "shift_name", "os_version", "cpu_num", "time_of_day",
    "qlen_max", "qlen_spread_across_hours", "swaps_per_s_max", "busy_pct_max", "busy_pct_spread_across_hours",
    "ibusy_pct_max", "qlen_avg", "swaps_per_s_avg", "busy_pct_avg", "ibusy_pct_avg", "n_hours",
    *[f"crossed_{r}" for r in RULES], "rules_crossed", "os_version_carried_forward", "os_version_measured_on",
]
# the alarm rules the count block lists (entity, rule ids); busy_process rules select rows, they count nothing
SEED_RULES = {"cpu": [f"CPU-T{n}" for n in range(1, 7)], "vse_stack": ["VSE-R1", "VSE-R2"],
              "buffer_pool": ["SNA-R02", "VTAM-03"], "interface": ["NET-IF-01"],
              "process_activity": ["PROC-ACT-HI", "PROC-ACT-LO"], "busy_process": ["BUSY-PROC-1"]}

# Figure 2 (CPU TREND REPORT, DATES: JAN 1 TO APR 2), as reassembled from the OCR.
FIGURE_2_ROWS = [
    ("DT00111", 1, "2", 1.5, 0.3, 0.2, 35.4, 5.5),
    ("DT00211", 1, "2", 2.0, 1.3, 0.2, 55.4, 10.5),
    ("DT00310", 1, "2", 4.6, 2.7, 3.1, 60.2, 17.9),
    ("DT00411", 0, "2", 3.4, 2.8, 1.4, 65.1, 15.3),
    ("DT06011", 0, "2", 7.1, 4.1, 1.2, 75.1, 24.9),
    ("DT09211", 1, "2", 9.3, 1.1, 7.2, 85.3, 23.0),
]
TREND_COLUMNS = [
    "system_name", "trend_date", "hour_start", "loadid", "cpu_num", "cpu_type", "os_version", "qlen_max",
    "qlen_spread_across_cpus", "swaps_per_s_max", "busy_pct_max", "busy_pct_spread_across_cpus", "cpu_count",
]


def _violation_rows() -> list[dict]:
    rows = []
    for cpu, (time_of_day, *values) in enumerate(FIGURE_1_ROWS):
        crossed = [values[i] > limit for i, limit in zip([0, 1, 2, 3, 4, 5], LIMITS)]
        rows.append(dict(zip(VIOLATION_COLUMNS, [
            "\\BANCA", FIG1_DATE, 1, "first", "B30", cpu, time_of_day, *values, 8, *crossed,
            [r for r, c in zip(RULES, crossed) if c], False, FIG1_DATE,
        ])))
    # another day and system: never printed for 1986-05-08; its records named no version (MEASCOM text)
    rows.append({**rows[0], "shift_date": dt.date(1986, 5, 9), "system_name": "\\OTHER",
                 "os_version": "B20", "os_version_carried_forward": True, "os_version_measured_on": dt.date(1986, 5, 2)})
    return rows


def _exception_rows() -> list[dict]:
    """The Figure 1 rows one per crossed rule (as rpt_threshold_exceptions unpivots them), then network rows."""
    rows = []
    for v in _violation_rows():
        start = dt.datetime.combine(v["shift_date"], v["time_of_day"])
        for metric in v["rules_crossed"]:
            n = RULES.index(metric) + 1
            rows.append(dict(zip(EXCEPTION_COLUMNS, [
                "cpu", v["system_name"], f"cpu {v['cpu_num']}", None, v["shift_date"], 1, start,
                start + dt.timedelta(hours=8), f"CPU-T{n}", "warning", f"rule T{n}", metric, v[metric], ">",
                float(LIMITS[n - 1]), "King 1986, Fig. 9",
            ])))

    def network(host, entity, command, start, end, rule_id, metric, value, operator, limit, rule, day=FIG1_DATE):
        return dict(zip(EXCEPTION_COLUMNS, [
            "network", host, entity, command, day, None, start, end, rule_id, "warning", rule, metric, value,
            operator, limit, "seed",
        ]))

    at = lambda day, h, m=0: dt.datetime.combine(day, dt.time(h, m))  # noqa: E731
    rows += [
        network("VSE1", "TCP/IP stack", "QUERY STATS", at(dt.date(1986, 5, 7), 22), at(FIG1_DATE, 0), "VSE-R1",
                "non_ip_count", 360.0, ">", 0.0, "Non-IP frames reached the stack (should be 0)"),
        network("VSE1", "TCP/IP stack", "QUERY STATS", at(FIG1_DATE, 10), at(FIG1_DATE, 12), "VSE-R2",
                "misrouted_pct", 0.1004, ">", 0.1, "Mis-routed datagrams above 0.1% of inbound datagrams"),
        network("aix01", "STREAMS buffers", "snaadmin query_buffer_availability", at(FIG1_DATE, 10),
                at(FIG1_DATE, 12), "SNA-R02", "throttle_status", 85.0, ">=", 70.0,
                "CS/AIX pacing windows cut back hard"),
        # a pool's first snapshot: no interval start
        network("SYSA", "IO00", "D NET,BFRUSE", None, at(FIG1_DATE, 14) + dt.timedelta(microseconds=50000),
                "VTAM-03", "expansion_failed_flag", 1.0, ">=", 1.0, "Dynamic buffering failed"),
        network("web01", "eth0", "netstat -i", at(NETWORK_DATE, 10), at(NETWORK_DATE, 12), "NET-IF-01", "error_pct",
                0.25, ">", 0.0, "Transmit or receive errors in the interval", day=NETWORK_DATE),
    ]
    return rows


def _trend_rows() -> list[dict]:
    rows = []
    for loadid, cpu, cpu_type, *values in FIGURE_2_ROWS:
        day = dt.date(1986, 1, 1) + dt.timedelta(days=int(loadid[2:5]) - 1)
        hour = dt.datetime.combine(day, dt.time(int(loadid[5:7])))
        rows.append(dict(zip(TREND_COLUMNS, ["\\POS", day, hour, loadid, cpu, cpu_type, "B30", *values, 2])))
    return rows


@pytest.fixture
def home(tmp_path) -> Home:
    home = Home(tmp_path / "home").create()
    con = duckdb.connect(str(home.serving_path))
    con.execute("create schema marts")
    violations = pa.Table.from_pylist(_violation_rows())
    exceptions = pa.Table.from_pylist(_exception_rows())
    trend = pa.Table.from_pylist(_trend_rows())
    con.execute("create table marts.rpt_threshold_violations as select * from violations")
    con.execute("create table marts.rpt_threshold_exceptions as select * from exceptions")
    con.execute("create table marts.rpt_cpu_trend as select * from trend")
    con.execute("create schema seeds")
    con.execute("create table seeds.thresholds (rule_id varchar, entity varchar)")
    con.executemany("insert into seeds.thresholds values (?, ?)",
                    [(rule_id, entity) for entity, ids in SEED_RULES.items() for rule_id in ids])
    # Process Activity: one application process below the OLTP band on 05/08, one inside it
    con.execute("""create table marts.rpt_process_activity as select * from (values
        ('\\BANCA', date '1986-05-08', 'PROC-ACT-LO'), ('\\BANCA', date '1986-05-08', null))
        as t(system_name, report_date, oltp_band_rule_id)""")
    # the measurements behind them, as far as the reports ask: which systems and days hold data
    # (1986-05-10 is a measured day on which nothing crossed a threshold)
    con.execute("""create table marts.fct_cpu_shift as select * from (values
        ('\\BANCA', date '1986-05-08'), ('\\OTHER', date '1986-05-09'), ('\\BANCA', date '1986-05-10'),
        ('\\POS', date '1986-01-01'), ('\\POS', date '1986-04-02')) as t(system_name, shift_date)""")
    con.execute("""create table marts.fct_tcpip_interval as select * from (values
        ('VSE1', timestamp '1986-05-08 10:00'), ('aix01', timestamp '1986-05-08 10:00'),
        ('SYSA', timestamp '1986-05-08 14:00'), ('web01', timestamp '1986-05-11 10:00')) as t(host, interval_start)""")
    con.close()
    return home


def run_cli(capsys, home: Home, *args: str) -> tuple[int, str, str]:
    rc = cli.main(["--home", str(home.root), "report", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def test_f5_1_prints_no_leading_zero_and_stars_on_overflow():
    assert enform_format.f_mask(0.2, 5, 1) == "   .2"
    assert enform_format.f_mask(55.4, 5, 1) == " 55.4"
    assert enform_format.f_mask(2.0, 5, 1) == "  2.0"
    assert enform_format.f_mask(0.04, 5, 1) == "   .0"
    assert enform_format.f_mask(-0.04, 5, 1) == "   .0"
    assert enform_format.f_mask(-0.5, 5, 1) == "  -.5"
    assert enform_format.f_mask(100.0, 5, 1) == "100.0"
    assert enform_format.f_mask(1000.0, 5, 1) == "*****"
    assert enform_format.f_mask(None, 5, 1) == "     "
    assert enform_format.i_mask(0, 2) == " 0"
    assert enform_format.zero_filled(1, 2) == "01"
    assert enform_format.zero_filled("2", 2) == "02"


def test_stacked_headings_are_bottom_aligned_and_centred():
    columns = [
        enform_format.Column("CPU/#", 2, lambda v: enform_format.i_mask(v, 2)),
        enform_format.Column("MAX/CPU/QLEN", 5, lambda v: enform_format.f_mask(v, 5, 1)),
    ]
    assert enform_format.render_table(columns, [[0, 2.0], [12, 0.2]]) == [
        "      MAX",
        "CPU   CPU",
        " #    QLEN",
        "  0    2.0",
        " 12     .2",
    ]


OTHER_EXCEPTIONS_1986_05_08 = [
    "                                                     OTHER THRESHOLD EXCEPTIONS",
    " DATE: 05/08/86",
    "",
    "                                                       RULE   OBSERVED",
    " DOMAIN  SYSTEM       ENTITY           INTERVAL         ID      VALUE   LIMIT                          RULE",
    "network  SYSA    IO00             14:00              VTAM-03         1   >= 1  Dynamic buffering failed",
    "network  VSE1    TCP/IP stack     05/07 22:00-00:00  VSE-R1        360    > 0  Non-IP frames reached the stack (should be 0)",
    "network  VSE1    TCP/IP stack     10:00-12:00        VSE-R2     0.1004  > 0.1  Mis-routed datagrams above 0.1% of inbound datagrams",
    "network  aix01   STREAMS buffers  10:00-12:00        SNA-R02        85  >= 70  CS/AIX pacing windows cut back hard",
    "",
]


# how many rows each rule flagged on 05/08/86: the Figure 9 rules on the Figure 1 rows (T1: 13:00-17:00, the
# 11:00 QLEN 2.0 is not > 2; T2: all five; T3: 14:00 and 17:00; T4 and T5: 15:00 and 17:00; T6: none), the
# network crossings and the Process Activity row below the OLTP band
RULE_COUNTS_1986_05_08 = [
    "        ROWS FLAGGED PER RULE",
    " DATE: 05/08/86",
    "",
    "    RULE                         ROWS",
    "     ID           ENTITY       FLAGGED",
    "SNA-R02      buffer_pool             1",
    "VTAM-03      buffer_pool             1",
    "CPU-T1       cpu                     4",
    "CPU-T2       cpu                     5",
    "CPU-T3       cpu                     2",
    "CPU-T4       cpu                     2",
    "CPU-T5       cpu                     2",
    "CPU-T6       cpu                     0",
    "NET-IF-01    interface               0",
    "PROC-ACT-HI  process_activity        0",
    "PROC-ACT-LO  process_activity        1",
    "VSE-R1       vse_stack               1",
    "VSE-R2       vse_stack               1",
    "",
]


def test_threshold_report_reproduces_figure_1_then_the_other_exceptions(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-08")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].strip() == "THRESHOLD REPORT"
    assert lines[1:6] == [" SYSTEM: \\BANCA", " DATE: 05/08/86", " SHIFT 1", " OS VERSION: B30", ""]
    assert lines[6:9] == [
        "      TIME   MAX    DELT   MAX    MAX    DELT   MAX    AVG    AVG    AVG    AVG",
        "CPU    OF    CPU    CPU    CPU    CPU    CPU    INTR   CPU    CPU    CPU    CPU",
        " #    DAY    QLEN   QLEN   SWAP   BUSY   BUSY   BUSY   QLEN   SWAP   BUSY   INTR",
    ]
    assert lines[9:14] == [f"  {cpu}  {printed}" for cpu, printed in enumerate(FIGURE_1_PRINTED)]
    assert lines[14] == ""  # the other day's row is not printed
    # a previous-day start carries its date; a pool's first snapshot shows its time only; 0.1004 is not
    # rounded to its limit 0.1
    assert lines[15:] == [line.rstrip() for line in OTHER_EXCEPTIONS_1986_05_08] + RULE_COUNTS_1986_05_08


def test_an_os_version_carried_forward_says_so(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-09")
    assert rc == 0, err
    assert out.splitlines()[1:5] == [
        " SYSTEM: \\OTHER", " DATE: 05/09/86", " SHIFT 1",
        " OS VERSION: B20 (carried forward from 05/02/86: this shift's records name none)",
    ]


def test_a_day_with_network_crossings_only_prints_them_alone(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-11")
    assert (rc, err) == (0, "")
    others, _, counts = out.partition("        ROWS FLAGGED PER RULE\n")
    flagged = {line.split()[0]: int(line.split()[-1]) for line in counts.splitlines()[4:-1]}
    assert flagged == {rule_id: int(rule_id == "NET-IF-01")
                       for entity, ids in SEED_RULES.items() if entity != "busy_process" for rule_id in ids}
    assert others.splitlines() == [
        "                                         OTHER THRESHOLD EXCEPTIONS",
        " DATE: 05/11/86",
        "",
        "                                         RULE    OBSERVED",
        " DOMAIN  SYSTEM  ENTITY    INTERVAL       ID       VALUE   LIMIT                     RULE",
        "network  web01   eth0    10:00-12:00  NET-IF-01      0.25    > 0  Transmit or receive errors in the interval",
        "",
    ]


def test_system_filter_applies_to_both_sections(capsys, home):
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-08", "--system", "VSE1")
    assert rc == 0
    assert "THRESHOLD REPORT" not in out  # no Figure 1 block: VSE1 has no processors
    others = out.partition("        ROWS FLAGGED PER RULE")[0]
    assert [line.split()[:5] for line in others.splitlines()[5:-1]] == [
        ["network", "VSE1", "TCP/IP", "stack", "05/07"],
        ["network", "VSE1", "TCP/IP", "stack", "10:00-12:00"],
    ]


def test_threshold_report_json_has_the_unified_mart_columns(capsys, home):
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-08", "--format", "json")
    assert rc == 0
    rows = json.loads(out)
    assert [list(r) for r in rows] == [EXCEPTION_COLUMNS] * 19  # 15 Figure 1 crossings, 4 network ones
    cpu = [r for r in rows if r["domain"] == "cpu"]
    # the Figure 9 rules each Figure 1 row trips (the 11:00 QLEN 2.0 is not > 2; no row trips interrupt busy)
    assert [(r["entity"], r["rule_id"]) for r in cpu] == [
        ("cpu 0", "CPU-T2"),
        ("cpu 1", "CPU-T1"), ("cpu 1", "CPU-T2"),
        ("cpu 2", "CPU-T1"), ("cpu 2", "CPU-T2"), ("cpu 2", "CPU-T3"),
        ("cpu 3", "CPU-T1"), ("cpu 3", "CPU-T2"), ("cpu 3", "CPU-T4"), ("cpu 3", "CPU-T5"),
        ("cpu 4", "CPU-T1"), ("cpu 4", "CPU-T2"), ("cpu 4", "CPU-T3"), ("cpu 4", "CPU-T4"), ("cpu 4", "CPU-T5"),
    ]
    assert cpu[-1]["observed_value"] == 23.0 and cpu[-1]["interval_start"] == "1986-05-08 17:00:00"
    (vse,) = [r for r in rows if r["rule_id"] == "VSE-R1"]
    assert [vse[c] for c in ("system_name", "interval_start", "interval_end", "observed_value", "limit_value")] == [
        "VSE1", "1986-05-07 22:00:00", "1986-05-08 00:00:00", 360.0, 0.0]
    assert vse["exception_date"] == "1986-05-08" and vse["shift"] is None


def test_threshold_report_csv_prints_the_unified_rows(capsys, home):
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-11", "--format", "csv")
    assert rc == 0
    assert out.splitlines() == [
        ",".join(EXCEPTION_COLUMNS),
        "network,web01,eth0,netstat -i,1986-05-11,,1986-05-11 10:00:00,1986-05-11 12:00:00,NET-IF-01,warning,"
        "Transmit or receive errors in the interval,error_pct,0.25,>,0.0,seed",
    ]


def test_threshold_report_of_a_quiet_day_prints_nothing(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-10")
    assert (rc, out) == (0, "")
    assert "nothing crossed a threshold on 1986-05-10" in err
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-10", "--format", "json")
    assert json.loads(out) == []


def test_busiest_day_is_the_day_with_most_crossings(capsys, home):
    assert threshold.print_busiest_day(home, fmt="table") == 0
    out = capsys.readouterr().out
    assert " DATE: 05/08/86" in out
    assert out.count("THRESHOLD REPORT") == 1 and out.count("OTHER THRESHOLD EXCEPTIONS") == 1


def test_trend_report_reproduces_figure_2(capsys, home):
    rc, out, err = run_cli(capsys, home, "trend", "--from", "1986-01-01", "--to", "1986-04-02")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].strip() == "CPU TREND REPORT"
    assert lines[1].strip() == "DATES: JAN 1 TO APR 2"
    assert lines[3:6] == [
        "                                   MAX    DELT   MAX    MAX    DELT",
        "SYSTEM   LOADID  CPU   CPU   OS    CPU    CPU    CPU    CPU    CPU",
        " NAME   DTDDDHH  NUM  TYPE  VERS   QLEN   QLEN   SWAP   BUSY   BUSY",
    ]
    assert lines[6:] == [
        " \\POS   DT00111   01   02   B30     1.5     .3     .2   35.4    5.5",
        " \\POS   DT00211   01   02   B30     2.0    1.3     .2   55.4   10.5",
        " \\POS   DT00310   01   02   B30     4.6    2.7    3.1   60.2   17.9",
        " \\POS   DT00411   00   02   B30     3.4    2.8    1.4   65.1   15.3",
        " \\POS   DT06011   00   02   B30     7.1    4.1    1.2   75.1   24.9",
        " \\POS   DT09211   01   02   B30     9.3    1.1    7.2   85.3   23.0",
    ]


def test_trend_report_json_and_date_range(capsys, home):
    rc, out, _ = run_cli(capsys, home, "trend", "--from", "1986-01-02", "--to", "1986-03-01", "--format", "json")
    assert rc == 0
    rows = json.loads(out)
    assert [list(r) for r in rows] == [TREND_COLUMNS] * 4
    assert [r["loadid"] for r in rows] == ["DT00211", "DT00310", "DT00411", "DT06011"]
    assert rows[0]["hour_start"] == "1986-01-02 11:00:00"


def test_bad_dates_are_usage_errors(capsys, home):
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, home, "threshold", "--date", "8 May 1986")
    assert exc.value.code == 2
    assert "expected a date as YYYY-MM-DD, got '8 May 1986'" in capsys.readouterr().err
    rc, _, err = run_cli(capsys, home, "trend", "--from", "1986-04-02", "--to", "1986-01-01")
    assert rc == 2
    assert "--from 1986-04-02 is after --to 1986-01-01" in err


def test_missing_warehouse_is_reported_not_raised(capsys, tmp_path):
    empty = Home(tmp_path / "empty").create()
    rc, out, err = run_cli(capsys, empty, "threshold", "--date", "1986-05-08")
    assert (rc, out) == (1, "")
    assert "serving.duckdb does not exist yet" in err
    duckdb.connect(str(empty.serving_path)).close()
    rc, out, err = run_cli(capsys, empty, "trend")
    assert (rc, out) == (1, "")
    assert "rpt_cpu_trend" in err and "run `perfdb build` and `perfdb publish`" in err
    rc, out, err = run_cli(capsys, empty, "threshold", "--date", "1986-05-08", "--format", "json")
    assert (rc, out) == (1, "")
    assert "rpt_threshold_exceptions" in err and "run `perfdb build` and `perfdb publish`" in err


def test_a_date_without_data_says_so_and_fails(capsys, home):
    for fmt in ("table", "json"):
        rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-06-01", "--format", fmt)
        assert (rc, out) == (1, "")
        assert err == "perfdb report threshold: no data on 1986-06-01; the warehouse holds 1986-01-01 to 1986-05-11\n"
    rc, out, err = run_cli(capsys, home, "trend", "--from", "1987-01-01")
    assert (rc, out) == (1, "")
    assert err == ("perfdb report trend: no data of hourly CPU between 1987-01-01 and the end; "
                   "the warehouse holds 1986-01-01 to 1986-05-11\n")


def test_unknown_systems_are_named_with_the_known_ones(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-08", "--system", "TAHITI")
    assert (rc, out) == (1, "")
    assert err == ("perfdb report threshold: unknown system 'TAHITI'; "
                   "known: SYSA, VSE1, \\BANCA, \\OTHER, \\POS, aix01, web01\n")
    rc, _, err = run_cli(capsys, home, "trend", "--system", "nope")
    assert rc == 1 and "unknown system 'nope'; known: SYSA" in err


def test_nonstop_names_need_no_backslash_and_no_capitals(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-08", "--system", "banca", "--format", "json")
    assert rc == 0, err
    assert {row["system_name"] for row in json.loads(out)} == {"\\BANCA"}
    rc, out, _ = run_cli(capsys, home, "trend", "--system", "POS", "--format", "json")
    assert rc == 0 and len(json.loads(out)) == 6


def test_global_json_means_format_json_for_reports(capsys, home):
    rc = cli.main(["--home", str(home.root), "--json", "report", "trend", "--from", "1986-01-02", "--to", "1986-03-01"])
    assert rc == 0
    assert [row["loadid"] for row in json.loads(capsys.readouterr().out)] == ["DT00211", "DT00310", "DT00411", "DT06011"]


def _forecast(home: Home) -> None:
    """Three resources of marts.fct_capacity_forecast (one above its threshold now, one crossing later, a
    NonStop TXP), with the grade bands of their thresholds (marts.rpt_capacity_grade_band: 70-80 %, TXP 85 %)."""
    columns = ["resource_type", "system_name", "resource_name", "shift", "unit", "servers", "cpu_type", "history_points",
               "current_peak_pct", "threshold_cpu_type", "threshold_pct", "threshold_upper_pct",
               "growth_pct_points_per_30_days", "crossing_date", "crossing_date_early", "crossing_date_late", "status",
               "status_detail"]
    forecast = pa.Table.from_pylist([dict(zip(columns, row)) for row in [
        ("processor_pool", "SYSB", "all processors", None, "pct", 3, None, 44, 77.5, "*", 70.0, 80.0, 7.64, dt.date(1986, 5, 8),
         None, None, "above threshold", "the trend is already at 78.2 %, above the 70.0 % threshold"),
        ("cpu", "\\BANCA", "CPU 03", None, "pct", 1, "8", 44, 65.91, "*", 70.0, 80.0, 3.02, dt.date(1986, 7, 28),
         dt.date(1986, 6, 20), dt.date(1986, 9, 30), "crosses", "crosses the 70.0 % threshold on 1986-07-28"),
        ("cpu", "\\BANCA", "CPU 04", None, "pct", 1, "2", 44, 70.0, "2", 85.0, 85.0, 0.0, None, None, None,
         "no significant growth", "growth 0.0 points per 30 days"),
    ]])
    bands = pa.Table.from_pylist([
        {"resource_type": resource, "cpu_type": cpu_type, "grade": grade, "grade_order": order, "from_pct": low, "to_pct": high}
        for resource, cpu_type, lower, upper in [("processor_pool", "*", 70.0, 80.0), ("cpu", "*", 70.0, 80.0), ("cpu", "2", 85.0, 85.0)]
        for order, (grade, low, high) in enumerate([("within capacity", None, lower), ("warning", lower, upper),
                                                     ("critical", upper, 100.0), ("saturated", 100.0, None)], 1)
        if low is None or high is None or low < high
    ])
    con = duckdb.connect(str(home.serving_path))
    con.execute("create table marts.fct_capacity_forecast as select * from forecast")
    con.execute("create table marts.rpt_capacity_grade_band as select * from bands")
    con.close()


def test_capacity_table_fits_a_terminal_and_marks_what_crossed(capsys, home):
    _forecast(home)
    rc, out, err = run_cli(capsys, home, "capacity")
    assert rc == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 120
    assert lines[0].split() == ["resource", "system", "name", "peak", "%", "limit", "/30d", "crosses", "status",
                                "+10%", "grade"]
    assert lines[2].split() == ["processor_pool", "SYSB", "all", "processors", "77.5*", "70-80", "+7.6",
                                "1986-05-08", "above", "threshold", "85.2*", "critical"]  # 85.25 % > 80 %
    assert lines[3].split() == ["cpu", "\\BANCA", "CPU", "03", "65.9", "70-80", "+3.0", "1986-07-28", "crosses",
                                "72.5*", "warning"]  # +10 % takes it over 70 %, under 80 %
    # the TXP's 77 % is within its available capacity (85 %, seed 001 L3194), where a generic CPU's is a warning
    assert lines[4].split() == ["cpu", "\\BANCA", "CPU", "04", "70.0", "85", "+0.0", "no", "significant", "growth",
                                "77.0", "within", "capacity"]
    rc, out, _ = run_cli(capsys, home, "capacity", "--format", "csv")
    header, first, *_ = out.splitlines()
    assert len(header.split(",")) == 23  # every column, the bounds, the band and the detail included
    assert ",10.0,85.25," in first  # the what-if growth is 10.0, not 10.000000000000002
    assert first.endswith(",critical")


def test_machine_formats_carry_the_reports_precision(capsys, home):
    con = duckdb.connect(str(home.serving_path))
    con.execute("update marts.rpt_cpu_trend set busy_pct_max = 35.43719 where loadid = 'DT00111'")
    con.close()
    rc, out, _ = run_cli(capsys, home, "trend", "--from", "1986-01-01", "--to", "1986-01-01", "--format", "json")
    assert rc == 0 and json.loads(out)[0]["busy_pct_max"] == 35.4
