"""A collector log whose first capture arrives damaged: that capture is one reject at its line, and every
other capture loads exactly as it does in a file without it (docs/commands.md, "A line the parser does
not understand").

A file's format is sniffed from its first ``SNIFF_BYTES``; a log is recognised by the first capture in them
whose command a parser recognises, so line noise, a shell's error in place of the output, a capture cut
after its first line or a header with nothing after it no longer costs the file its good captures. A log
whose first ``SNIFF_BYTES`` hold no recognisable capture is still rejected whole, as unrecognised.
"""

from __future__ import annotations

import random

import duckdb
import pyarrow.parquet as pq
import pytest

from command_helpers import GOLDEN
from ingest import pipeline
from ingest.formats.base import SNIFF_BYTES
from ingest.formats.capture import head_captures
from ingest.formats.command_parser import command_parsers
from ingest.home import Home
from ingest.lake import job
from ingest.lake.layout import Lake


def _captures(name: str) -> list[bytes]:
    """The captures of a golden log, each from its '# captured:' line on."""
    return [text.encode() for text in head_captures((GOLDEN / name).read_bytes())]


# three Linux netstat -s captures after the first, then an AIX netstat -v one (a mixed collector log)
NETSTAT_LOG = _captures("linux/devbox_netstat_s_log.out") + _captures("aix/snapper_netstat_v.out")
# TCP/IP for VSE console: QUERY STATS twice, QUERY ISTATS, QUERY IPSTATS
VSE_LOG = _captures("vse/vse1_console.out")
UNKNOWN = ("capture at line 1: unknown command output: the text matches none of the command formats "
           f"({', '.join(p.format for p in command_parsers())})")
EMPTY = "capture at line 1: empty capture: expected a command's output after its '# captured:' line"


def _line_noise(lines: int, width: int = 60) -> bytes:
    """A burst of random bytes on a serial line, ``lines`` lines of them (seeded: the same every run)."""
    rng = random.Random(20260105)
    byte = [b for b in range(256) if b not in b"\r\n"]
    return b"".join(bytes(rng.choice(byte) for _ in range(width)) + b"\n" for _ in range(lines))


def _header(capture: bytes) -> bytes:
    return capture[: capture.index(b"\n") + 1]


DAMAGE = {
    # more lines than a parser looks at to tell a command (CommandParser.sniff_lines)
    "line noise": lambda capture: _header(capture) + _line_noise(50),
    "shell error": lambda capture: _header(capture) + b"bash: netstat: command not found\n",
    "cut after its first line": lambda capture: b"".join(capture.splitlines(keepends=True)[:2]),
    "header alone": _header,
}


def _ingest(home: Home, name: str, captures: list[bytes], **options):
    path = home.landing / name
    path.write_bytes(b"".join(captures))
    (result,) = pipeline.ingest_paths(home, [path], **options)
    return result


def _stored(con, name: str) -> dict[str, list]:
    """A file's rows as the warehouse holds them, each line as an offset from its capture's '# captured:' line
    (so that a file with another first capture compares): captures, values with their labels, unparsed lines."""
    where = "source_file_id = (select file_id from raw.ingest_files where file_name = ?)"
    captures = f"(select * from raw.command_captures where {where})"
    return {
        "captures": con.execute(f"select host, command, source_format, captured_at, utc_offset_s, counter_count "
                                f"from {captures} order by record_ordinal", [name]).fetchall(),
        "values": con.execute(
            f"select c.captured_at, c.command, v.line_number - c.line_number, l.section, l.entity, l.counter, "
            f"l.counter_name, l.unit, l.kind, v.value, v.text_value from {captures} c "
            "join raw.command_values v using (source_file_id, record_ordinal) "
            "join raw.command_counter_labels l using (source_file_id, label_id) order by all", [name]).fetchall(),
        "unparsed": con.execute(
            f"select c.captured_at, u.line_number - c.line_number, u.line_text, u.reason from {captures} c "
            "join raw.command_unparsed_lines u using (source_file_id, record_ordinal) order by all", [name]).fetchall(),
    }


def _expected_reject(log: list[bytes], damage: str) -> tuple[int, str]:
    """(line, reason) of the damaged first capture's reject."""
    if damage == "header alone":
        return 1, EMPTY
    if log is VSE_LOG and damage == "cut after its first line":  # the QUERY STATS echo: the command is known
        return 2, "capture 0 (line 1): line 2: no counters found: expected QUERY STATS output"
    return 1, UNKNOWN


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("log", [NETSTAT_LOG, VSE_LOG], ids=["netstat", "vse"])
def test_a_damaged_first_capture_is_one_reject_and_the_others_load_as_alone(tmp_path, log, damage):
    home = Home(tmp_path / "home").create()
    damaged = [DAMAGE[damage](log[0]), *log[1:]]
    result = _ingest(home, "collector.log", damaged)
    alone = _ingest(home, "alone.log", log[1:])
    good = len(log) - 1
    assert (alone.status, alone.records_loaded, alone.rows_rejected) == ("loaded", good, 0)
    assert (result.status, result.format, result.records_read, result.records_loaded, result.rows_rejected,
            result.rows_skipped) == ("loaded_with_rejects", alone.format, good + 1 + alone.rows_skipped, good, 1,
                                     alone.rows_skipped)
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        rejects = con.execute("select line_number, record_ordinal, reason, raw_bytes from raw.rejects").fetchall()
        assert con.execute("select status, records_read, records_loaded, rows_rejected from raw.ingest_files "
                           "where file_name = 'collector.log'").fetchall() == [
            ("loaded_with_rejects", good + 1 + alone.rows_skipped, good, 1)]
        got, expected = _stored(con, "collector.log"), _stored(con, "alone.log")
    line, reason = _expected_reject(log, damage)
    assert [r[:3] for r in rejects] == [(line, 0, reason)]
    # the capture's text as read (a byte that is not UTF-8 read as U+FFFD), for diagnosis
    assert rejects[0][3] == damaged[0][len(_header(log[0])):].decode("utf-8", "replace").encode()
    assert got == expected and len(got["captures"]) == good


def test_the_first_recognisable_capture_decides_the_format_not_the_parsers_priority(tmp_path):
    # QUERY STATS (priority 45) before netstat -s (40): the log is VSE's, each capture read by its own parser
    home = Home(tmp_path / "home").create()
    result = _ingest(home, "collector.log", [DAMAGE["shell error"](NETSTAT_LOG[0]), VSE_LOG[0], NETSTAT_LOG[1]])
    assert (result.status, result.format, result.records_loaded, result.rows_rejected) == (
        "loaded_with_rejects", "vse.query_stats", 2, 1)
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        captures = con.execute("select record_ordinal, source_format from raw.command_captures order by all")
        assert captures.fetchall() == [(1, "vse.query_stats"), (2, "netstat.linux_s")]


def test_a_head_of_damage_alone_rejects_the_file_whole_as_unrecognised(tmp_path):
    # the first capture's line noise fills the sniffed head: nothing in it tells the command, and sniffing does
    # not read further (a file is not read twice to find its format)
    home = Home(tmp_path / "home").create()
    noise = _header(NETSTAT_LOG[0]) + _line_noise(SNIFF_BYTES // 60)
    assert len(noise) > SNIFF_BYTES
    result = _ingest(home, "collector.log", [noise, *NETSTAT_LOG[1:]])
    assert (result.status, result.records_loaded, result.rows_rejected) == ("rejected", 0, 1)
    assert result.error.startswith("unrecognised format: the content matches none of the known formats (")
    assert result.error.endswith(") (at start of file)")
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        assert con.execute("select line_number, record_ordinal, reason from raw.rejects").fetchall() == [
            (None, None, result.error)]
    # named with --format, the same file loads its good captures and rejects the damaged one
    forced = _ingest(Home(tmp_path / "forced").create(), "collector.log", [noise, *NETSTAT_LOG[1:]],
                     format_name="netstat.linux_s")
    assert (forced.status, forced.records_loaded, forced.rows_rejected) == ("loaded_with_rejects", 4, 1)
    assert forced.messages[0].endswith(f"collector.log: line 1: {UNKNOWN}")


def test_the_lake_path_sniffs_and_loads_a_damaged_log_as_the_duckdb_path(tmp_path):
    home = Home(tmp_path / "home").create()
    damaged = [DAMAGE["line noise"](NETSTAT_LOG[0]), *NETSTAT_LOG[1:]]
    duck = _ingest(home, "collector.log", damaged)
    lake = Lake(tmp_path / "lake")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    spark = job.load_file(lake, home.landing / "collector.log", scratch, 1, None, {})
    assert (spark.status, spark.format, spark.records_read, spark.records_loaded, spark.rows_loaded,
            spark.rows_rejected, spark.messages) == (duck.status, duck.format, duck.records_read, duck.records_loaded,
                                                     duck.rows_loaded, duck.rows_rejected, duck.messages)
    (rejects,) = [pq.read_table(p).to_pylist() for p in lake.rejects_dir.glob("*.parquet")]
    assert [(r["line_number"], r["record_ordinal"], r["reason"]) for r in rejects] == [(1, 0, UNKNOWN)]
