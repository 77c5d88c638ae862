"""Binary MEASURE structured records: encode -> file -> sniff -> decode -> raw tables in DuckDB."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pytest

from ingest.formats import registry
from ingest.formats.base import ParseContext
from ingest.formats.measure import binary_records, ddl, normalize
from ingest.home import Home
from ingest.warehouse import database, loading

FIXTURES = Path(__file__).parents[1] / "fixtures" / "measure"
T0 = datetime(1997, 2, 7, 12, 3, 32)
DELTA = 43_600_000  # "For 43.6 Seconds"

# Expand Configuration and Management Manual, Example 20-5 (CPU 2 of \TAHITI, RATE ON), in raw units:
# busy 3.51 % and interrupt busy 1.02 % of 43.6 s, AQL 0.04, 88.91 dispatches/s.
TAHITI_CPU2 = {
    "system_name": "\\TAHITI",
    "cpu_num": 2,
    "loadid": "DT0381",
    "from_timestamp": T0,
    "to_timestamp": T0 + timedelta(microseconds=DELTA),
    "delta_time": DELTA,
    "error": 0,
    "os_version": "G06",
    "memory_pages": 8192,
    "pcbs": 1800,
    "cpu_busy_time": 1_530_360,
    "cpu_qtime": 1_744_000,
    "cpu_qlen_max": 23,
    "mem_qlen_max": 5,
    "dispatches": 3876,
    "intr_busy_time": 444_720,
    "ending_free_mem": 4856,
}

TEXT_VALUES = {
    "process_name": "$B30S",
    "program_file_name": "$SYSTEM.SYS01.LHOBJ",
    "userid": "255,255",
    "device_name": "$DATA01",
    "file_name": "$DATA01.PERF.CPUFILE",
    "name": "TIMEPER",
    "line_name": "$ATM01",
    "subdev_name": "#T01",
}


def full_record(table: str, k: int = 0) -> dict:
    """A record with every contract column of ``table`` set to a distinct value."""
    record = {**{c: TAHITI_CPU2[c] for c in ("system_name", "cpu_num", "loadid", "from_timestamp", "to_timestamp", "delta_time", "error", "os_version")}}
    for i, (column, typ) in enumerate(normalize.ENTITY_COLUMNS[table].items()):
        if typ == pa.string():
            record[column] = TEXT_VALUES[column]
        elif typ == pa.int32():
            record[column] = 10 + i + k
        else:
            record[column] = 1_000_003 * (i + 1) + k
    if table == "measure_file":
        record["opener_cpu"] = record["cpu_num"]  # the ZMS FILE record keeps the opener CPU in cpu-num
    if table == "measure_userdef":
        record["type"] = 2
    return record


def ingest(tmp_path: Path, path: Path, **options):
    home = Home(tmp_path / "home").create()
    con = database.connect(home)
    return con, loading.ingest_file(con, path, options=options)


def rows(con, sql: str) -> list[dict]:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def test_golden_cpu_record_round_trip(tmp_path):
    path = tmp_path / "zmscpu"
    assert binary_records.write_records(path, "zmscpu", [TAHITI_CPU2]) == 1
    assert path.stat().st_size == 272
    assert registry.sniff(path.read_bytes(), path.name).format == "measure.binary"
    con, result = ingest(tmp_path, path)
    assert (result.status, result.format, result.records_read, result.rows_loaded) == ("loaded", "measure.binary", 1, 1)
    [row] = rows(con, "select * from raw.measure_cpu")
    for column, value in TAHITI_CPU2.items():
        assert row[column] == value, column
    assert row["source_form"] == "binary" and row["record_ordinal"] == 0
    # the RATE ON figures of the report come back from the raw values
    assert round(100 * row["cpu_busy_time"] / row["delta_time"], 2) == 3.51
    assert round(100 * row["intr_busy_time"] / row["delta_time"], 2) == 1.02
    assert round(row["cpu_qtime"] / row["delta_time"], 2) == 0.04
    assert round(row["dispatches"] / (row["delta_time"] / 1e6), 1) == 88.9
    # items outside the contract stay as extra columns
    assert row["load_id_prefix_id"] == "DT03" and row["tns_busy_time"] == 0


@pytest.mark.parametrize("table", sorted(binary_records.LAYOUT_FOR_TABLE))
def test_round_trip_of_every_entity(tmp_path, table):
    records = [full_record(table, k) for k in range(3)]
    path = tmp_path / f"{table}.dat"
    binary_records.write_records(path, binary_records.LAYOUT_FOR_TABLE[table], records)
    con, result = ingest(tmp_path, path)
    assert (result.status, result.rows_loaded, result.rows_rejected) == ("loaded", 3, 0)
    got = rows(con, f"select * from raw.{table} order by record_ordinal")
    assert [r["record_ordinal"] for r in got] == [0, 1, 2]
    for want, row in zip(records, got):
        for column, value in want.items():
            assert row[column] == value, (table, column)
    contract = list(normalize.contract_columns(table))
    assert [c for c in got[0] if c in contract] == contract  # contract columns first, in contract order


def test_truncated_last_record_is_rejected_and_the_rest_loads(tmp_path):
    path = tmp_path / "cpu.dat"
    binary_records.write_records(path, "zmscpu", [full_record("measure_cpu", k) for k in range(3)])
    with path.open("ab") as f:
        f.write(ddl.load_layouts()["zmscpu"].encode(full_record("measure_cpu", 3))[:100])
    con, result = ingest(tmp_path, path)
    assert (result.status, result.records_read, result.rows_loaded, result.rows_rejected) == ("loaded_with_rejects", 4, 3, 1)
    [reject] = rows(con, "select * from raw.rejects")
    assert reject["reason"] == "truncated record at offset 816: expected 272 bytes, found 100"
    assert (reject["byte_offset"], reject["record_ordinal"], len(reject["raw_bytes"])) == (816, 3, 100)
    assert result.messages == [f"{path}: offset 816: truncated record at offset 816: expected 272 bytes, found 100"]


def test_implausible_header_rejects_that_record_only(tmp_path, monkeypatch):
    # small chunks, so the bad record sits in the second batch and offsets must carry over
    monkeypatch.setattr(binary_records, "CHUNK_BYTES", 3 * 208)
    records = [full_record("measure_line", k) for k in range(7)]
    records[4]["delta_time"] = 0
    path = tmp_path / "zmsline.bin"
    binary_records.write_records(path, "zmsline", records)
    con, result = ingest(tmp_path, path)
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (7, 6, 1)
    [reject] = rows(con, "select * from raw.rejects")
    assert reject["reason"] == "record at offset 832: implausible zmsline header: delta-time 0 µs is not positive"
    assert (reject["byte_offset"], reject["record_ordinal"]) == (832, 4)
    got = rows(con, "select record_ordinal, requests from raw.measure_line order by 1")
    assert [r["record_ordinal"] for r in got] == [0, 1, 2, 3, 5, 6]
    assert [r["requests"] for r in got] == [records[i]["requests"] for i in (0, 1, 2, 3, 5, 6)]


def test_file_of_wrong_record_length_is_rejected_with_position(tmp_path):
    layout = ddl.load_layouts()["zmscpu"]
    path = tmp_path / "cpu.dat"
    # records of a Measure version whose CPU record is 4 bytes longer than any known layout
    path.write_bytes(b"".join(layout.encode(full_record("measure_cpu", k)) + b"\0" * 4 for k in range(5)))
    con, result = ingest(tmp_path, path)
    assert result.status == "rejected"
    assert result.error.startswith(
        "no MEASURE record layout fits this 1380-byte file: record headers appear every 276 bytes "
        "(offsets 0, 276, 552, ...) but no known layout is 276 bytes long; known layouts (record bytes): "
    )
    assert result.error.endswith("pass the DDL of your Measure version with --ddl (at offset 276)")
    [reject] = rows(con, "select byte_offset, path from raw.rejects")
    assert reject == {"byte_offset": 276, "path": str(path)}
    assert rows(con, "select count(*) as n from raw.measure_cpu") == [{"n": 0}]


def test_empty_file_is_rejected(tmp_path):
    path = tmp_path / "cpu.dat"
    path.write_bytes(b"")
    con, result = ingest(tmp_path, path, ddl_paths=[])
    assert (result.status, result.error) == ("rejected", "empty file: expected at least one record (at start of file)")
    ctx = ParseContext(path)
    with pytest.raises(Exception, match="empty file: expected fixed-length MEASURE structured records"):
        list(binary_records.PARSER.parse(path, ctx))


def test_overflowed_32_bit_counter_takes_its_64_bit_twin(tmp_path):
    user_ddl = FIXTURES / "user_line_g06.ddl"
    layout = ddl.load_layouts([user_ddl])["line"]
    assert layout.record_length == 204 and layout.table == "measure_line"
    big = full_record("measure_line")
    big["input_bytes"] = 6_442_450_944  # 6 GiB in an hour: more than 32 bits hold
    raw = layout.encode(big)
    at = layout.by_name
    assert int.from_bytes(raw[at["input_bytes"].offset : at["input_bytes"].offset + 4], "big") == 4_294_967_295
    assert int.from_bytes(raw[at["input_bytes_f"].offset : at["input_bytes_f"].offset + 8], "big") == 6_442_450_944
    assert int.from_bytes(raw[78:80], "big", signed=True) == -1  # ERROR -1 in the header
    path = tmp_path / "line.dat"
    binary_records.write_records(path, layout, [full_record("measure_line"), big])
    con, result = ingest(tmp_path, path, ddl_paths=[user_ddl])
    assert (result.status, result.rows_loaded) == ("loaded", 2)
    got = rows(con, "select error, input_bytes, input_bytes_f, output_bytes from raw.measure_line order by record_ordinal")
    assert got[0]["error"] == 0 and got[0]["input_bytes"] == full_record("measure_line")["input_bytes"]
    assert got[1] == {"error": -1, "input_bytes": 6_442_450_944, "input_bytes_f": 6_442_450_944, "output_bytes": big["output_bytes"]}


def test_without_the_user_ddl_the_legacy_line_file_fits_no_layout(tmp_path):
    layout = ddl.load_layouts([FIXTURES / "user_line_g06.ddl"])["line"]
    path = tmp_path / "line.dat"
    binary_records.write_records(path, layout, [full_record("measure_line", k) for k in range(4)])
    _, result = ingest(tmp_path, path)
    assert result.status == "rejected"
    assert "record headers appear every 204 bytes (offsets 0, 204, 408, ...) but no known layout is 204 bytes long" in result.error


def test_file_name_settles_a_tie_between_layouts_of_equal_length(tmp_path):
    twin = tmp_path / "foo.ddl"
    twin.write_text("RECORD zmsfoo.\n02 hdr type zmsheader.\n02 foo-count type binary 64 occurs 24 times.\nend\n")
    records = [full_record("measure_cpu", k) for k in range(2)]
    for name, expected in (("zmscpu.0207", "measure_cpu"), ("FOO-0207.DAT", "measure_foo")):
        path = tmp_path / name
        binary_records.write_records(path, "zmscpu", records)
        ctx = ParseContext(path, options={"ddl_paths": [twin]})
        assert {b.table for b in binary_records.PARSER.parse(path, ctx)} == {expected}
    path = tmp_path / "data0207.bin"
    binary_records.write_records(path, "zmscpu", records)
    _, result = ingest(tmp_path, path, ddl_paths=[twin])
    assert result.status == "rejected"
    assert "fits several MEASURE record layouts equally well (zmscpu, zmsfoo)" in result.error


def test_content_not_the_name_decides_between_different_lengths(tmp_path):
    path = tmp_path / "cpu.dat"  # misleading name: the records are DISC records
    binary_records.write_records(path, "zmsdisc", [full_record("measure_disc", k) for k in range(2)])
    con, result = ingest(tmp_path, path)
    assert (result.status, result.rows_loaded) == ("loaded", 2)
    [row] = rows(con, "select cache_hits, c0_hits, c1_hits from raw.measure_disc where record_ordinal = 0")
    assert row == {"cache_hits": full_record("measure_disc")["cache_hits"], "c0_hits": full_record("measure_disc")["cache_hits"], "c1_hits": 0}


def test_cache_group_is_summed_over_block_sizes(tmp_path):
    record = full_record("measure_disc")
    del record["cache_hits"], record["cache_misses"]
    record.update({"c0_hits": 5, "c1_hits": 7, "c2_hits": 11, "c3_hits": 13, "c0_misses": 1, "c3_misses": 2})
    path = tmp_path / "zmsdisc"
    binary_records.write_records(path, "zmsdisc", [record])
    con, _ = ingest(tmp_path, path)
    assert rows(con, "select cache_hits, cache_misses from raw.measure_disc") == [{"cache_hits": 36, "cache_misses": 3}]


def test_text_items_are_trimmed_and_system_name_gets_one_backslash(tmp_path):
    record = full_record("measure_process")
    record.update({"system_name": "TAHITI", "loadid": "", "process_name": "", "os_version": None})
    path = tmp_path / "zmsproc"
    binary_records.write_records(path, "zmsproc", [record])
    con, _ = ingest(tmp_path, path)
    [row] = rows(con, "select system_name, loadid, process_name, os_version, program_file_name, userid from raw.measure_process")
    assert row == {
        "system_name": "\\TAHITI",
        "loadid": None,
        "process_name": None,
        "os_version": None,
        "program_file_name": "$SYSTEM.SYS01.LHOBJ",
        "userid": "255,255",
    }


def test_a_file_larger_than_the_sample_is_checked_at_its_end_too(tmp_path, monkeypatch):
    monkeypatch.setattr(binary_records, "SAMPLE_BYTES", 4 * 272)
    monkeypatch.setattr(binary_records, "TAIL_RECORDS", 4)
    records = [full_record("measure_cpu", k) for k in range(12)]
    records[11]["from_timestamp"] = datetime(1901, 1, 1)  # a bad last record does not hide the layout
    path = tmp_path / "zmscpu"
    binary_records.write_records(path, "zmscpu", records)
    con, result = ingest(tmp_path, path)
    assert (result.rows_loaded, result.rows_rejected) == (11, 1)
    [reject] = rows(con, "select reason from raw.rejects")
    assert reject["reason"].startswith("record at offset 2992: implausible zmscpu header: from-timestamp ")
    # the same records, 4 bytes longer each from the fifth on: the sample fits zmscpu, the end does not
    layout = ddl.load_layouts()["zmscpu"]
    path = tmp_path / "mixed.dat"
    path.write_bytes(b"".join(layout.encode(r) + (b"\0" * 4 if k >= 4 else b"") for k, r in enumerate(records)))
    _, result = ingest(tmp_path, path)
    assert result.status == "rejected"
    assert result.error == (
        "no MEASURE record layout fits this 3296-byte file: it starts with 272-byte zmscpu records, but the "
        "records from offset 2176 on have no plausible headers at that length (several files joined, or a damaged "
        "file?) (at offset 2176)"
    )
