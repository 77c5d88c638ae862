"""MEASCOM LIST report text: parser (``measure.meascom``) and writer.

Golden values are the report samples of shared/formats/measure/reports.md 1.1-1.5 (fixtures in
tests/fixtures/measure/meascom/, see the README there), converted to raw units by hand with the
formulas of counters.md: busy µs = pct / 100 x delta_us, queue µs·items = AQL x delta_us,
count = rate x delta_s, RATE OFF values as printed.
"""

from __future__ import annotations

import io
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ingest.formats import registry
from ingest.formats.base import FormatError, ParseContext
from ingest.formats.measure import meascom_line_reader
from ingest.formats.measure.meascom_labels import BUSY, INC, LAYOUTS, MAX, QUEUE, RESP, RESP_COUNTS, SNAP, column_of
from ingest.formats.measure.meascom_report import PARSER
from ingest.formats.measure.meascom_writer import display, write_report
from ingest.home import Home
from ingest.warehouse import database, loading

FIXTURES = Path(__file__).parents[1] / "fixtures" / "measure" / "meascom"
HEADER_NULLS = {"loadid": None, "error": None, "os_version": None}


def parse(path: Path):
    """(rows per table in file order, the parse context, the batches)."""
    ctx = ParseContext(path)
    batches = list(PARSER.parse(path, ctx))
    rows: dict[str, list[dict]] = {}
    for batch in batches:
        rows.setdefault(batch.table, []).extend(batch.rows.to_pylist())
    return rows, ctx, batches


def write(tmp_path: Path, text: str, name: str = "report.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- the samples of reports.md ----------------------------------------------------------------------


def test_cpu_sample_rate_on():
    rows, ctx, _ = parse(FIXTURES / "cpu_rate_on.txt")
    assert list(rows) == ["measure_cpu"] and ctx.records_read == 1 and ctx.rejects == []
    assert rows["measure_cpu"][0] == {
        "record_ordinal": 0, "source_form": "meascom", "system_name": "\\TAHITI", "cpu_num": 2, **HEADER_NULLS,
        "from_timestamp": datetime(1997, 2, 7, 12, 3, 32),
        "to_timestamp": datetime(1997, 2, 7, 12, 4, 15, 600000),
        "delta_time": 43_600_000,  # For 43.6 Seconds
        # identification: the type prints as a name, not the cpu-type code
        "cpu_type": None, "cpu_type_name": "NSR-W", "mem_initial_lock": 144, "memory_pages": 8192,
        "mem_mb": 128, "pcbs": 1800, "page_size_bytes": 16384,
        "cpu_busy_time": 1_530_360,  # 3.51 % of 43.6 s
        "swaps": 0,  # label without value
        "cpu_qtime": 1_744_000,  # AQL 0.04 x 43.6e6 µs
        "cpu_qlen_max": 23, "mem_qtime": 0, "mem_qlen_max": 5,
        "dispatches": 3_876,  # 88.91/s x 43.6 s = 3876.48
        "intr_busy_time": 444_720,  # 1.02 %
        "process_ovhd": 0, "send_busy_time": 0, "disc_ios": 0, "cache_hits": 0,
        "transactions": 0, "response_time": 0, "page_requests": 0, "page_scans": 0,
        "ending_free_mem": 4_856, "ending_ucme": 0, "ending_uds": 1_523, "ending_sds": 594, "ending_ucl": 1_427,
        "ending_scl": 4_294_967_000,  # 4,294,967 K
        "accel_busy_time": 8_720, "tns_busy_time": 4_360, "tnsr_busy_time": 1_076_920,  # 0.02 %, 0.01 %, 2.47 %
        "comp_traps": 2_031,  # 46.58/s x 43.6 s = 2030.89
    }


def test_process_sample_rate_on():
    rows, ctx, _ = parse(FIXTURES / "process_rate_on.txt")
    (row,) = rows["measure_process"]
    assert ctx.rejects == []
    assert row == {
        "record_ordinal": 0, "source_form": "meascom", "system_name": "\\TAHITI", "cpu_num": 3, **HEADER_NULLS,
        "from_timestamp": datetime(1997, 2, 7, 11, 53, 36),
        "to_timestamp": datetime(1997, 2, 7, 11, 56, 54),
        "delta_time": 198_000_000,  # For 3.3 Minutes
        "pin": 14, "process_name": "$B30S", "priority": 199, "page_size_bytes": 16384,
        "program_file_name": "$SYSTEM.SYS01.LHOBJ", "program_kind": "Native",
        "userid": "255,255", "creatorid": "255,255",
        "ancestor_cpu": 1, "ancestor_pin": 275, "ancestor_process_name": "$ZZWAN",
        "cpu_busy_time": 61_776_000,  # 31.20 % of 198 s
        "ready_time": 90_545_400,  # 45.73 %
        "mem_qtime": 0,
        "dispatches": 9_530,  # 48.13/s x 198 s = 9529.74
        "page_faults": 0, "vsems": 0,
        "pres_pages_qtime": 62_370_000_000,  # average 315 pages over 198e6 µs
        "pres_pages_max": 315,
        "ext_segs_qtime": 396_000_000, "ext_segs_max": 2,
        "recv_qtime": 23_760_000,  # 0.12 printed without '#': still an average queue length
        "recv_qlen_max": 8,
        "messages_sent": 27_395, "messages_received": 28_585,  # 138.36/s, 144.37/s
        "sent_bytes": 6_963_858, "received_bytes": 6_534_000,  # 35,171/s, 33,000/s
        "returned_bytes": 0, "reply_bytes": 0,
        "lcb_allocations": 0, "lcb_alloc_failures": 0,  # MQC-Allocations keeps its legacy column name
        "mqcs_inuse_qtime": 0, "max_mqcs_inuse": 0, "checkpoints": 0, "alloc_seg_calls": 0, "file_open_calls": 0,
    }


def test_line_sample_rate_on():
    rows, ctx, _ = parse(FIXTURES / "line_rate_on.txt")
    (row,) = rows["measure_line"]
    assert ctx.rejects == []
    assert row == {
        "record_ordinal": 0, "source_form": "meascom", "system_name": "\\COWBOY", **HEADER_NULLS,
        "cpu_num": None, "pin": None,  # a LINE block prints neither
        "from_timestamp": datetime(1997, 2, 7, 10, 23, 51),
        "to_timestamp": datetime(1997, 2, 7, 10, 24, 35, 300000),
        "delta_time": 44_300_000,
        "device_name": "$X25TAH", "device_type": 61, "device_subtype": 63, "logical_device": 170,
        "trackid": "SWAN24", "clip": 2, "line": 1,
        "requests": 267, "retries": 0,  # 6.03/s x 44.3 s = 267.13
        "write_busy_time": 536_030, "writes": 530,  # 1.21 %, 11.97/s
        "read_busy_time": 37_885_360, "reads": 535,  # 85.52 %, 12.08/s
        "input_bytes": 41_949, "output_bytes": 68_576,  # 946.94/s, 1,548/s
        "input_data_bytes": 34_152, "output_data_bytes": 59_539,  # 770.93/s, 1,344/s
        "transactions": 0, "response_time": 0,
    }


def test_userdef_sample_rate_on_then_off():
    rows, ctx, batches = parse(FIXTURES / "userdef_rate_on_off.txt")
    assert [b.table for b in batches] == ["measure_userdef"]  # the three command echoes are no records
    assert ctx.records_read == 8 and ctx.rejects == []
    got = [(r["name"], r["type"], r["index"], r["max_value"], r["counter_value"]) for r in rows["measure_userdef"]]
    assert got == [
        # RATE ON, For 3.5 Seconds
        ("TRANSACTIONS", 1, 0, None, 1),  # 0.28/s x 3.5 s = 0.98
        ("TRANSACTIONS", 1, 1, None, 1),
        ("TIMEPER", 2, 0, None, 3_061_800),  # 87.48 % x 3.5e6 µs
        ("WAITING", 3, 0, 1, 3_045_000),  # AQL 0.87 x 3.5e6 µs
        # RATE OFF
        ("TRANSACTIONS", 1, 0, None, 1),  # 1 #
        ("TRANSACTIONS", 1, 1, None, 1),
        ("TIMEPER", 2, 0, None, 3_080_000),  # 3.08 s
        ("WAITING", 3, 0, 1, 3_080_000),
    ]
    first = rows["measure_userdef"][0]
    assert {k: first[k] for k in ("record_ordinal", "system_name", "cpu_num", "pin", "priority", "process_name",
                                  "program_file_name", "userid", "creatorid", "delta_time", "from_timestamp")} == {
        "record_ordinal": 0, "system_name": "\\BUYER", "cpu_num": 4, "pin": 45, "priority": 140, "process_name": None,
        "program_file_name": "$WORK.APPL.BILLING", "userid": "255,255", "creatorid": "255,255",
        "delta_time": 3_500_000, "from_timestamp": datetime(1990, 11, 8, 14, 49, 27),
    }
    assert [r["record_ordinal"] for r in rows["measure_userdef"]] == list(range(8))


def test_userdef_rate_on_and_off_agree_within_printed_precision():
    # The report prints "For 3.5 Seconds": DELTA-TIME is 3.45 .. 3.55 s, so 87.48 % busy is
    # 3.018 .. 3.106 s and AQL 0.87 is 3.002 .. 3.089 s; the RATE OFF listing says 3.08 s for both.
    rows, _, _ = parse(FIXTURES / "userdef_rate_on_off.txt")
    on, off = rows["measure_userdef"][:4], rows["measure_userdef"][4:]
    for pct_or_aql, on_row, off_row in ((0.8748, on[2], off[2]), (0.87, on[3], off[3])):
        low, high = pct_or_aql * 3_450_000, pct_or_aql * 3_550_000
        assert low <= off_row["counter_value"] <= high
        assert abs(on_row["counter_value"] - off_row["counter_value"]) <= high - low
    assert [r["counter_value"] for r in on[:2]] == [r["counter_value"] for r in off[:2]] == [1, 1]


def test_system_block_is_kept_verbatim_as_skipped():
    path = FIXTURES / "system_rate_on.txt"
    rows, ctx, batches = parse(path)
    assert [(b.table, b.skipped) for b in batches] == [("measure_unparsed", True)]
    assert rows["measure_unparsed"] == [
        {"record_ordinal": 0, "source_form": "meascom", "entity": "SYSTEM", "line_number": 1, "raw_text": path.read_text()}
    ]
    assert ctx.records_read == 1


def test_sniff():
    for path in sorted(FIXTURES.glob("*.txt")):
        assert PARSER.sniff(path.read_bytes(), path.name), path.name
        assert registry.sniff(path.read_bytes(), path.name) is PARSER, path.name
    assert not PARSER.sniff(b"SYSTEM-NAME,CPU-NUM,CPU-BUSY-TIME\n\\TAHITI,2,1530360\n", "cpu.csv")
    assert not PARSER.sniff(b"\x00\x01Local System \\X From 7 Feb 1997, 12:03:32 For 1.0 Seconds", "zmscpu")


# -- bad input ---------------------------------------------------------------------------------------


def _three_entities() -> str:
    return "".join((FIXTURES / name).read_text() for name in ("cpu_rate_on.txt", "process_rate_on.txt", "line_rate_on.txt"))


def test_mangled_counter_line_rejects_its_block_only(tmp_path):
    text = _three_entities().replace("Mem-Qtime Dispatches 48.13", "Mem-Qtime Dispatches 48.1x3")
    lines = text.splitlines(keepends=True)
    process_start = lines.index("Process 3,14 ($B30S) Pri 199 Pg Size 16384 Bytes\n") + 1  # 17
    bad_line = lines.index("Mem-Qtime Dispatches 48.1x3\n") + 1  # 22
    rows, ctx, _ = parse(write(tmp_path, text))

    assert len(rows["measure_cpu"]) == 1 and len(rows["measure_line"]) == 1 and "measure_process" not in rows
    assert ctx.records_read == 3 and len(ctx.rejects) == 1
    reject = ctx.rejects[0]
    assert (process_start, bad_line) == (17, 22)
    assert reject.line == 17 and reject.record_ordinal == 1
    assert reject.reason == "PROCESS block at line 17 rejected: line 22: expected Dispatches <number> [unit], found '48.1x3'"
    assert reject.raw.decode() == "".join(lines[16:33])  # the whole block, up to the LINE block
    assert [rows["measure_cpu"][0]["record_ordinal"], rows["measure_line"][0]["record_ordinal"]] == [0, 2]
    assert rows["measure_line"][0]["read_busy_time"] == 37_885_360  # the block after the bad one is intact


def test_each_bad_block_is_rejected_with_its_own_text(tmp_path):
    text = _three_entities().replace("Cpu-Qtime 0.04 #", "Cpu-Qtime 0.04 ##").replace("Reads 12.08", "Reads 12,08")
    lines = text.splitlines(keepends=True)
    rows, ctx, _ = parse(write(tmp_path, text))
    assert list(rows) == ["measure_process"] and ctx.records_read == 3
    assert [(r.line, r.record_ordinal) for r in ctx.rejects] == [(1, 0), (34, 2)]
    assert [r.raw.decode() for r in ctx.rejects] == ["".join(lines[:16]), "".join(lines[33:])]
    assert ctx.rejects[0].reason == "CPU block at line 1 rejected: line 5: expected Cpu-Qtime <number> [unit], found '##'"
    assert ctx.rejects[1].reason == "LINE block at line 34 rejected: line 39: expected Reads <number> [unit], found '12,08'"


@pytest.mark.parametrize(
    "bad, found",
    [
        ("Cpu-Busy-Time 3.51 pct Swaps", "found '3.51 pct'"),  # unknown unit
        ("Cpu-Busy-Time 3.51 PCT Swaps", "expected Cpu-Busy-Time <number> [unit], found '3.51 PCT'"),
        ("Cpu-Busy-Time 3.51 % Swaps 2 PCT", "expected Swaps <number> [unit], found 'PCT'"),
        ("Cpu-Busy-Time 3.51 # Swaps", "found '3.51 #'"),  # '#' is no unit of a busy counter
        ("Cpu-Busy-Time 3.51 % 7 Swaps", "expected Cpu-Busy-Time <number> [unit], found '7'"),
        ("Cpu-Busy-Time 1e999 % Swaps", "Cpu-Busy-Time 1e999 % is out of range"),
    ],
)
def test_bad_values_and_units_name_the_line(tmp_path, bad, found):
    text = (FIXTURES / "cpu_rate_on.txt").read_text().replace("Cpu-Busy-Time 3.51 % Swaps", bad)
    rows, ctx, _ = parse(write(tmp_path, text))
    assert rows == {} and ctx.records_read == 1
    assert ctx.rejects[0].reason.startswith("CPU block at line 1 rejected: line 4: ")
    assert found in ctx.rejects[0].reason


def test_block_without_local_system_line_is_rejected(tmp_path):
    cpu = (FIXTURES / "cpu_rate_on.txt").read_text()
    text = "Cpu 1 NSR-W Init Lock Pgs 144 Mem Pages 8192\n" + cpu
    rows, ctx, _ = parse(write(tmp_path, text))
    assert [r["cpu_num"] for r in rows["measure_cpu"]] == [2]
    assert ctx.rejects[0].line == 1 and "expected a 'Local System" in ctx.rejects[0].reason


def test_bad_userdef_line_rejects_that_counter_only(tmp_path):
    text = (FIXTURES / "userdef_rate_on_off.txt").read_text().replace("TIMEPER 87.48 % Busy 0", "TIMEPER 87.48 % Bsy 0")
    rows, ctx, _ = parse(write(tmp_path, text))
    assert len(rows["measure_userdef"]) == 7 and ctx.records_read == 8
    assert ctx.rejects[0].line == 7 and ctx.rejects[0].raw == b"TIMEPER 87.48 % Bsy 0\n"
    assert "line 7: expected TIMEPER <number> [unit] <Accum|Busy|Queue|...> <index>" in ctx.rejects[0].reason


@pytest.mark.parametrize(
    "good, bad",
    [
        ("TIMEPER 87.48 % Busy 0", "TIMEPER 87.48 % Busy 99999999999"),  # index beyond INTEGER
        ("WAITING 0.87 # Max 1 # Queue 0", "WAITING 0.87 # Max 99999999999999999999 # Queue 0"),
        ("WAITING 0.87 # Max 1 # Queue 0", "WAITING 0.87 # Max 1 # Busy 0"),  # Max only for queues
        ("TRANSACTIONS 0.28 Accum 1", "TRANSACTIONS 0.28 % Accum 1"),  # no percent for a count
    ],
)
def test_userdef_lines_out_of_range_or_shape_are_rejected(tmp_path, good, bad):
    text = (FIXTURES / "userdef_rate_on_off.txt").read_text().replace(good, bad, 1)
    rows, ctx, _ = parse(write(tmp_path, text))
    assert len(rows["measure_userdef"]) == 7 and ctx.records_read == 8
    assert ctx.rejects[0].raw.decode() == bad + "\n"


def test_a_mangled_duration_rejects_the_block(tmp_path):
    text = (FIXTURES / "cpu_rate_on.txt").read_text().replace("For 43.6 Seconds", "For 9999999999.9 Hours")
    rows, ctx, _ = parse(write(tmp_path, text))
    assert rows == {} and ctx.rejects[0].line == 1
    assert "line 3: expected 'Local System \\NAME From <d Mon yyyy>, <hh:mm:ss> For <n.n> Seconds|Minutes|Hours'" in (
        ctx.rejects[0].reason
    )


def test_ingest_names_file_and_line_and_keeps_accounts(tmp_path):
    path = write(tmp_path, _three_entities().replace("Dispatches 48.13", "Dispatches 48.1x3"), "tahiti.txt")
    home = Home(tmp_path / "home").create()
    con = database.connect(home)
    try:
        result = loading.ingest_file(con, path)
        assert (result.status, result.format) == ("loaded_with_rejects", "measure.meascom")
        assert (result.records_read, result.rows_loaded, result.rows_rejected, result.rows_skipped) == (3, 2, 1, 0)
        assert result.messages == [
            f"{path}: line 17: PROCESS block at line 17 rejected: line 22: expected Dispatches <number> [unit], found '48.1x3'"
        ]
        assert con.execute("select line_number, record_ordinal from raw.rejects").fetchall() == [(17, 1)]
        assert con.execute("select cpu_busy_time, ending_scl from raw.measure_cpu").fetchall() == [(1_530_360, 4_294_967_000)]
    finally:
        con.close()


def test_text_that_is_no_report_is_a_format_error(tmp_path):
    path = write(tmp_path, "SYSTEM-NAME,CPU-NUM\n\\TAHITI,2\n")
    with pytest.raises(FormatError, match="no MEASCOM report found"):
        parse(path)


# -- file structure ------------------------------------------------------------------------------------


def test_a_list_run_twice_lands_twice(tmp_path):
    once = "13+ LIST CPU *\n" + (FIXTURES / "cpu_rate_on.txt").read_text()
    rows, ctx, _ = parse(write(tmp_path, once + once.replace("13+", "14+")))
    first, second = rows["measure_cpu"]
    assert ctx.records_read == 2
    assert (first.pop("record_ordinal"), second.pop("record_ordinal")) == (0, 1)
    assert first == second


def test_listing_of_an_entity_not_parsed_is_kept_verbatim(tmp_path):
    terminal = (
        "16+ LIST TERMINAL *\n"
        "Terminal $X25TAH.#T1 Logical Device 171\n"
        "Local System \\COWBOY From 7 Feb 1997, 10:23:51 For 44.3 Seconds\n"
        "Requests 6.03 Reads 2.00\n"
    )
    text = terminal + "17+ LIST LINE *\n" + (FIXTURES / "line_rate_on.txt").read_text()
    rows, ctx, batches = parse(write(tmp_path, text))
    assert rows["measure_unparsed"] == [
        {
            "record_ordinal": 0, "source_form": "meascom", "entity": "TERMINAL", "line_number": 2,
            "raw_text": "".join(terminal.splitlines(True)[1:]),
        }
    ]
    assert [r["record_ordinal"] for r in rows["measure_line"]] == [1]
    assert {b.table: b.skipped for b in batches} == {"measure_unparsed": True, "measure_line": False}
    assert ctx.records_read == 2


def test_rate_echo_decides_response_time_when_units_cannot(tmp_path):
    # The only printed value is a time: RATE ON it is an average per transaction (and there are none),
    # RATE OFF it is the accumulated response time.
    block = (FIXTURES / "line_rate_on.txt").read_text()
    block = "".join(line for line in block.splitlines(True)[:3]) + "Requests Retries\nTransactions Response-Time 12.50 ms\n"
    rows, _, _ = parse(write(tmp_path, "13+ LIST LINE *\n" + block + "14+ SET REPORT RATE OFF\n15+ LIST LINE *\n" + block))
    assert [r["response_time"] for r in rows["measure_line"]] == [0, 12_500]


def test_batches_stay_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(meascom_line_reader, "BATCH_ROWS", 3)
    text = (FIXTURES / "userdef_rate_on_off.txt").read_text() + (FIXTURES / "cpu_rate_on.txt").read_text() * 4
    rows, ctx, batches = parse(write(tmp_path, text))
    assert max(b.rows.num_rows for b in batches) <= 3
    assert len(rows["measure_userdef"]) == 8 and len(rows["measure_cpu"]) == 4 and ctx.records_read == 12
    ordinals = sorted(r["record_ordinal"] for table in rows.values() for r in table)
    assert ordinals == list(range(12))


# -- writer ------------------------------------------------------------------------------------------------

FROM = datetime(2026, 1, 5, 10, 0, 0)
DELTA = 10_000_000  # 10 s: every value below prints exactly, RATE ON and RATE OFF


def _head(**ids) -> dict:
    return {
        "system_name": "\\TAHITI", "from_timestamp": FROM, "to_timestamp": FROM + timedelta(seconds=10),
        "delta_time": DELTA, **ids,
    }


EXACT_RECORDS = {
    "measure_cpu": [_head(
        cpu_num=3, cpu_type=2, memory_pages=8192, pcbs=1800,
        cpu_busy_time=4_567_000, cpu_qtime=12_300_000, cpu_qlen_max=7, mem_qtime=0, mem_qlen_max=0,
        dispatches=8_765, swaps=12, intr_busy_time=123_000, process_ovhd=10_000, send_busy_time=0,
        disc_ios=12_340, cache_hits=1_234, page_requests=55, page_scans=0, transactions=40,
        response_time=100_000, ending_free_mem=4_856,
    )],
    "measure_process": [_head(
        cpu_num=3, pin=14, process_name="$B30S", priority=199, program_file_name="$SYSTEM.SYS01.LHOBJ", userid="255,255",
        cpu_busy_time=3_120_000, ready_time=4_573_000, mem_qtime=0, dispatches=481, page_faults=3, vsems=0,
        recv_qtime=1_200_000, recv_qlen_max=8, messages_sent=1_383, messages_received=1_443,
        sent_bytes=351_710, received_bytes=330_000, checkpoints=2, file_open_calls=5,
    ), _head(
        cpu_num=0, pin=301, process_name=None, priority=150, program_file_name="$SYSTEM.SYSTEM.TACL", userid="200,7",
        cpu_busy_time=0, ready_time=0, mem_qtime=0, dispatches=0, page_faults=0, vsems=0, recv_qtime=0,
        recv_qlen_max=0, messages_sent=0, messages_received=0, sent_bytes=0, received_bytes=0, checkpoints=0,
        file_open_calls=0,
    )],
    "measure_disc": [_head(
        cpu_num=2, device_name="$DATA01", pin=257, logical_device=23, device_type=3, device_subtype=36,
        request_qtime=25_000_000, requests=2_000, reads=1_500, writes=500, input_bytes=3_072_000,
        output_bytes=1_024_000, swaps=0, requests_blocked=3, read_busy_time=2_000_000, write_busy_time=500_000,
        seek_busy_time=100_000, device_qbusy_time=2_400_000, cache_hits=1_200, cache_misses=300,
    )],
    "measure_line": [_head(
        device_name="$X25TAH", logical_device=170, device_type=61, device_subtype=63,
        read_busy_time=8_552_000, write_busy_time=121_000, requests=60, input_bytes=9_469, output_bytes=15_480,
        input_data_bytes=7_709, output_data_bytes=13_440, reads=121, writes=120, retries=1, transactions=20,
        response_time=246_800,
    )],
    "measure_userdef": [
        _head(cpu_num=4, pin=45, process_name=None, program_file_name="$WORK.APPL.BILLING", priority=140, **counter)
        for counter in (
            dict(name="TRANSACTIONS", type=1, index=0, max_value=None, counter_value=3),
            dict(name="TRANSACTIONS", type=1, index=1, max_value=None, counter_value=0),
            dict(name="TIMEPER", type=2, index=0, max_value=None, counter_value=8_748_000),
            dict(name="WAITING", type=3, index=0, max_value=1, counter_value=8_700_000),
            dict(name="BYTES", type=4, index=0, max_value=None, counter_value=1_234_560),
            dict(name="DISKQ", type=5, index=2, max_value=None, counter_value=2_500_000),
        )
    ],
    "measure_file": [_head(
        cpu_num=3, opener_cpu=3, opener_pin=45, file_name="$DATA01.SALES.ORDERS", device_type=3,
        file_busy_time=1_230_000, reads=345, writes=12, updates_or_replies=7, deletes_or_writereads=0,
        info_calls=1, messages=360, message_bytes=36_860,
    )],
    "measure_discopen": [_head(
        cpu_num=2, opener_cpu=3, opener_pin=45, file_name="$DATA01.SALES.ORDERS",
        driver_input_calls=400, driver_output_calls=100, cache_hits=350, cache_write_hits=90, block_splits=2,
        requests=500, requests_blocked=4, lockwait_time=6_000,
    )],
}


def _write_all(records: dict, rate_on: bool) -> str:
    f = io.StringIO()
    prompt = 13
    for table, recs in records.items():
        prompt = write_report(f, table, recs, rate_on=rate_on, prompt=prompt)
    return f.getvalue()


@pytest.mark.parametrize("rate_on", [True, False])
def test_writer_parser_round_trip_every_entity(tmp_path, rate_on):
    rows, ctx, _ = parse(write(tmp_path, _write_all(EXACT_RECORDS, rate_on)))
    assert ctx.rejects == [] and "measure_unparsed" not in rows
    assert set(rows) == set(EXACT_RECORDS)
    for table, records in EXACT_RECORDS.items():
        assert len(rows[table]) == len(records), table
        for record, row in zip(records, rows[table]):
            assert {k: row[k] for k in record} == record, table
            if table == "measure_line":  # a LINE block prints no CPU and no PIN
                assert (row["cpu_num"], row["pin"]) == (None, None)
            assert (row["source_form"], row["loadid"], row["error"], row["os_version"]) == ("meascom", None, None, None)
    assert sum(len(r) for r in rows.values()) == ctx.records_read == 13


def test_writer_output_matches_the_report_grammar():
    f = io.StringIO()
    next_prompt = write_report(f, "measure_userdef", EXACT_RECORDS["measure_userdef"][:4], rate_on=False, prompt=14)
    assert next_prompt == 17
    assert f.getvalue() == (
        "14+ SET REPORT RATE OFF\n"
        "15+ LIST USERDEF *\n"
        "Process Program $WORK.APPL.BILLING\n"
        "CPU 4 Pin 45 Priority 140\n"
        "Local System \\TAHITI From 5 Jan 2026, 10:00:00 For 10.0 Seconds\n"
        "TRANSACTIONS 3 # Accum 0\n"
        "TRANSACTIONS Accum 1\n"
        "TIMEPER 8,748.00 ms Busy 0\n"
        "WAITING 8,700.00 ms Max 1 # Queue 0\n"
        "16+ SET REPORT RATE ON\n"
    )
    f = io.StringIO()
    assert write_report(f, "cpu", EXACT_RECORDS["measure_cpu"]) == 14
    assert f.getvalue().splitlines()[:6] == [
        "13+ LIST CPU *",
        "Cpu 3 2 Mem Pages 8192",
        "PCBs 1800",
        "Local System \\TAHITI From 5 Jan 2026, 10:00:00 For 10.0 Seconds",
        "Cpu-Busy-Time 45.67 % Swaps 1.20",
        "Cpu-Qtime 1.23 # Cpu-Qlen-Max 7 #",
    ]


def test_writer_scales_wide_counts_and_long_times():
    assert display(SNAP, 4_294_967_295, DELTA, True) == "4,294,967 K"  # the Ending-SCL sample
    assert display(INC, 99_999_999, DELTA, False) == "99,999,999 #"
    assert display(INC, 123_456_789_012_345, DELTA, False) == "123,456 G"
    assert display(BUSY, 3_080_000, DELTA, False) == "3,080.00 ms"
    assert display(BUSY, 5_000_000_000, DELTA, False) == "5,000.00 sec"
    assert display(QUEUE, 0, DELTA, True) == ""
    assert display(INC, 12_345, DELTA, True) == "1,234"  # 1,234.5/s: no decimals from 1,000 up
    assert display(RESP, 100_000, DELTA, True, count=40) == "2.50 ms"


def _random_records(rng: random.Random, n: int) -> list[dict]:
    records = []
    for i in range(n):
        delta = rng.choice((43_600_000, 198_000_000, 900_000_000, 3_600_000_000))
        rec = _head(cpu_num=i, cpu_type=2, memory_pages=8192, pcbs=1800, delta_time=delta)
        for row in LAYOUTS["cpu"]:
            for label, kind in row:
                # up to: 100 % busy, 3 queued, 2,000 events/s, and what fits 10 characters
                scale = {BUSY: delta, QUEUE: delta * 3, MAX: 50, SNAP: 90_000_000, INC: 2_000 * delta // 10**6, RESP: 0}[kind]
                rec[column_of(label)] = rng.randrange(0, scale + 1) if rng.random() < 0.8 else 0
        rec["response_time"] = rec["transactions"] * rng.randrange(1_000, 900_000)
        records.append(rec)
    return records


def _half_time_step(us: int) -> float:
    """Half the last digit of a time as the writer prints it: 0.01 ms, sec, hr (two decimals)."""
    for size in (1e3, 1e6, 3.6e9):
        if us / size < 999_999.995:
            return 0.005 * size
    return 0.005 * 8.64e10


def test_rate_on_and_rate_off_renderings_agree_within_printed_precision(tmp_path):
    records = _random_records(random.Random(1986), 40)
    on, _, _ = parse(write(tmp_path, _write_all({"measure_cpu": records}, True), "on.txt"))
    off, _, _ = parse(write(tmp_path, _write_all({"measure_cpu": records}, False), "off.txt"))
    for record, a, b in zip(records, on["measure_cpu"], off["measure_cpu"]):
        delta_s = record["delta_time"] / 1e6
        for row in LAYOUTS["cpu"]:
            for label, kind in row:
                column = column_of(label)
                truth = record[column]
                # RATE OFF: counts exact (they fit in 10 characters), times to half their last printed digit
                off_tolerance = _half_time_step(truth) if kind in (BUSY, QUEUE, RESP) else 0
                assert abs(b[column] - truth) <= off_tolerance, (column, truth, b[column])
                # RATE ON: half a unit of the last printed digit, times DELTA-TIME
                if kind == BUSY:
                    tolerance = 0.005 / 100 * record["delta_time"]
                elif kind == QUEUE:
                    tolerance = 0.005 * record["delta_time"]
                elif kind == INC:
                    tolerance = 0.5 * delta_s  # rates from 1,000/s up print as integers
                elif kind == RESP:  # average (to 10 µs) times the transaction count (itself a rate)
                    count = record[RESP_COUNTS[column]]
                    average = truth / count if count else 0
                    tolerance = _half_time_step(average) * (count + 0.5 * delta_s + 1) + average * (0.5 * delta_s + 1)
                else:
                    tolerance = 0
                assert abs(a[column] - truth) <= tolerance + 1, (column, truth, a[column], tolerance)
