"""MEASURE's TERMINAL entity (seed 001 L1134: the start time saved in the terminal's counter record, subtracted
from the transaction's end time) in the forms whose layout is published: the ZMS structured record of the
Measure Reference Manual (shipped DDL ``terminal.ddl``) and its CSV export. No LIST TERMINAL report sample is
published, so MEASCOM text keeps that listing verbatim (tests/measure/test_measure_meascom.py). Also the
generator's terminals (they share out their line's counts) and its INTERVAL 30 MINUTES days."""

from __future__ import annotations

import datetime as dt

from ingest.formats.measure import binary_records, csv_records
from ingest.generate import measure
from ingest.generate._measure_inventory import SystemSpec
from ingest.generate._measure_model import HOUR_US, MeasureModel
from ingest.home import Home
from ingest.warehouse import database, loading

DAY, HALF_DAY = dt.date(2026, 2, 9), dt.date(2026, 2, 10)
SPEC = SystemSpec("\\ATM", cpus=2, start=DAY, days=2, processes=6, discs=1, lines=2, seed=5,
                  terminals_per_line=(3, 14), half_hour_days=(HALF_DAY,))
SHARED = ("requests", "reads", "writes", "input_bytes", "output_bytes", "transactions", "response_time")


def loaded(tmp_path, path) -> list[dict]:
    con = database.connect(Home(tmp_path / "home").create())
    result = loading.ingest_file(con, path)
    assert (result.status, result.rows_rejected) == ("loaded", 0), result.messages
    cur = con.execute("select * from raw.measure_terminal order by record_ordinal")
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def test_terminal_records_round_trip_through_the_binary_record_and_the_csv_export(tmp_path):
    records = list(MeasureModel(SPEC).records("measure_terminal", DAY))
    assert len(records) == 24 * (3 + 14)
    binary, csv = tmp_path / "zmsterm", tmp_path / "terminal.csv"
    assert binary_records.write_records(binary, binary_records.LAYOUT_FOR_TABLE["measure_terminal"], records) == 408
    assert csv_records.write_csv(csv, "measure_terminal", records) == 408
    # the header row names the DDL's elementary items: line-name and subdev-name of the group terminal-name
    assert csv.read_text().splitlines()[0].split(",")[8:11] == ["line-name", "subdev-name", "logical-device"]
    for form, path in (("binary", binary), ("csv", csv)):
        rows = loaded(tmp_path / form, path)
        assert {r["source_form"] for r in rows} == {form}
        for want, row in zip(records, rows, strict=True):
            assert {c: row[c] for c in want} == want, form
    assert (records[0]["line_name"], records[0]["subdev_name"], records[-1]["subdev_name"]) == (
        "$X25L01", "#ATM01", "#ATM14")


def test_a_lines_terminals_share_out_its_counts():
    model = MeasureModel(SPEC)
    lines = list(model.records("measure_line", DAY))
    terminals = list(model.records("measure_terminal", DAY))
    for line in lines:
        mine = [t for t in terminals if t["line_name"] == line["device_name"] and t["from_timestamp"] == line["from_timestamp"]]
        assert len(mine) == {"$X25L01": 3, "$X25L02": 14}[line["device_name"]]
        assert {c: sum(t[c] for t in mine) for c in SHARED} == {c: line[c] for c in SHARED}
    # the line's transactions average the response time MEASURE's LINE entity gives (0.35 s and more)
    first = lines[0]
    assert first["response_time"] / first["transactions"] / 1e6 >= 0.35


def test_a_half_hour_day_halves_each_hour_and_keeps_its_levels():
    model = MeasureModel(SPEC)
    hourly = list(MeasureModel(SystemSpec(**{**SPEC.__dict__, "half_hour_days": ()})).records("measure_cpu", HALF_DAY))
    halves = list(model.records("measure_cpu", HALF_DAY))
    assert len(halves) == 2 * len(hourly) == 2 * 24 * 2
    assert {r["delta_time"] for r in halves} == {HOUR_US // 2}
    first, second = halves[0], halves[1]
    assert (first["from_timestamp"], first["to_timestamp"], second["from_timestamp"], second["to_timestamp"]) == (
        dt.datetime(2026, 2, 10, 0, 0), dt.datetime(2026, 2, 10, 0, 30), dt.datetime(2026, 2, 10, 0, 30),
        dt.datetime(2026, 2, 10, 1, 0))
    hour = hourly[0]
    assert first["cpu_busy_time"] + second["cpu_busy_time"] == hour["cpu_busy_time"]
    assert first["dispatches"] + second["dispatches"] == hour["dispatches"]
    # a level (the longest ready list, the free pages at the end) is what the hour saw, in both halves
    assert first["cpu_qlen_max"] == second["cpu_qlen_max"] == hour["cpu_qlen_max"]
    assert first["ending_free_mem"] == second["ending_free_mem"] == hour["ending_free_mem"]
    # the other day stays hourly
    assert {r["delta_time"] for r in model.records("measure_cpu", DAY)} == {HOUR_US}


def test_the_text_report_lists_no_terminal(tmp_path):
    written = measure.generate(SPEC, tmp_path, ["meascom", "binary"])
    names = {p.name for p in written}
    assert "zmsterm" in names
    text = (tmp_path / "meascom" / "ATM" / "2026-02-10" / "meascom-2026-02-10.txt").read_text()
    assert "LIST TERMINAL" not in text and "LIST LINE" in text
    assert "From 10 Feb 2026, 00:30:00 For 30.0 Minutes" in text
