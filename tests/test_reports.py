"""`perfdb report threshold` and `perfdb report trend`: ENFORM layouts, masks and machine formats.

The serving warehouse here holds mart rows that carry the values printed in King 1986 (Tandem Systems
Review, Dec 1986), Figures 1 and 2. Those values cannot come out of one consistent data set: in some
rows, max - delt > avg. So the rows are written straight into the marts. tests/test_dbt_measure.py
builds the marts from raw counters and runs the same commands on the result.
"""

from __future__ import annotations

import datetime as dt
import json

import duckdb
import pyarrow as pa
import pytest

from ingest import cli
from ingest.reports import _enform_format as enform_format
from ingest.reports import threshold
from ingest.warehouse import Home

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
VIOLATION_COLUMNS = [
    "system_name", "shift_date", "shift", "shift_name", "os_version", "cpu_num", "time_of_day",
    "qlen_max", "qlen_spread_across_hours", "swaps_per_s_max", "busy_pct_max", "busy_pct_spread_across_hours",
    "ibusy_pct_max", "qlen_avg", "swaps_per_s_avg", "busy_pct_avg", "ibusy_pct_avg", "n_hours",
    *[f"crossed_{r}" for r in RULES], "rules_crossed",
]

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
            [r for r, c in zip(RULES, crossed) if c],
        ])))
    # another day and system: never printed for 1986-05-08
    rows.append({**rows[0], "shift_date": dt.date(1986, 5, 9), "system_name": "\\OTHER"})
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
    trend = pa.Table.from_pylist(_trend_rows())
    con.execute("create table marts.rpt_threshold_violations as select * from violations")
    con.execute("create table marts.rpt_cpu_trend as select * from trend")
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


def test_threshold_report_reproduces_figure_1(capsys, home):
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
    assert lines[14:] == [""]  # the other day's row is not printed


def test_threshold_report_json_has_the_mart_columns(capsys, home):
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-08", "--format", "json")
    assert rc == 0
    rows = json.loads(out)
    assert [list(r) for r in rows] == [VIOLATION_COLUMNS] * 5
    assert [r["cpu_num"] for r in rows] == [0, 1, 2, 3, 4]
    assert rows[0]["system_name"] == "\\BANCA"
    assert rows[0]["shift_date"] == "1986-05-08"
    assert rows[0]["time_of_day"] == "11:00:00"
    assert rows[4]["busy_pct_max"] == 85.3
    # the Figure 9 rules each row trips (the 11:00 QLEN 2.0 is not > 2; no row trips interrupt busy)
    assert [r["rules_crossed"] for r in rows] == [
        ["qlen_spread_across_hours"],
        ["qlen_max", "qlen_spread_across_hours"],
        ["qlen_max", "qlen_spread_across_hours", "swaps_per_s_max"],
        ["qlen_max", "qlen_spread_across_hours", "busy_pct_max", "busy_pct_spread_across_hours"],
        ["qlen_max", "qlen_spread_across_hours", "swaps_per_s_max", "busy_pct_max", "busy_pct_spread_across_hours"],
    ]


def test_threshold_report_csv_joins_the_rule_list(capsys, home):
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-08", "--format", "csv")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == ",".join(VIOLATION_COLUMNS)
    assert len(lines) == 6
    assert lines[2].endswith(",qlen_max;qlen_spread_across_hours")


def test_threshold_report_of_a_quiet_day_prints_nothing(capsys, home):
    rc, out, err = run_cli(capsys, home, "threshold", "--date", "1986-05-10")
    assert (rc, out) == (0, "")
    assert "no processor crossed a threshold on 1986-05-10" in err
    rc, out, _ = run_cli(capsys, home, "threshold", "--date", "1986-05-10", "--format", "json")
    assert json.loads(out) == []


def test_busiest_day_is_the_day_with_most_violations(capsys, home):
    assert threshold.print_busiest_day(home, fmt="table") == 0
    out = capsys.readouterr().out
    assert " DATE: 05/08/86" in out
    assert out.count("THRESHOLD REPORT") == 1


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
