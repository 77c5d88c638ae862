"""Delimited MEASURE structured records: sniff, entity recognition, conversion, rejects, writer."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ingest.formats import registry
from ingest.formats.base import ParseContext
from ingest.formats.measure import csv_records, normalize
from ingest.formats.measure.ddl import snake
from ingest.home import Home
from ingest.warehouse import database, loading

FIXTURES = Path(__file__).parents[1] / "fixtures" / "measure"


def ingest(tmp_path: Path, path: Path):
    home = Home(tmp_path / "home").create()
    con = database.connect(home)
    return con, loading.ingest_file(con, path)


def rows(con, sql: str) -> list[dict]:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


@pytest.mark.parametrize(
    "name, table",
    [
        ("cpu_expand.csv", "measure_cpu"),
        ("line_x25.csv", "measure_line"),
        ("userdef_buyer.csv", "measure_userdef"),
        ("process_tahiti.csv", "measure_process"),
    ],
)
def test_sniffed_as_measure_csv_and_entity_recognised(name, table):
    path = FIXTURES / name
    assert registry.sniff(path.read_bytes(), "export.txt").format == "measure.csv"
    header = csv_records._header(path.read_text())
    assert csv_records.identify_table([snake(n) for n in header[2]], "export.txt") == table


def test_cpu_columns_in_any_order_unknown_column_and_a_bad_counter(tmp_path):
    con, result = ingest(tmp_path, FIXTURES / "cpu_expand.csv")
    assert (result.status, result.format) == ("loaded_with_rejects", "measure.csv")
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (4, 3, 1)
    [reject] = rows(con, "select line_number, record_ordinal, reason, raw_bytes from raw.rejects")
    assert reject["reason"] == "line 4: CPU-BUSY-TIME: expected an integer, found 'n/a'"
    assert (reject["line_number"], reject["record_ordinal"]) == (4, 2)
    assert reject["raw_bytes"].startswith(b"n/a,\\TAHITI,1,")
    got = rows(con, "select * from raw.measure_cpu order by cpu_num")
    assert [r["cpu_num"] for r in got] == [0, 2, 3]
    cpu2 = got[1]
    # Expand manual Example 20-5 (CPU 2 of \TAHITI), raw units
    assert cpu2["from_timestamp"] == datetime(1997, 2, 7, 12, 3, 32)  # Julian 211722077012000000
    assert cpu2["to_timestamp"] == datetime(1997, 2, 7, 12, 4, 15, 600000)
    assert (cpu2["system_name"], cpu2["loadid"], cpu2["os_version"], cpu2["error"]) == ("\\TAHITI", "DT0381", "G06", 0)
    assert (cpu2["memory_pages"], cpu2["pcbs"], cpu2["cpu_qlen_max"], cpu2["mem_qlen_max"]) == (8192, 1800, 23, 5)
    assert round(100 * cpu2["cpu_busy_time"] / cpu2["delta_time"], 2) == 3.51
    assert round(100 * cpu2["intr_busy_time"] / cpu2["delta_time"], 2) == 1.02
    assert round(cpu2["cpu_qtime"] / cpu2["delta_time"], 2) == 0.04
    assert cpu2["ending_free_mem"] == 4856
    assert cpu2["site_rack"] == "R12"  # unknown column kept as text
    assert cpu2["swaps"] is None  # contract column absent from the export: NULL
    # an ISO timestamp reads the same as the Julian one
    assert got[2]["from_timestamp"] == cpu2["from_timestamp"] and got[2]["to_timestamp"] == cpu2["to_timestamp"]
    assert [r["record_ordinal"] for r in got] == [3, 0, 1]
    types = dict(con.execute("select column_name, data_type from information_schema.columns where table_name = 'measure_cpu'").fetchall())
    assert (types["cpu_num"], types["cpu_busy_time"], types["from_timestamp"], types["site_rack"]) == ("INTEGER", "BIGINT", "TIMESTAMP", "VARCHAR")


def test_overflow_row_takes_the_f_value_and_a_short_row_is_rejected(tmp_path):
    con, result = ingest(tmp_path, FIXTURES / "line_x25.csv")
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (4, 3, 1)
    [reject] = rows(con, "select line_number, reason from raw.rejects")
    assert reject == {"line_number": 4, "reason": "line 4: expected 23 fields separated by ';', found 11"}
    got = {r["device_name"]: r for r in rows(con, "select * from raw.measure_line")}
    big = got["$X25BIG"]
    assert (big["error"], big["input_bytes"], big["input_bytes_f"]) == (-1, 6_442_450_944, 6_442_450_944)
    assert big["output_bytes"] == 3_100_000_000  # no -F twin in the export: kept as read
    slow = got["$X25SLO"]
    assert (slow["input_bytes"], slow["input_bytes_f"]) == (64_000, None)  # empty cell = NULL
    assert got["$X25TAH"]["input_data_bytes"] is None
    # an hourly interval: 720 s of 3600 s read busy = 20 %
    assert 100 * got["$X25TAH"]["read_busy_time"] / got["$X25TAH"]["delta_time"] == 20.0


def test_userdef_sample_of_the_users_guide(tmp_path):
    """Measure User's Guide p.5-8: TRANSACTIONS 0.28/s, TIMEPER 87.48 % busy, WAITING AQL 0.87, max 1."""
    con, result = ingest(tmp_path, FIXTURES / "userdef_buyer.csv")
    assert (result.status, result.rows_loaded) == ("loaded", 4)
    got = rows(con, "select * from raw.measure_userdef order by record_ordinal")
    first = got[0]
    assert first["from_timestamp"] == datetime(1990, 11, 8, 14, 49, 27)
    assert (first["system_name"], first["cpu_num"], first["pin"], first["priority"]) == ("\\BUYER", 4, 45, 140)
    assert (first["program_file_name"], first["userid"], first["process_name"]) == ("$WORK.APPL.BILLING", "255,255", None)
    assert [(r["name"], r["type"], r["index"]) for r in got] == [
        ("TRANSACTIONS", 1, 0), ("TRANSACTIONS", 1, 1), ("TIMEPER", 2, 0), ("WAITING", 3, 0),
    ]
    seconds = first["delta_time"] / 1e6
    assert round(got[0]["counter_value"] / seconds, 2) == 0.28
    assert round(100 * got[2]["counter_value"] / got[2]["delta_time"], 1) == 87.5
    assert int(100 * got[3]["counter_value"] / got[3]["delta_time"]) / 100 == 0.87
    assert got[3]["max_value"] == 1
    assert "value" not in got[0]  # folded into counter_value


def test_process_sample_of_the_expand_manual(tmp_path):
    con, _ = ingest(tmp_path, FIXTURES / "process_tahiti.csv")
    [row] = rows(con, "select * from raw.measure_process")
    assert (row["cpu_num"], row["pin"], row["process_name"], row["priority"]) == (3, 14, "$B30S", 199)
    assert (row["program_file_name"], row["userid"]) == ("$SYSTEM.SYS01.LHOBJ", "255,255")
    assert row["to_timestamp"] - row["from_timestamp"] == timedelta(minutes=3.3)
    assert round(100 * row["cpu_busy_time"] / row["delta_time"], 2) == 31.20
    assert round(100 * row["ready_time"] / row["delta_time"], 2) == 45.73
    assert round(row["messages_sent"] / 198, 2) == 138.36
    assert round(row["pres_pages_qtime"] / row["delta_time"]) == 315  # unknown numeric column: BIGINT
    assert row["pres_pages_max"] == 315


def test_empty_file_and_header_only_file(tmp_path):
    empty = tmp_path / "cpu.csv"
    empty.write_bytes(b"")
    con, result = ingest(tmp_path, empty)
    assert (result.status, result.error) == ("rejected", "empty file: expected at least one record (at start of file)")
    header_only = tmp_path / "cpu_header.csv"
    header_only.write_text("system-name;cpu-num;from-timestamp;to-timestamp;delta-time;cpu-busy-time;cpu-qtime")
    result = loading.ingest_file(con, header_only)
    assert (result.status, result.format, result.records_read, result.rows_loaded) == ("rejected", "measure.csv", 1, 0)
    assert result.error.startswith("no records: ")


def test_missing_required_item_and_unknown_entity_reject_the_file(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text("system-name,cpu-num,from-timestamp,to-timestamp,delta-time\n\\T,1,1,2,3\n")
    con, result = ingest(tmp_path, path)
    assert result.status == "rejected"
    assert result.error.startswith("cannot tell the MEASURE entity from the header") and result.error.endswith("(at line 1)")
    path = tmp_path / "cpu.csv"
    path.write_text("cpu-num,from-timestamp,to-timestamp,delta-time,cpu-busy-time,cpu-num\n")
    with pytest.raises(Exception, match="header names the same item twice: cpu_num"):
        list(csv_records.PARSER.parse(path, ParseContext(path)))


def test_required_items_and_timestamps_are_checked_per_row(tmp_path):
    path = tmp_path / "cpu.csv"
    path.write_text(
        # cpu-qtime: a CPU item only, so that the header names the CPU entity (a PROCESS record needs its pin)
        "system-name|cpu-num|from-timestamp|to-timestamp|delta-time|cpu-busy-time|cpu-qtime\n"
        "\\T|0|1997-02-07 12:00:00|1997-02-07 13:00:00|3600000000|1|0\n"
        "\\T|1|yesterday|1997-02-07 13:00:00|3600000000|2|0\n"
        "\\T|2|1997-02-07 12:00:00|1997-02-07 13:00:00||3|0\n"
        "\n"
        "\\T|99999999999|1997-02-07 12:00:00|1997-02-07 13:00:00|3600000000|4|0\n"
    )
    con, result = ingest(tmp_path, path)
    assert (result.records_read, result.rows_loaded, result.rows_rejected) == (4, 1, 3)
    assert [r["reason"] for r in rows(con, "select reason from raw.rejects order by line_number")] == [
        "line 3: from-timestamp: expected a Julian timestamp (µs) or an ISO date and time (the item is required), found 'yesterday'",
        "line 4: delta-time: expected an integer (the item is required), found nothing",
        "line 6: cpu-num: expected an integer, found '99999999999'",
    ]


def test_written_csv_reads_back_the_same_records(tmp_path):
    t0 = datetime(1997, 2, 7, 12)
    records = [
        {
            "system_name": "\\TAHITI", "cpu_num": 1, "loadid": "DT0381", "from_timestamp": t0,
            "to_timestamp": t0 + timedelta(hours=1), "delta_time": 3_600_000_000, "error": 0, "os_version": "G06",
            "pin": 45 + k, "process_name": "$APP", "program_file_name": "$DATA.APPL.SERVER", "priority": 150,
            "name": "RESP-TIME", "type": 3, "index": k, "max_value": 4, "counter_value": 1_800_000_000 + k,
        }
        for k in range(3)
    ]
    for julian_timestamps in (False, True):
        path = tmp_path / f"userdef_{julian_timestamps}.csv"
        assert csv_records.write_csv(path, "measure_userdef", records, julian_timestamps=julian_timestamps) == 3
        header = path.read_text().splitlines()[0]
        assert header.startswith("system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,os-version,pin,")
        assert header.endswith(",max-value,value")
        home = Home(tmp_path / f"home{julian_timestamps}").create()
        con = database.connect(home)
        assert loading.ingest_file(con, path).rows_loaded == 3
        got = rows(con, "select * from raw.measure_userdef order by record_ordinal")
        for want, row in zip(records, got):
            assert {k: row[k] for k in want} == want
    assert list(normalize.contract_columns("measure_userdef"))[:3] == ["record_ordinal", "source_form", "system_name"]


def test_large_file_streams_in_batches(tmp_path, monkeypatch):
    monkeypatch.setattr(csv_records, "BLOCK_BYTES", 4096)
    source = (FIXTURES / "line_x25.csv").read_text().splitlines()
    good = [line for line in source[1:] if line.count(";") == 22]
    lines = [source[0]] + [good[i % len(good)] for i in range(600)] + [source[3]]
    path = tmp_path / "line.csv"
    path.write_text("\n".join(lines) + "\n")
    batches = list(csv_records.PARSER.parse(path, ctx := ParseContext(path)))
    assert len(batches) > 1
    assert sum(b.rows.num_rows for b in batches) == 600
    assert [r.line for r in ctx.rejects] == [602] and ctx.records_read == 601
    ordinals = [o for b in batches for o in b.rows.column("record_ordinal").to_pylist()]
    assert ordinals == list(range(600))
