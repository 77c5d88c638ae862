"""SMF dumps through the real loader: bad input gives clear errors with offsets, accounting holds."""

from __future__ import annotations

import datetime as dt

import pytest

from ingest import pipeline
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import smf as gen
from ingest.home import Home
from ingest.intake.result import FileResult
from ingest.warehouse import database, loading
import read_only_db
from smf_dumps import load_hex, patched


FIXTURE1 = load_hex("fixture1_smf70_1_two_cps.hex")  # 672 bytes, 6 rows
FIXTURE2 = load_hex("fixture2_smf119_70_ftp_stor.hex")  # 380 bytes, 1 row


@pytest.fixture()
def home(tmp_path) -> Home:
    return Home(tmp_path / "home").create()


def ingest(home: Home, name: str, data: bytes, **kw) -> FileResult:
    path = home.landing / name
    path.write_bytes(data)
    con = database.connect(home)
    try:
        return loading.ingest_file(con, path, **kw)
    finally:
        con.close()


def query(home: Home, sql: str) -> list[tuple]:
    return read_only_db.rows(home.db_path, sql)


def test_every_kind_of_damage_is_rejected_with_its_offset_and_the_rest_loads(home):
    bad_date = patched(FIXTURE2, 10, bytes.fromhex("0124999F"))  # day 999
    bad_triplet = patched(FIXTURE2, 52, (400).to_bytes(4, "big"))  # S3 (file name) at 400: beyond the 380-byte record
    dump = (FIXTURE1 + bad_date + FIXTURE2 + bytes([0xFF]) * 21 + FIXTURE2 + bad_triplet + FIXTURE1
            + FIXTURE2[:100])  # truncated last record
    result = ingest(home, "damaged.smf", dump)
    assert result.status == "loaded_with_rejects"
    # 4 good records (two 70.1 of six rows each, two 119.70) and 4 rejects
    assert (result.records_read, result.records_loaded, result.rows_loaded, result.rows_rejected, result.rows_skipped) == (
        8, 4, 14, 4, 0)
    assert query(home, "select byte_offset, record_ordinal, reason from raw.rejects order by byte_offset") == [
        (672, 1, "record at offset 672 (type 119.70): header date SMFxxDTE at record offset 10 is X'0124999F', "
                 "not a packed date 0cyydddF"),
        (1432, 3, "offset 1432: expected an RDW (length >= 18, segment code 0-3, X'00'), found X'FFFFFFFF'; "
                  "21 unreadable bytes skipped, resynchronised at offset 1453"),
        (1833, 5, "record at offset 1833 (type 119.70): triplet SMF119S3Off at record offset 52 points to 1 section(s) "
                  "of 18 bytes at offset 400, ending at 418, outside the record (data from 28 to 380)"),
        (2885, 7, "record at offset 2885: its RDW says 380 bytes but only 100 bytes are left in the file "
                  "(truncated transfer?)"),
    ]
    # the records around every bad one loaded
    assert query(home, "select byte_offset from raw.smf119_ftp_transfer order by 1") == [(1052,), (1453,)]
    assert query(home, "select byte_offset from raw.smf70_cpu_control order by 1") == [(0,), (2213,)]
    assert query(home, "select records_read, records_loaded + rows_rejected + rows_skipped from raw.ingest_files") == [(8, 8)]


def test_rdw_stripped_transfer_is_rejected_with_advice(home):
    result = ingest(home, "no_rdw.bin", FIXTURE1[4:] + FIXTURE2[4:])
    assert result.status == "rejected" and result.format == "smf.binary"
    assert "transferred in binary without SITE RDW" in result.error and result.error.endswith("(at offset 0)")


def test_a_file_that_is_not_smf_at_all(home):
    result = ingest(home, "notes.txt", b"this is a text file, not an SMF dump\n" * 3, format_name="smf.binary")
    assert result.status == "rejected"
    assert result.error.startswith("not SMF data: expected an RDW") and result.error.endswith("(at offset 0)")
    assert query(home, "select byte_offset, reason like 'not SMF data%' from raw.rejects") == [(0, True)]


def test_generated_dumps_load_once_and_count_what_the_plan_wrote(home):
    day = dt.date(2026, 1, 7)
    paths = gen.generate(home.landing, ["SYSA", "SYSB"], day, 1, seed=11, forms={"SYSA": "vb", "SYSB": "vbs"})
    results = pipeline.ingest_paths(home, paths)
    again = pipeline.ingest_paths(home, paths)
    assert [r.status for r in results] == ["loaded", "loaded"] and [r.status for r in again] == ["duplicate"] * 2
    plans = [smf_plan.plan_day(sid, day, seed=11) for sid in ("SYSA", "SYSB")]
    assert query(home, "select count(*) from raw.smf70_cpu") == [(sum(len(iv.cpus) for p in plans for iv in p.rmf),)]
    assert query(home, "select count(*) from raw.smf30_work") == [(sum(len(p.work) for p in plans),)]
    assert query(home, "select count(*), sum(transfer_bytes) from raw.smf119_ftp_transfer") == [
        (sum(len(p.ftp) for p in plans), sum(f.transfer_bytes for p in plans for f in p.ftp))]
    assert query(home, "select count(*) from raw.smf_unparsed") == [(sum(len(p.other) for p in plans),)]
    skipped = sum(r.rows_skipped for r in results)
    assert skipped == sum(len(p.other) for p in plans)
    assert all(r.records_read == r.records_loaded + r.rows_skipped for r in results)


def test_vbs_segment_longer_than_its_block_skips_only_that_block(home):
    def block(*segments: bytes) -> bytes:
        body = b"".join(segments)
        return (4 + len(body)).to_bytes(2, "big") + b"\x00\x00" + body

    too_long = (500).to_bytes(2, "big") + FIXTURE2[2:]  # says 500 bytes, the block holds 380
    result = ingest(home, "blocks.vbs", block(FIXTURE1) + block(too_long) + block(FIXTURE1))
    assert (result.status, result.rows_loaded, result.rows_rejected) == ("loaded_with_rejects", 12, 1)
    assert query(home, "select byte_offset, reason from raw.rejects") == [
        (680, "segment descriptor at offset 680 is not valid (X'01F40000', 380 bytes left in the block): rest of the block skipped")]
