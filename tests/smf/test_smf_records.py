"""Framing: VB and VBS detection, spanned-record reassembly (fixture 3), damaged descriptors."""

from __future__ import annotations

import io

import pytest

from ingest.formats.base import FormatError, ParseContext
from ingest.formats.smf import records
from ingest.formats.smf.parser import PARSER
from ingest.formats.smf.records import Framer, detect_form
from smf_dumps import load_hex


FIXTURE1 = load_hex("fixture1_smf70_1_two_cps.hex")
FIXTURE2 = load_hex("fixture2_smf119_70_ftp_stor.hex")


def bdw(length: int) -> bytes:
    return length.to_bytes(2, "big") + b"\x00\x00"


def sdw(length: int, code: int) -> bytes:
    return length.to_bytes(2, "big") + bytes([code, 0])


def fixture3() -> bytes:
    """Fixture 2's 376 data bytes as three VBS blocks of 150 / 150 / 76 bytes (README.md §6)."""
    data = FIXTURE2[4:]
    return (bdw(158) + sdw(154, 0b01) + data[:150]
            + bdw(158) + sdw(154, 0b11) + data[150:300]
            + bdw(84) + sdw(80, 0b10) + data[300:])


def frame(data: bytes, form: str):
    out, rejects = [], []
    for batch, rej in Framer(form).frame(io.BytesIO(data)):
        out += [batch.record_bytes(i) for i in range(len(batch))]
        rejects += rej
    return out, rejects


def test_fixture_sizes_match_the_spec():
    assert len(FIXTURE1) == 672 and FIXTURE1[:4] == bytes.fromhex("02A00000")
    assert len(FIXTURE2) == 380 and FIXTURE2[:4] == bytes.fromhex("017C0000")


def test_fixture3_vbs_blocks_reassemble_byte_exactly():
    data = fixture3()
    assert len(data) == 400
    assert data[:8] == bytes.fromhex("009E0000009A0100")
    assert detect_form(data) == records.FORM_VBS
    out, rejects = frame(data, records.FORM_VBS)
    assert rejects == []
    assert out == [FIXTURE2]  # rebuilt RDW 017C0000, then the 376 data bytes


def test_vb_detected_and_records_split_on_their_rdws():
    assert detect_form(FIXTURE1 + FIXTURE2) == records.FORM_VB
    out, rejects = frame(FIXTURE1 + FIXTURE2 + FIXTURE1, records.FORM_VB)
    assert out == [FIXTURE1, FIXTURE2, FIXTURE1] and rejects == []


def test_rdw_stream_honours_segment_bits():
    data = FIXTURE2[4:]
    stream = FIXTURE1 + sdw(104, 0b01) + data[:100] + sdw(280, 0b10) + data[100:] + FIXTURE1
    out, rejects = frame(stream, records.FORM_VB)
    assert out == [FIXTURE1, FIXTURE2, FIXTURE1] and rejects == []


def test_middle_segment_without_first_is_rejected_and_the_next_record_loads():
    data = FIXTURE2[4:]
    stream = bdw(158) + sdw(154, 0b11) + data[:150] + bdw(4 + 672) + FIXTURE1
    out, rejects = frame(stream, records.FORM_VBS)
    assert out == [FIXTURE1]
    assert [(r.offset, r.reason) for r in rejects] == [
        (4, "segment at offset 4 is a middle segment (code 11) but no first segment (01) came before it")
    ]


def test_null_segment_ends_the_block_and_padding_is_skipped():
    stream = bdw(4 + 380 + 4 + 60) + FIXTURE2 + b"\x80\x00\x00\x00" + bytes(60) + bdw(4 + 672) + FIXTURE1
    out, rejects = frame(stream, records.FORM_VBS)
    assert out == [FIXTURE2, FIXTURE1] and rejects == []


def test_block_with_a_complete_record_then_a_first_segment():
    data = FIXTURE2[4:]
    stream = (bdw(4 + 672 + 4 + 200) + FIXTURE1 + sdw(204, 0b01) + data[:200]
              + bdw(4 + 4 + 176) + sdw(180, 0b10) + data[200:])
    out, rejects = frame(stream, records.FORM_VBS)
    assert out == [FIXTURE1, FIXTURE2] and rejects == []


def test_reassembly_across_read_chunks(monkeypatch):
    monkeypatch.setattr(records, "CHUNK_BYTES", 97)  # every record and block straddles a chunk boundary
    out, rejects = frame(fixture3() + fixture3(), records.FORM_VBS)
    assert out == [FIXTURE2, FIXTURE2] and rejects == []
    out, rejects = frame(FIXTURE1 + FIXTURE2 + FIXTURE1, records.FORM_VB)
    assert out == [FIXTURE1, FIXTURE2, FIXTURE1] and rejects == []


def test_smf_without_rdws_is_rejected_with_advice():
    with pytest.raises(FormatError) as e:
        detect_form(FIXTURE1[4:] + FIXTURE2[4:])
    assert e.value.offset == 0
    assert "without record descriptor words" in str(e.value) and "SITE RDW" in str(e.value)
    assert PARSER.sniff(FIXTURE1[4:], "dump.bin")  # claimed, so parse() can say what is wrong


def test_a_file_that_is_not_smf():
    text = b"Active Internet connections (w/o servers)\nProto Recv-Q Send-Q Local Address\n"
    with pytest.raises(FormatError) as e:
        detect_form(text)
    assert e.value.offset == 0 and str(e.value).startswith("not SMF data: expected an RDW")
    assert not PARSER.sniff(text, "netstat.out")


def test_truncated_last_record(tmp_path):
    out, rejects = frame(FIXTURE1 + FIXTURE2[:200], records.FORM_VB)
    assert out == [FIXTURE1]
    assert [(r.offset, r.reason, len(r.raw)) for r in rejects] == [
        (672, "record at offset 672: its RDW says 380 bytes but only 200 bytes are left in the file (truncated transfer?)", 200)
    ]


def test_unreadable_bytes_are_skipped_to_the_next_safe_rdw():
    garbage = bytes([0xFF]) * 37
    out, rejects = frame(FIXTURE1 + garbage + FIXTURE2 + FIXTURE1, records.FORM_VB)
    assert out == [FIXTURE1, FIXTURE2, FIXTURE1]
    assert len(rejects) == 1 and rejects[0].offset == 672 and rejects[0].raw == garbage
    assert rejects[0].reason == (
        "offset 672: expected an RDW (length >= 18, segment code 0-3, X'00'), found X'FFFFFFFF'; "
        "37 unreadable bytes skipped, resynchronised at offset 709"
    )


def test_parser_ordinals_and_accounting_count_framing_rejects(tmp_path):
    path = tmp_path / "damaged.smf"
    path.write_bytes(FIXTURE2 + bytes([0xFF]) * 10 + FIXTURE2)
    ctx = ParseContext(path)
    ordinals = [o for b in PARSER.parse(path, ctx) for o in b.rows.column("record_ordinal").to_pylist()]
    assert ordinals == [0, 2]
    assert [(r.offset, r.record_ordinal) for r in ctx.rejects] == [(380, 1)]
    assert ctx.records_read == 3
