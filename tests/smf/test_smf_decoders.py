"""A new SMF record type is one decoder module in ``parser.DECODERS``: its records land in the raw table it
declares, created from that declaration, and no longer in ``smf_unparsed``.

The toy type 250 (subtype 1) is built here byte by byte: RDW, the 24-byte standard header, then a 4-byte
count of widgets at offset 24 and an 8-byte EBCDIC widget name at offset 28.
"""

from __future__ import annotations

import struct
import types

import numpy as np
import pyarrow as pa
import pytest

from ingest.formats.smf import headers, parser
from ingest.formats.smf.fields import columns, decode_fields
from ingest.formats.smf.tables import smf_table
from ingest.home import Home
from ingest.intake.result import FileResult
from ingest.warehouse.database import connect
from ingest.warehouse.loading import ingest_file

WIDGETS = [  # the toy record's field table
    ("widgets", 24, 4, "int", "Widgets made in the interval."),
    ("widget_name", 28, 8, "text", "Name of the widget line."),
]


def _decode(batch, header, rows: np.ndarray) -> headers.Decoded:
    whole = headers.whole_records(batch).take(rows)
    rows_out = pa.table({**headers.common_columns(batch, header, rows), **decode_fields(whole, WIDGETS)})
    return headers.Decoded({"smf250_widgets": rows_out}, [], len(rows))


TOY = types.ModuleType("smf250")
TOY.RECORD_TYPE, TOY.SUBTYPES = 250, (1,)
TOY.TABLES = (smf_table("smf250_widgets", "One row per toy SMF 250.1 record.", columns(WIDGETS), ("system_id", "record_time")),)
TOY.decode = _decode


def record(subtype: int, hundredths: int, widgets: int, name: str) -> bytes:
    """One RDW-prefixed record of type 250 written 2026-01-05 (packed 0126005F) by system SYSA."""
    body = struct.pack(">BBI4s4s4sH", 0x5E, 250, hundredths, bytes.fromhex("0126005F"), "SYSA".encode("cp037"),
                       "TOYS".encode("cp037"), subtype)
    body += struct.pack(">I", widgets) + name.ljust(8).encode("cp037")
    return struct.pack(">HH", len(body) + 4, 0) + body


DUMP = b"".join([
    record(1, 3_600_000, 12, "GEARS"),  # 10:00:00.00
    record(1, 3_690_000, 7, "SPROCKET"),  # 10:15:00.00
    record(2, 3_780_000, 99, "OTHER"),  # subtype 2: no decoder claims it
    record(1, 3_870_000, 0, ""),  # 10:45:00.00, a blank name
])


def ingest_dump(home: Home) -> FileResult:
    (home.landing / "toys.smf").write_bytes(DUMP)
    con = connect(home)
    try:
        return ingest_file(con, home.landing / "toys.smf")
    finally:
        con.close()


def rows(home: Home, sql: str) -> list[tuple]:
    con = connect(home)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_without_a_decoder_the_toy_records_are_kept_verbatim(tmp_path):
    home = Home(tmp_path).create()
    result = ingest_dump(home)
    assert (result.status, result.records_read, result.records_loaded, result.rows_skipped) == ("loaded", 4, 0, 4)
    assert rows(home, "select record_type, record_subtype, record_length from raw.smf_unparsed order by record_ordinal") == [
        (250, 1, 36), (250, 1, 36), (250, 2, 36), (250, 1, 36)]


def test_a_registered_decoder_module_gets_its_records_into_its_declared_table(tmp_path, monkeypatch):
    monkeypatch.setattr(parser, "DECODERS", [*parser.DECODERS, TOY])
    home = Home(tmp_path).create()
    # the table exists, from its declaration, before any record of the type arrives
    assert rows(home, "select column_name, data_type from duckdb_columns() where table_name = 'smf250_widgets' "
                      "order by column_index") == [
        ("source_file_id", "BIGINT"), ("record_ordinal", "BIGINT"), ("byte_offset", "BIGINT"), ("system_id", "VARCHAR"),
        ("record_time", "TIMESTAMP"), ("widgets", "BIGINT"), ("widget_name", "VARCHAR")]
    result = ingest_dump(home)
    assert (result.status, result.records_read, result.records_loaded, result.rows_skipped) == ("loaded", 4, 3, 1)
    assert rows(home, "select record_ordinal, byte_offset, system_id, cast(record_time as varchar), widgets, widget_name "
                      "from raw.smf250_widgets order by record_ordinal") == [
        (0, 0, "SYSA", "2026-01-05 10:00:00", 12, "GEARS"),
        (1, 36, "SYSA", "2026-01-05 10:15:00", 7, "SPROCKET"),
        (3, 108, "SYSA", "2026-01-05 10:45:00", 0, None),
    ]
    assert rows(home, "select record_ordinal, record_type, record_subtype from raw.smf_unparsed") == [(2, 250, 2)]


def test_a_decoder_that_writes_a_table_it_does_not_declare_fails_the_file(tmp_path, monkeypatch):
    undeclared = types.ModuleType("smf250_undeclared")
    undeclared.RECORD_TYPE, undeclared.SUBTYPES, undeclared.TABLES, undeclared.decode = 250, (1,), (), _decode
    monkeypatch.setattr(parser, "DECODERS", [*parser.DECODERS, undeclared])
    result = ingest_dump(Home(tmp_path).create())
    assert result.status == "failed"
    assert "parser smf.binary wrote raw.smf250_widgets, which it does not declare" in result.error


@pytest.mark.parametrize("decoder", parser.DECODERS, ids=lambda d: d.__name__.rsplit(".", 1)[-1])
def test_every_decoder_declares_what_it_claims(decoder):
    assert isinstance(decoder.RECORD_TYPE, int) and decoder.SUBTYPES and callable(decoder.decode)
    assert decoder.TABLES and all(t.family.name == "smf" for t in decoder.TABLES)
