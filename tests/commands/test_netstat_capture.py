"""Captures in files: time and host, console logs holding many captures, mixed and bad captures."""

from __future__ import annotations

import datetime as dt

import duckdb
import pytest

from command_helpers import GOLDEN, parse_file
from ingest import pipeline
from ingest.formats import capture
from ingest.formats.base import FormatError
from ingest.generate.commands import netstat_s_log
from ingest.home import Home

LINUX = GOLDEN / "linux"
REAL_S = (LINUX / "devbox__netstat-s__20261121T063246.out").read_text()
REAL_I = (LINUX / "devbox__netstat-i__20261121T063246.out").read_text()


def test_time_and_host_from_the_capture_header_with_its_utc_offset(tmp_path):
    f = tmp_path / "collector.log"
    f.write_text("# captured: 2026-01-05T10:00:00+01:00 host: web01\n" + REAL_S)
    _, ctx, rows, _ = parse_file(f)
    assert {(r["host"], r["captured_at"], r["utc_offset_s"]) for r in rows} == {
        ("web01", dt.datetime(2026, 1, 5, 10, 0), 3600)
    }
    assert ctx.records_read == 1 and len(rows) == 54  # one capture, 54 counters


def test_time_and_host_from_the_file_name():
    _, _, rows, _ = parse_file(LINUX / "devbox__netstat-s__20261121T063246.out")
    assert {(r["host"], r["captured_at"], r["utc_offset_s"]) for r in rows} == {
        ("devbox", dt.datetime(2026, 11, 21, 6, 32, 46), None)
    }


def test_a_file_with_no_time_is_rejected_saying_how_to_fix_it(tmp_path):
    f = tmp_path / "netstat.txt"
    f.write_text(REAL_S)
    with pytest.raises(FormatError) as e:
        parse_file(f)
    assert "no capture time and no host" in str(e.value)
    assert "# captured: 2026-01-05T10:00:00 host: NAME" in str(e.value)
    assert "<host>__<command>__<YYYYmmddTHHMMSS>.txt" in str(e.value)


def test_a_log_of_many_captures_one_record_each(tmp_path):
    _, ctx, rows, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    stamps = sorted({(r["record_ordinal"], r["captured_at"]) for r in rows})
    assert stamps == [
        (0, dt.datetime(2026, 11, 21, 6, 31, 26)),
        (1, dt.datetime(2026, 11, 21, 6, 31, 37)),
        (2, dt.datetime(2026, 11, 21, 6, 31, 55)),
        (3, dt.datetime(2026, 11, 21, 6, 32, 45)),
    ]
    # four captures of 53, 53, 53 and 54 counters (a TcpExt counter became non-zero in the last)
    assert [sum(r["record_ordinal"] == k for r in rows) for k in range(4)] == [53, 53, 53, 54]
    assert ctx.records_read == 4 and len(rows) == 213 and not ctx.rejects


def test_reading_in_small_blocks_gives_the_same_rows(tmp_path, monkeypatch):
    _, _, whole, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    monkeypatch.setattr(capture, "READ_BLOCK", 97)  # blocks end inside lines and inside headers
    _, _, pieces, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    assert pieces == whole


def test_captures_of_other_commands_in_one_log_go_to_their_parser(tmp_path):
    f = tmp_path / "mixed.log"
    f.write_text(
        "# captured: 2026-01-05T10:00:00 host: web01\n" + REAL_S
        + "# captured: 2026-01-05T10:00:01 host: web01\n" + REAL_I
    )
    _, ctx, rows, _ = parse_file(f)
    by_capture = {(r["record_ordinal"], r["source_format"], r["command"]) for r in rows}
    assert by_capture == {(0, "netstat.linux_s", "netstat -s"), (1, "netstat.linux_i", "netstat -i")}
    assert ctx.records_read == 2 and len(rows) == 54 + 20


def test_unknown_output_and_a_bad_header_are_rejected_with_their_line_the_rest_loads(tmp_path):
    f = tmp_path / "mixed.log"
    f.write_text(
        "# captured: 2026-01-05T10:00:00 host: web01\n" + REAL_S            # lines 1-66
        + "# captured: 2026-01-05T10:05:00 host: web01\n"                    # line 67
        + "Active Internet connections (w/o servers)\nProto Recv-Q Send-Q\n"  # netstat without -s
        + "# captured: yesterday host: web01\n" + REAL_S                      # line 70
        + "# captured: 2026-01-05T10:15:00 host: web01\n" + REAL_S
    )
    _, ctx, rows, _ = parse_file(f)
    assert sorted({r["record_ordinal"] for r in rows}) == [0, 3]
    assert [(r.line, r.record_ordinal) for r in ctx.rejects] == [(67, 1), (70, 2)]
    assert "unknown command output" in ctx.rejects[0].reason
    assert "'yesterday' is not an ISO 8601 time" in ctx.rejects[1].reason
    assert ctx.records_read == 4 and len(rows) == 54 + 54  # two loaded, two rejected


def test_loader_accounting_unparsed_lines_rejects_and_idempotent_reingest(tmp_path):
    home = Home(tmp_path / "home").create()
    f = home.landing / "web01.log"
    garbage = REAL_S.replace("Tcp:\n", "Tcp:\nsegments: lots\n", 1)
    f.write_text(
        "# captured: 2026-01-05T10:00:00 host: web01\n" + REAL_S
        + "# captured: 2026-01-05T10:05:00 host: web01\n" + garbage
        + "# captured: yesterday host: web01\n" + REAL_S
    )
    (first,) = pipeline.ingest_paths(home, [f])
    (again,) = pipeline.ingest_paths(home, [f])
    # 4 records read = 2 captures loaded + 1 capture rejected + 1 line skipped (kept in command_unparsed_lines);
    # rows are 2 captures + 54 labels + 2 x 54 values
    assert (first.status, first.records_read, first.records_loaded, first.rows_loaded, first.rows_rejected,
            first.rows_skipped) == ("loaded_with_rejects", 4, 2, 2 + 54 + 108, 1, 1)
    assert again.status == "duplicate"
    con = duckdb.connect(str(home.db_path), read_only=True)
    assert con.execute("select count(*) from raw.command_values").fetchone()[0] == 108
    assert con.execute("select records_read, records_loaded, rows_skipped from raw.ingest_files").fetchall() == [(4, 2, 1)]
    lines = f.read_text().splitlines()
    assert con.execute("select record_ordinal, line_number, line_text, reason from raw.command_unparsed_lines").fetchall() == [
        (1, lines.index("segments: lots") + 1, "segments: lots",
         "expected a section title such as 'Tcp:' at column 0")]
    line, reason, raw = con.execute("select line_number, reason, raw_bytes from raw.rejects").fetchone()
    assert line == lines.index("# captured: yesterday host: web01") + 1 == 134
    assert "capture header time 'yesterday' is not an ISO 8601 time" in reason
    assert raw.decode().startswith("# captured: yesterday host: web01\nIp:\n")  # the whole capture, for diagnosis


def test_a_file_whose_every_capture_was_rejected_is_rejected(tmp_path):
    home = Home(tmp_path / "home").create()
    f = home.landing / "web01.log"
    f.write_text("# captured: yesterday host: web01\n" + REAL_S + "# captured: 2026-01-05T10:05:00 host: web01\n"
                 + "Active Internet connections (w/o servers)\n")
    (result,) = pipeline.ingest_paths(home, [f])
    assert (result.status, result.ok, result.records_read, result.records_loaded, result.rows_rejected) == (
        "rejected", False, 2, 0, 2)
    con = duckdb.connect(str(home.db_path), read_only=True)
    assert con.execute("select status from raw.ingest_files").fetchall() == [("rejected",)]
    assert con.execute("select count(*) from raw.rejects").fetchone() == (2,)


def test_a_long_log_lands_as_captures_labels_and_values_that_join_back_to_the_text(tmp_path):
    home = Home(tmp_path / "home").create()
    # 3,000 captures: about 5.4 MB, so two read blocks, several batches and the bulk path
    log = netstat_s_log(home.landing / "web01_netstat-s.log", 3000, seed=5)
    (result,) = pipeline.ingest_paths(home, [log])
    assert (result.status, result.records_read, result.records_loaded) == ("loaded", 3000, 3000)
    con = duckdb.connect(str(home.db_path), read_only=True)
    captures, values, counted = con.execute(
        "select count(*), (select count(*) from raw.command_values), sum(counter_count) from raw.command_captures"
    ).fetchone()
    labels, distinct_labels, first_capture = con.execute(
        "select count(*), count(distinct (section, counter_name)), min(record_ordinal) from raw.command_counter_labels"
    ).fetchone()
    assert (captures, values, counted) == (3000, 3000 * 49, 3000 * 49)  # the generator prints 49 counters
    assert (labels, distinct_labels, first_capture) == (49, 49, 0)  # each counter written once, with capture 0
    assert result.rows_loaded == captures + labels + values
    lines = log.read_text().splitlines()
    sample = con.execute(
        "select c.record_ordinal, c.line_number, c.captured_at, v.line_number, l.counter, l.counter_name, v.value "
        "from raw.command_values v join raw.command_captures c using (source_file_id, record_ordinal) "
        "join raw.command_counter_labels l using (source_file_id, label_id) "
        "where c.record_ordinal in (0, 1337, 2999) order by v.record_ordinal, v.line_number"
    ).fetchall()
    con.close()
    assert len(sample) == 3 * 49
    for ordinal, capture_line, captured_at, line, label, name, value in sample:
        assert lines[capture_line - 1] == f"# captured: {captured_at:%Y-%m-%dT%H:%M:%S} host: web01"
        assert captured_at == dt.datetime(2026, 1, 5) + dt.timedelta(minutes=ordinal)
        printed = lines[line - 1].strip()
        assert printed.replace(f"{int(value)}", "#", 1) == label.split("histogram: ")[-1], (name, printed)


def test_windows_line_ends_read_the_same(tmp_path):
    f = tmp_path / "netstat_s_crlf.log"
    f.write_bytes((LINUX / "devbox_netstat_s_log.out").read_bytes().replace(b"\n", b"\r\n"))
    _, ctx, rows, _ = parse_file(f)
    _, _, expected, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    assert not ctx.rejects and rows == expected


def test_a_capture_not_after_the_previous_one_of_its_host_and_command_is_rejected_at_its_line(tmp_path):
    """A collector log of netstat -s and -i: both at one time is no repeat (each command's counters are
    differenced on their own); netstat -i at 10:05+01:00 again, at 09:05+00:00 (the same instant) and at 10:00
    after 10:05 (a clock set back) are rejected at their lines, each read on its own; 09:10+00:00 then loads."""
    parts = [("2026-01-05T10:00:00+01:00", REAL_S), ("2026-01-05T10:00:00+01:00", REAL_I),
             ("2026-01-05T10:05:00+01:00", REAL_I), ("2026-01-05T10:05:00+01:00", REAL_I),
             ("2026-01-05T09:05:00+00:00", REAL_I), ("2026-01-05T10:00:00+01:00", REAL_I),
             ("2026-01-05T09:10:00+00:00", REAL_I)]
    f = tmp_path / "web01.log"
    f.write_text("".join(f"# captured: {t} host: web01\n{text}" for t, text in parts))
    lines = f.read_text().splitlines()
    header_lines = [at + 1 for at, line in enumerate(lines) if line.startswith("# captured:")]
    parsed = parse_file(f)
    assert sorted({(r["record_ordinal"], r["command"], r["captured_at"], r["utc_offset_s"]) for r in parsed.rows}) == [
        (0, "netstat -s", dt.datetime(2026, 1, 5, 10, 0), 3600), (1, "netstat -i", dt.datetime(2026, 1, 5, 10, 0), 3600),
        (2, "netstat -i", dt.datetime(2026, 1, 5, 10, 5), 3600), (6, "netstat -i", dt.datetime(2026, 1, 5, 9, 10), 0)]
    previous = f"2026-01-05 10:05:00+01:00 (line {header_lines[2]})"
    assert [(r.record_ordinal, r.line, r.reason) for r in parsed.ctx.rejects] == [
        (k, header_lines[k], f"capture {k} (line {header_lines[k]}): line {header_lines[k]}: capture time {stamp} "
                             f"is not after the previous capture's {previous}: a repeated capture or a clock set back "
                             "is not differenced")
        for k, stamp in ((3, "2026-01-05 10:05:00+01:00"), (4, "2026-01-05 09:05:00+00:00"),
                         (5, "2026-01-05 10:00:00+01:00"))]
