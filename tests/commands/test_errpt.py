"""AIX errpt -a (seed 002 L808): each error log entry's header fields and description, keyed by its sequence
number; the demo's log (the generator's entries in errpt's own layout, newest first, a dashes line before each);
a line before the first entry and an entry without its sequence number kept unparsed; no entry at all rejected."""

from __future__ import annotations

import datetime as dt

from command_helpers import GOLDEN, parse_file

from ingest.generate.commands import AixHost

START = dt.date(2026, 1, 5)


def texts(rows) -> dict[tuple[str, str], str]:
    return {(r["entity"], r["counter_name"]): r["text_value"] for r in rows}


def test_a_real_entry_of_class_h_gives_its_header_and_description():
    _, ctx, rows, unparsed = parse_file(GOLDEN / "aix" / "unixmantra__errpt-a__20130930T160000.out")
    assert not ctx.rejects and unparsed == []
    got = texts(rows)
    assert {k: got[k] for k in [("25", "label"), ("25", "resource_name"), ("25", "location"), ("25", "description")]} == {
        ("25", "label"): "DISK_ERR4", ("25", "resource_name"): "hdisk0", ("25", "location"): "P1/Z1-A0",
        ("25", "description"): "DISK OPERATION ERROR"}


def test_the_demo_log_lists_every_entry_once_newest_first(tmp_path):
    f = tmp_path / "aix01__errpt-a__20260215T220000.out"
    f.write_text(AixHost.errpt(dt.datetime(2026, 2, 15, 22), START))
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and unparsed == []
    got = texts(rows)
    assert [(seq, got[seq, "label"], got[seq, "resource_name"], got[seq, "date_time"]) for seq in ("4", "3", "2", "1")] == [
        ("4", "LAN8031", "SYSXDLCT", "Sun Feb 15 13:47:00 CET 2026"),
        ("3", "LAN8031", "SYSXDLCT", "Sun Feb 15 13:19:00 CET 2026"),
        ("2", "LAN8031", "SYSXDLCT", "Sun Feb 15 13:04:00 CET 2026"),
        ("1", "ERRLOG_ON", "errdemon", "Mon Jan  5 00:01:00 CET 2026")]
    assert (got["4", "class"], got["4", "type"], got["4", "description"]) == ("S", "TEMP", "SOFTWARE PROGRAM ERROR")
    # the day before, only the error daemon's start is logged
    f.write_text(AixHost.errpt(dt.datetime(2026, 2, 14, 22), START))
    assert {r["entity"] for r in parse_file(f)[2]} == {"1"}


def test_a_stray_line_and_an_entry_without_sequence_number_are_kept_and_the_rest_loads(tmp_path):
    entry = AixHost.errpt(dt.datetime(2026, 1, 5, 22), START)
    f = tmp_path / "aix01__errpt-a__20260105T220000.out"
    f.write_text("errpt: the error log is being rewritten\n" + entry.replace("Sequence Number: 1\n", "") + entry)
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and {r["entity"] for r in rows} == {"1"}
    assert [(u["line_number"], u["reason"]) for u in unparsed] == [
        (1, "expected an error log entry's 'LABEL:' line"), (3, "error log entry without its 'Sequence Number:' line")]


def test_a_capture_without_an_entry_is_rejected(tmp_path):
    f = tmp_path / "aix01__errpt-a__20260105T220000.out"
    f.write_text("LABEL:\t\tERRLOG_ON\nIDENTIFIER:\t9DBCFDEE\n")  # cut before its sequence number
    _, ctx, rows, _ = parse_file(f)
    assert rows == [] and len(ctx.rejects) == 1
