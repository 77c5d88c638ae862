"""The columnar fast path of the MEASCOM report parser (``meascom_columnar``) gives exactly what the
line-by-line state machine gives: the chunked ``PARSER.parse`` against ``parse_line_by_line`` on the report
samples, on generated reports (RATE ON, OFF and both, every entity), on files with bad blocks, foreign
listings and unparsed text, and with chunks cut anywhere. That includes the line each record starts on
(``ParseContext.place``), where the loader puts a record it finds implausible."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
from pathlib import Path

import pyarrow as pa
import pytest

from ingest.formats.base import FormatError, ParseContext
from ingest.formats.measure import meascom_columnar, meascom_report
from ingest.formats.measure.meascom_line_reader import parse_line_by_line
from ingest.formats.measure.meascom_report import PARSER
from ingest.formats.measure.meascom_writer import write_report
from ingest.generate._measure_inventory import SystemSpec
from ingest.generate._measure_model import TEXT_TABLES, MeasureModel
from ingest.home import Home
from ingest.warehouse import database, loading

FIXTURES = Path(__file__).parents[1] / "fixtures" / "measure" / "meascom"


def _tables(batches) -> dict[str, pa.Table]:
    """Per table, all batches in record order, columns unioned by name (missing ones NULL)."""
    parts: dict[str, list[pa.Table]] = {}
    for batch in batches:
        parts.setdefault(batch.table, []).append(batch.rows)
    return {
        name: pa.concat_tables(tables, promote_options="default").sort_by("record_ordinal")
        for name, tables in parts.items()
    }


def _parse(parse, path: Path):
    ctx = ParseContext(path)
    tables = _tables(parse(path, ctx))
    rejects = [(r.reason, r.line, r.record_ordinal, r.raw) for r in ctx.rejects]
    places = [ctx.place(ordinal) for ordinal in range(ctx.records_read)]
    return tables, ctx.records_read, rejects, places


@pytest.fixture
def paths(monkeypatch):
    """Counts the chunks of ``PARSER.parse`` by the path that read them: each chunk counts for the state
    machine unless the columnar reader takes it."""
    counts = {"columnar": 0, "state machine": 0}
    chunks, read_chunk = meascom_report._chunks, meascom_columnar.read_chunk

    def counting_chunks(fh):
        for chunk in chunks(fh):
            counts["state machine"] += 1
            yield chunk

    def counting_read(*args):
        done = read_chunk(*args)
        if done is not None:
            counts["columnar"] += 1
            counts["state machine"] -= 1
        return done

    monkeypatch.setattr(meascom_report, "_chunks", counting_chunks)
    monkeypatch.setattr(meascom_columnar, "read_chunk", counting_read)
    return counts


def assert_same_as_state_machine(path: Path):
    """The chunked parse equals the pure state machine: tables, values, ordinals, reads, rejects, the line
    of each record. Columns are unioned by name: a column one side lacks is NULL there (the state machine
    adds the column of every label it meets, even in a block it then rejects; a batch has the columns of its
    own chunk)."""
    expected, expected_reads, expected_rejects, expected_places = _parse(parse_line_by_line, path)
    got, reads, rejects, places = _parse(PARSER.parse, path)
    assert sorted(got) == sorted(expected)
    for name, want in expected.items():
        table = got[name]
        for column in sorted(set(table.column_names) | set(want.column_names)):
            a = table[column] if column in table.column_names else pa.nulls(len(table), want[column].type)
            b = want[column] if column in want.column_names else pa.nulls(len(want), table[column].type)
            assert a.type == b.type, (name, column)
            assert a.to_pylist() == b.to_pylist(), (name, column)
    assert (reads, rejects) == (expected_reads, expected_rejects)
    assert places == expected_places
    # where a reject or raw.measure_unparsed tells a record's first line, the record is placed there
    told = {ordinal: line for _reason, line, ordinal, _raw in rejects}
    if "measure_unparsed" in expected:
        unparsed = expected["measure_unparsed"]
        told.update(zip(unparsed["record_ordinal"].to_pylist(), unparsed["line_number"].to_pylist()))
    assert {ordinal: places[ordinal] for ordinal in told} == {ordinal: (None, line) for ordinal, line in told.items()}
    return expected, expected_reads, expected_rejects


def _report(seed: int, rate: str, days: int = 3) -> str:
    """Every entity of a generated system for ``days`` days: RATE ON, OFF, or the two alternating by listing."""
    spec = SystemSpec("\\COLS", cpus=4, start=dt.date(2026, 1, 5), days=days, processes=16, discs=3, lines=2,
                      seed=seed, file_openers=2)
    model = MeasureModel(spec)
    f = io.StringIO()
    prompt = 13
    for day in spec.dates():
        for n, table in enumerate(TEXT_TABLES):
            rate_on = {"on": True, "off": False, "both": n % 2 == 0}[rate]
            prompt = write_report(f, table, model.records(table, day), rate_on=rate_on, prompt=prompt)
    return f.getvalue()


def _write(tmp_path: Path, text: str, name: str = "report.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


_START_WORDS = {"Cpu", "Process", "Comm", "Disc", "File", "Discopen"}


def _first_lines(text: str) -> list[int]:
    """The line each record of a generated report starts on, in file order, found the plain way: a block's
    start line; in a USERDEF block (``Process ... Program``), each line after its Local System line."""
    firsts, userdef, counters = [], False, False
    for n, line in enumerate(text.split("\n"), 1):
        words = line.split()
        if not words:
            continue
        if words[0] in _START_WORDS:
            userdef, counters = "Program" in words[1:3], False
            if not userdef:
                firsts.append(n)
        elif "+" in words[0]:  # a command echo ends the block
            userdef = False
        elif words[0] == "Local":
            counters = True
        elif userdef and counters:
            firsts.append(n)
    return firsts


# -- equivalence ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.txt")))
def test_report_samples(name, paths):
    assert_same_as_state_machine(FIXTURES / name)
    # the SYSTEM sample is kept verbatim: that is the state machine's job
    system = name == "system_rate_on.txt"
    assert paths == {"columnar": 1 - system, "state machine": int(system)}


@pytest.mark.parametrize("seed, rate", [(1, "on"), (2, "off"), (3, "both"), (4, "both")])
def test_generated_reports(tmp_path, monkeypatch, paths, seed, rate):
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 200_000)
    path = _write(tmp_path, _report(seed, rate))
    tables, reads, rejects = assert_same_as_state_machine(path)
    assert rejects == [] and reads == sum(t.num_rows for t in tables.values()) > 3_000
    assert set(tables) == set(TEXT_TABLES)
    assert paths["state machine"] == 0 and paths["columnar"] >= 6


def test_each_record_is_placed_at_its_first_line(tmp_path, monkeypatch, paths):
    # chunks of a few blocks, blank lines (counted, though the columnar reader leaves them out), and a
    # chunk the columnar reader declines (a double space) between chunks it reads
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 5_000)
    text = _report(9, "both", days=1).replace("\nProcess ", "\n\nProcess ", 40).replace("\nPCBs ", "\nPCBs  ", 1)
    path = _write(tmp_path, text)
    _, reads, _, places = _parse(PARSER.parse, path)
    firsts = _first_lines(text)
    assert reads == len(firsts) > 1_000 and text.count("\n\n") == 40
    assert places == [(None, line) for line in firsts]
    assert paths["state machine"] == 1 and paths["columnar"] > 50
    assert_same_as_state_machine(path)


def test_a_userdef_block_rejected_after_its_counters_is_placed_at_its_start(tmp_path, paths):
    # its counters before the fault are records of their own and come first; the block's reject comes after
    # them, placed at the block's start line, before theirs
    lines = (FIXTURES / "userdef_rate_on_off.txt").read_text().splitlines(keepends=True)
    lines.insert(6, lines[3])  # a second Local System line, after two counters
    path = _write(tmp_path, "".join(lines))
    _, reads, rejects, places = _parse(PARSER.parse, path)
    assert [(line, ordinal) for _reason, line, ordinal, _raw in rejects] == [(2, 2)]
    assert reads == 7 and places == [(None, line) for line in (5, 6, 2, 15, 16, 17, 18)]
    assert paths == {"columnar": 0, "state machine": 1}
    assert_same_as_state_machine(path)


def test_values_read_the_columnar_way(tmp_path, paths):
    # Response-Time RATE ON: the average times the block's transactions; RATE OFF (told by the units, or
    # by the session when no unit tells) as printed. A label outside the contract: a BIGINT column after
    # the contract's; NULL in a block that does not print it.
    head = (
        "Comm Line $X25TAH Device Type 61 Subdevice Type 63\n"
        "Logical Device 170\n"
        "Local System \\COWBOY From 7 Feb 1997, 10:23:51 For 10.0 Seconds\n"
    )
    rate_on = "Requests 6.03 Retries\nTransactions 2.00 Response-Time 12.50 ms\nFrame-Errors 0.30\n"
    rate_off = "Requests 60 # Retries\nTransactions 20 # Response-Time 250.00 ms\nFrame-Errors 3 #\n"
    silent = "Requests Retries\nTransactions Response-Time 12.50 ms\n"
    text = "13+ LIST LINE *\n" + head + rate_on + "14+ SET REPORT RATE OFF\n15+ LIST LINE *\n"
    text += head + rate_off + head + silent
    tables, reads, _ = assert_same_as_state_machine(_write(tmp_path, text))
    line = tables["measure_line"]
    assert paths == {"columnar": 1, "state machine": 0} and reads == 3
    assert line["record_ordinal"].to_pylist() == [0, 1, 2]
    assert line["requests"].to_pylist() == [60, 60, 0] and line["retries"].to_pylist() == [0, 0, 0]
    assert line["transactions"].to_pylist() == [20, 20, 0]
    assert line["response_time"].to_pylist() == [250_000, 250_000, 12_500]
    assert line["delta_time"].to_pylist() == [10_000_000] * 3 and line["logical_device"].to_pylist() == [170] * 3
    assert line.column_names[-1] == "frame_errors" and line["frame_errors"].type == pa.int64()
    assert line["frame_errors"].to_pylist() == [3, 3, None]


# -- bad input goes the state machine's way ---------------------------------------------------------------


def test_bad_block_in_the_middle(tmp_path, monkeypatch, paths):
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 100_000)
    text = _report(5, "on", days=1)
    lines = text.splitlines(keepends=True)
    bad = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("Mem-Qtime"))
    lines[bad] = lines[bad].replace("Mem-Qtime", "Mem-Qtime 0.1x2")
    start = max(i for i in range(bad) if lines[i].startswith(("Cpu ", "Process ")))
    tables, reads, rejects = assert_same_as_state_machine(_write(tmp_path, "".join(lines)))

    (reason, line, ordinal, raw), = rejects
    assert reason.startswith(f"PROCESS block at line {start + 1} rejected: line {bad + 1}: expected Mem-Qtime <number>")
    assert line == start + 1 and raw.decode().startswith(lines[start])
    assert reads == sum(t.num_rows for t in tables.values()) + 1
    assert ordinal not in {o for t in tables.values() for o in t["record_ordinal"].to_pylist()}
    assert paths["state machine"] == 1 and paths["columnar"] >= 3  # only the chunk with the bad block


def test_foreign_listing_and_system_block_in_the_middle(tmp_path, monkeypatch, paths):
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 2_000)
    terminals = (
        "Terminal $X25TAH.#T1 Logical Device 171\n"
        "Process 3,14 ($B30S) Pri 199\n"  # a block start inside a foreign listing is verbatim text too
        "Local System \\COWBOY From 7 Feb 1997, 10:23:51 For 44.3 Seconds\n"
        "Requests 6.03 Reads 2.00\n"
    ) * 40
    text = _report(6, "on", days=1)
    middle = text.index("\nProcess ", len(text) // 2) + 1
    system = (FIXTURES / "system_rate_on.txt").read_text()
    foreign = "20+ LIST TERMINAL *\n" + terminals + "21+ LIST PROCESS *\n" + system
    tables, _, rejects = assert_same_as_state_machine(_write(tmp_path, text[:middle] + foreign + text[middle:]))
    unparsed = tables["measure_unparsed"]
    assert unparsed["entity"].to_pylist() == ["TERMINAL", "SYSTEM"] and rejects == []
    assert unparsed["raw_text"].to_pylist() == [terminals, system]  # each one record, over many chunks
    assert paths["columnar"] > 50 and paths["state machine"] >= 4  # the listing is cut in several chunks


def test_text_that_is_no_report_is_still_a_format_error(tmp_path):
    path = _write(tmp_path, "SYSTEM-NAME,CPU-NUM\n\\TAHITI,2\n")
    with pytest.raises(FormatError, match="no MEASCOM report found"):
        list(PARSER.parse(path, ParseContext(path)))


LOCAL = "Local System \\T From 7 Feb 1997, 12:03:32 For 1.0 Seconds\n"


def test_the_columnar_reader_reads_a_plain_block():
    text = "Cpu 2 NSR-W\n" + LOCAL + "Cpu-Busy-Time 3.51 % Swaps 2 #\n"
    done = meascom_columnar.read_chunk(text, 7, True, None, False)
    (cpu,) = done.tables["measure_cpu"].to_pylist()
    assert (done.records, done.session) == (1, (True, None, False))
    assert (cpu["record_ordinal"], cpu["cpu_num"], cpu["cpu_type_name"]) == (7, 2, "NSR-W")
    assert (cpu["cpu_busy_time"], cpu["swaps"], cpu["dispatches"]) == (35_100, 2, None)


@pytest.mark.parametrize(
    "text",
    [
        "Cpu-Busy-Time 3.51 % Swaps\n",  # counters outside any block
        "13+ LIST TERMINAL *\nCpu 2 NSR-W\n",  # a foreign listing
        "Cpu 2 NSR-W\nCpu-Busy-Time 3.51 % Swaps\n",  # no Local System line
        "Cpu 2 NSR-W\n" + LOCAL + "Cpu-Busy-Time 3.51 # Swaps\n",
        "Cpu 2 NSR-W\n" + LOCAL + "Cpu-Busy-Time 1,23 %\n",
        "Cpu 2 NSR-W\n" + LOCAL + "Cpu-Busy-Time 1e5 %\n",
        "Cpu 2 NSR-W\n" + LOCAL + "Swaps 1 # Swaps 2 #\n",
        "Cpu 2 NSR-W\n" + LOCAL + "Pcbs 7 #\n",  # an id column
        "Cpu 2 NSR-W\n" + LOCAL + "Swaps\t2\n",
        "Cpu 2 NSR-W\n" + LOCAL + "Swaps  2\n",
        "Remote System \\T\n",
    ],
)
def test_what_the_columnar_reader_declines(text):
    assert meascom_columnar.read_chunk(text, 0, True, None, False) is None


# -- chunks ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [False, True])
def test_tiny_chunks_give_what_one_chunk_gives(tmp_path, monkeypatch, paths, bad):
    text = _report(7, "both", days=1)
    if bad:
        text = text.replace("Mem-Qtime Dispatches", "Mem-Qtime Dispatches 1.x", 1)
    path = _write(tmp_path, text)
    one, reads, rejects = assert_same_as_state_machine(path)
    assert paths == {"columnar": 0, "state machine": 1} if bad else {"columnar": 1, "state machine": 0}
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 300)
    tiny, tiny_reads, tiny_rejects = assert_same_as_state_machine(path)
    assert paths["columnar"] > 500 and paths["state machine"] == 2 * bad
    assert (tiny_reads, tiny_rejects) == (reads, rejects) and len(rejects) == bad
    assert {name: t.to_pylist() for name, t in tiny.items()} == {name: t.to_pylist() for name, t in one.items()}


def test_chunks_are_cut_before_echoes_and_block_starts_and_stay_bounded(monkeypatch):
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 100)
    block = "Cpu 2 NSR-W\n" + LOCAL + "Swaps 1 #\n"
    terminals = "Terminal $X25TAH.#T1 Logical Device 171\n" * 50
    text = "13+ LIST CPU *\n" + block * 5 + "14+ LIST TERMINAL *\n" + terminals
    chunks = list(meascom_report._chunks(io.StringIO(text, newline="\n")))
    assert "".join(chunk for chunk, _ in chunks) == text
    for (chunk, follows), (after, _) in zip(chunks, chunks[1:]):
        assert chunk.endswith("\n")
        assert after.startswith({"start": "Cpu ", "echo": "14+ LIST TERMINAL", None: "Terminal"}[follows])
    assert [follows for _, follows in chunks].count("echo") == 1 and chunks[-1][1] == "eof"
    # no block start or echo in the terminal listing: cut at a line end once past 4 x CHUNK_CHARS
    assert 1 < [follows for _, follows in chunks].count(None) and max(len(chunk) for chunk, _ in chunks) < 500


# -- implausible records: rejected by the loader at the line their record starts on ---------------------------

WRITTEN = dt.datetime(2026, 2, 1, tzinfo=dt.timezone.utc).timestamp()  # after every generated report's hours


def _ingest(path: Path, home: Path):
    """``path`` through the loader into a new warehouse: its result, raw.rejects (line, ordinal, reason,
    raw bytes) and the ordinals of the rows loaded."""
    con = database.connect(Home(home).create())
    try:
        result = loading.ingest_file(con, path)
        rejects = con.execute("select line_number, record_ordinal, reason, raw_bytes from raw.rejects").fetchall()
        loaded = [o for table in TEXT_TABLES for (o,) in con.execute(f"select record_ordinal from raw.{table}").fetchall()]
    finally:
        con.close()
    return result, rejects, sorted(loaded)


@pytest.mark.parametrize("declined", [False, True])
def test_an_implausible_block_is_rejected_at_its_start_line(tmp_path, monkeypatch, paths, declined):
    """A PROCESS block past the first chunks with a negative busy time, read by the columnar reader or (a
    double space: declined) by the state machine; a blank line before it, which only the line count sees."""
    monkeypatch.setattr(meascom_report, "CHUNK_CHARS", 20_000)
    lines = _report(8, "on", days=1).splitlines(keepends=True)
    lines.insert(1, "\n")
    blocks = [i for i, line in enumerate(lines) if re.match(r"Process [0-9]", line)]  # not USERDEF's
    start = blocks[len(blocks) // 2]
    busy = next(i for i in range(start, len(lines)) if lines[i].startswith("Cpu-Busy-Time "))
    # -12.5 % of its hour, printed with or without a value before
    negative = "Cpu-Busy-Time  -12.50 %" if declined else "Cpu-Busy-Time -12.50 %"
    lines[busy] = re.sub(r"^Cpu-Busy-Time( [0-9.]+ %)?", negative, lines[busy])
    text = "".join(lines)
    path = _write(tmp_path, text)
    os.utime(path, (WRITTEN, WRITTEN))
    firsts = _first_lines(text)
    ordinal = firsts.index(start + 1)

    result, rejects, loaded = _ingest(path, tmp_path / "home")
    reason = "implausible in raw.measure_process: cpu_busy_time -450000000 is negative (a cumulative counter)"
    ((line, rejected, got_reason, raw),) = rejects
    assert (line, rejected, got_reason) == (start + 1, ordinal, reason)
    assert b"cpu_busy_time=-450000000" in raw
    assert result.messages == [f"{path}: line {start + 1}: {reason}"]
    # every other record loads; records read = loaded + rejected + skipped
    assert loaded == [o for o in range(len(firsts)) if o != ordinal]
    assert (result.status, result.records_read, result.records_loaded, result.rows_rejected, result.rows_skipped) == (
        "loaded_with_rejects", len(firsts), len(firsts) - 1, 1, 0)
    assert paths["state machine"] == declined and paths["columnar"] >= 10


@pytest.mark.parametrize("declined", [False, True])
def test_an_implausible_userdef_counter_is_rejected_at_its_own_line(tmp_path, paths, declined):
    """Each USERDEF counter line is a record: a negative one is rejected at its line, not its block's."""
    good = "TIMEPER 3.08 s Busy 0"
    bad = "TIMEPER  -3.08 s Busy 0" if declined else "TIMEPER -3.08 s Busy 0"
    text = (FIXTURES / "userdef_rate_on_off.txt").read_text().replace(good, bad)
    lines = text.splitlines()
    assert (lines.index(bad) + 1, lines.index("15+ LIST USERDEF *") + 1) == (16, 10)  # its block starts at 11
    result, rejects, loaded = _ingest(_write(tmp_path, text), tmp_path / "home")
    reason = "implausible in raw.measure_userdef: counter_value -3080000 is negative (a cumulative counter)"
    # the second listing's third counter: ordinal 4 + 2
    assert [(line, ordinal, got) for line, ordinal, got, _raw in rejects] == [(16, 6, reason)]
    assert result.messages == [f"{tmp_path / 'report.txt'}: line 16: {reason}"]
    assert loaded == [0, 1, 2, 3, 4, 5, 7]
    assert (result.records_read, result.records_loaded, result.rows_rejected, result.rows_skipped) == (8, 7, 1, 0)
    assert paths == {"columnar": 1 - declined, "state machine": int(declined)}


def test_a_userdef_block_dated_1969_loses_each_counter_at_its_line(tmp_path, paths):
    text = (FIXTURES / "userdef_rate_on_off.txt").read_text()
    text = text.replace("From 8 Nov 1990, 14:49:27", "From 31 Dec 1969, 23:00:00", 1)  # the first listing
    result, rejects, loaded = _ingest(_write(tmp_path, text), tmp_path / "home")
    reason = "implausible in raw.measure_userdef: from_timestamp 1969-12-31 23:00:00 is before 1970-01-02"
    assert sorted((line, ordinal, got) for line, ordinal, got, _raw in rejects) == [
        (5, 0, reason), (6, 1, reason), (7, 2, reason), (8, 3, reason)]
    assert loaded == [4, 5, 6, 7] and (result.records_read, result.records_loaded, result.rows_rejected) == (8, 4, 4)
    assert paths == {"columnar": 1, "state machine": 0}
