"""Plausibility at ingest: implausible records are rejects with their position, not rows; a re-sent file that
was rejected is tried again; a file with no records is rejected like an empty one."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from ingest import cli, pipeline
from ingest.home import Home

CSV_HEADER = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps\n"
JULIAN_1970 = 210866760000000000  # Julian timestamp (µs) of 1970-01-01 00:00
HOUR_US = 3_600_000_000


def _jts(unix_s: int) -> int:
    return JULIAN_1970 + unix_s * 1_000_000


def _row(cpu: int, start_unix_s: int, busy: int | str = 1_000) -> str:
    start = _jts(start_unix_s)
    return f"\\PROD1,{cpu},DT00510,{start},{start + HOUR_US},{HOUR_US},0,{busy},1800,7\n"


JAN_5_2026 = 1767607200  # 2026-01-05 10:00 UTC


def _query(home: Home, sql: str) -> list[tuple]:
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_implausible_measure_records_are_rejects_with_their_position(tmp_path):
    home = Home(tmp_path / "home").create()
    f = home.landing / "cpu.csv"
    f.write_text(
        CSV_HEADER
        + _row(0, JAN_5_2026)
        + _row(1, JAN_5_2026, busy=-5)  # a cumulative counter cannot be negative
        + _row(2, -3600)  # 1969-12-31 23:00: a zero or garbled clock
        + _row(3, JAN_5_2026 + 400 * 86400)  # 2027-02: a year after the file was written
        + _row(4, JAN_5_2026)
    )
    os.utime(f, (JAN_5_2026 + 7200, JAN_5_2026 + 7200))  # the file was written at 12:00 that day
    (res,) = pipeline.ingest_paths(home, [f])
    assert (res.status, res.records_read, res.records_loaded, res.rows_loaded, res.rows_rejected) == (
        "loaded_with_rejects", 5, 2, 2, 3)
    assert _query(home, "select cpu_num from raw.measure_cpu order by 1") == [(0,), (4,)]
    assert _query(home, "select record_ordinal, reason from raw.rejects order by 1") == [
        (1, "implausible in raw.measure_cpu: cpu_busy_time -5 is negative (a cumulative counter)"),
        (2, "implausible in raw.measure_cpu: from_timestamp 1969-12-31 23:00:00 is before 1970-01-02"),
        (3, "implausible in raw.measure_cpu: from_timestamp 2027-02-09 10:00:00 is more than a day after the file "
            "was written"),
    ]
    # the CSV's line (a MEASURE table has no line column: the parser tells where a record ordinal is)
    assert res.messages[0] == f"{f}: line 3: implausible in raw.measure_cpu: cpu_busy_time -5 is negative (a cumulative counter)"
    assert _query(home, "select line_number from raw.rejects order by record_ordinal") == [(3,), (4,), (5,)]
    raw = _query(home, "select raw_bytes from raw.rejects where record_ordinal = 1")[0][0]
    assert b"cpu_busy_time=-5" in raw and b"system_name=\\PROD1" in raw


def test_a_rejected_capture_takes_its_values_along_and_keeps_shared_labels(tmp_path):
    real_s = (Path(__file__).parents[1] / "golden/commands/linux/devbox__netstat-s__20261121T063246.out").read_text()
    home = Home(tmp_path / "home").create()
    f = home.landing / "web01.log"
    f.write_text("# captured: 2026-01-05T10:00:00 host: web01\n" + real_s
                 + "# captured: 2099-01-05T10:05:00 host: web01\n" + real_s)
    os.utime(f, (JAN_5_2026 + 7200, JAN_5_2026 + 7200))
    (res,) = pipeline.ingest_paths(home, [f])
    assert (res.status, res.records_read, res.records_loaded, res.rows_rejected) == ("loaded_with_rejects", 2, 1, 1)
    assert res.rows_loaded == 1 + 54 + 54  # one capture, the file's 54 labels, the loaded capture's 54 values
    assert _query(home, "select distinct record_ordinal from raw.command_values") == [(0,)]
    assert _query(home, "select count(*) from raw.command_counter_labels") == [(54,)]
    (line, reason), = _query(home, "select line_number, reason from raw.rejects")
    assert line == 1 + real_s.count("\n") + 1  # the capture's own header line
    assert reason == ("implausible in raw.command_captures: captured_at 2099-01-05 10:05:00 is more than a day after "
                      "the file was written")


def test_a_header_alone_is_no_records_and_exits_1(tmp_path, capsys):
    home = tmp_path / "home"
    header_only = tmp_path / "cpu.csv"
    header_only.write_text(CSV_HEADER)
    assert cli.main(["--home", str(home), "ingest", str(header_only)]) == 1
    assert "no records: the file holds no record of its format" in capsys.readouterr().err


def test_a_re_sent_rejected_file_is_tried_again_never_already_ingested(tmp_path, capsys):
    home = Home(tmp_path / "home").create()
    f = home.landing / "cpu.csv"
    f.write_text(CSV_HEADER + _row(0, JAN_5_2026, busy=-1))
    for _attempt in range(2):
        assert cli.main(["--home", str(home.root), "ingest", str(f)]) == 1
        assert "already ingested" not in capsys.readouterr().err
    assert _query(home, "select status, rows_rejected from raw.ingest_files") == [("rejected", 1)]
    assert _query(home, "select count(*) from raw.rejects") == [(1,)]


def test_a_re_sent_file_with_rejects_says_so_and_exits_1(tmp_path, capsys):
    home = Home(tmp_path / "home").create()
    f = home.landing / "cpu.csv"
    f.write_text(CSV_HEADER + _row(0, JAN_5_2026) + _row(1, JAN_5_2026, busy=-1))
    good = home.landing / "good.csv"
    good.write_text(CSV_HEADER + _row(2, JAN_5_2026))
    assert cli.main(["--home", str(home.root), "ingest", str(f), str(good)]) == 1
    capsys.readouterr()
    assert cli.main(["--home", str(home.root), "ingest", str(good)]) == 0  # a clean duplicate is no failure
    assert cli.main(["--home", str(home.root), "ingest", str(f)]) == 1
    err = capsys.readouterr().err
    assert "already ingested (same sha256) with 1 records rejected (see raw.rejects)" in err
    assert _query(home, "select count(*) from raw.measure_cpu") == [(2,)]


def test_a_command_value_beyond_a_double_costs_its_line_not_its_capture(tmp_path):
    """Capture time and host from the file name; a counter printed with 400 digits is kept as an unreadable
    line (skipped, with its line number and why), the capture's other 53 values load."""
    real_s = (Path(__file__).parents[1] / "golden/commands/linux/devbox__netstat-s__20261121T063246.out").read_text()
    lines = real_s.splitlines(keepends=True)
    assert lines[5] == "    54681 incoming packets delivered\n"
    home = Home(tmp_path / "home").create()
    f = home.landing / "devbox__netstat-s__20261121T063246.out"
    f.write_text("".join(lines[:5] + ["    " + "9" * 400 + " incoming packets delivered\n"] + lines[6:]))
    (res,) = pipeline.ingest_paths(home, [f])
    assert (res.status, res.records_read, res.records_loaded, res.rows_skipped, res.rows_rejected) == ("loaded", 2, 1, 1, 0)
    assert _query(home, "select count(*) from raw.command_values") == [(53,)]
    assert _query(home, "select line_number, reason from raw.command_unparsed_lines") == [
        (6, "'# incoming packets delivered': expected a number a double can hold, found one beyond its range")]


def test_a_file_whose_every_capture_is_implausible_keeps_nothing_and_is_tried_again(tmp_path):
    real_s = (Path(__file__).parents[1] / "golden/commands/linux/devbox__netstat-s__20261121T063246.out").read_text()
    home = Home(tmp_path / "home").create()
    f = home.landing / "web01.log"
    f.write_text("# captured: 2099-01-05T10:05:00 host: web01\n" + real_s)
    for _attempt in range(2):
        (res,) = pipeline.ingest_paths(home, [f])
        assert (res.status, res.ok, res.records_read, res.rows_loaded, res.rows_rejected) == ("rejected", False, 1, 0, 1)
        assert _query(home, "select count(*) from raw.command_counter_labels") == [(0,)]
        assert _query(home, "select count(*), count(distinct file_id) from raw.rejects") == [(1, 1)]
