"""SMF data types: header time/date (SAS SMFSTAMP8. vectors), packed decimal, TOD clock, HFP, EBCDIC, IP."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from ingest.formats.smf import ebcdic, fields, headers
from ingest.formats.smf.records import RecordBatch

SAS_EPOCH = dt.datetime(1960, 1, 1)


def _batch(*records: bytes) -> RecordBatch:
    buf = b"".join(records) + bytes(1024)
    lengths = np.array([len(r) for r in records], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    n = len(records)
    return RecordBatch(np.frombuffer(buf, dtype=np.uint8), starts, lengths, np.arange(n), starts)


def _header_record(tme_dte_hex: str, rtype: int = 14, sid: str = "SYSA") -> bytes:
    """An 18-byte record without subtypes whose TME and DTE are the 8 bytes given."""
    body = bytes([0x1E, rtype]) + bytes.fromhex(tme_dte_hex) + ebcdic.encode(sid, 4)
    return (4 + len(body)).to_bytes(2, "big") + b"\x00\x00" + body


def _m(hex_text: str, width: int) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(hex_text), dtype=np.uint8).reshape(-1, width)


@pytest.mark.parametrize(
    "stamp, expected, sas_seconds",
    [
        ("0058DC0C0098200F", dt.datetime(1998, 7, 19, 16, 10, 35), 1216483835),  # century digit 0: 19yy
        ("0058DC0C0108200F", dt.datetime(2008, 7, 18, 16, 10, 35), 1532016635),  # century digit 1: 20yy
    ],
)
def test_header_time_and_date_match_sas_smfstamp8_vectors(stamp, expected, sas_seconds):
    header = headers.decode_header(_batch(_header_record(stamp)))
    written = header.record_time[0].astype(dt.datetime)
    assert written == expected
    assert (written - SAS_EPOCH).total_seconds() == sas_seconds
    assert header.problem == [None]
    assert header.rtype.tolist() == [14]
    assert header.subtype.tolist() == [-1]  # SMFxxFLG X'40' off: no subtype
    assert header.sid.to_pylist() == ["SYSA"]


def test_bad_header_date_and_time_are_named_with_their_offset():
    header = headers.decode_header(_batch(
        _header_record("0058DC0C0124400F"),  # day 400
        _header_record("0083D6000124075F"),  # 8,640,000 hundredths: a whole day
        _header_record("0058DC0C0124075F"),
    ))
    assert header.problem[0] == "header date SMFxxDTE at record offset 10 is X'0124400F', not a packed date 0cyydddF"
    assert header.problem[1] == "header time SMFxxTME at record offset 6 is 8640000 hundredths of a second, more than a day"
    assert header.problem[2] is None


def test_packed_dates_leap_years_and_the_no_data_marker():
    days, ok, absent = fields.packed_date(_m("0124366F" "0123366F" "0000000F" "0124075C" "01A4075F", 4))
    assert ok.tolist() == [True, False, False, True, False]  # 2023 has no day 366; X'A' is no digit
    assert absent.tolist() == [False, False, True, False, False]  # X'0000000F': type 119 "no data"
    assert days[0] == np.datetime64("2024-12-31") and days[3] == np.datetime64("2024-03-15")


def test_packed_integers_and_rmf_interval_forms():
    values, ok = fields.packed_int(_m("1500000F" "0001000F" "0100000F" "0000123D" "00001A3F", 4))
    assert values[:4].tolist() == [1500000, 1000, 100000, -123]  # mmsstttF = 15 min; cycle 1000 ms; 10:00:00
    assert ok.tolist() == [True, True, True, True, False]


def test_tod_clock_epoch_constants_and_durations():
    stamps, ok = fields.stck_timestamp(_m("7D91048BCA000000" "B361183F48000000" "0000000000000000", 8), np.ones(3, bool))
    assert stamps[0] == np.datetime64("1970-01-01T00:00:00") and stamps[1] == np.datetime64("2000-01-01T00:00:00")
    assert ok.tolist() == [True, True, False]  # zero is "not set"
    s = fields.Sections(np.frombuffer(bytes.fromhex("00000000F4240000" "00000202FBF00000"), np.uint8),
                        np.array([0, 1]), np.array([0, 8]), np.array([8, 8]))
    assert s.tod_us_col(0).to_pylist() == [1_000_000, 540_000_000]  # 1 s; fixture 1 CPU 0 wait 540 s


def test_hex_floating_point():
    values = fields.hfp_long(_m("4610000000000000" "C610000000000000" "4080000000000000" "0000000000000000", 8))
    assert values.tolist() == [1_048_576.0, -1_048_576.0, 0.5, 0.0]


def test_cp037_and_ibm1047_differ_in_six_graphics():
    differ = {b for b in range(256) if ebcdic.CP037_TO_LATIN1[b] != ebcdic.CP1047_TO_LATIN1[b]}
    assert differ == {0x5F, 0xAD, 0xB0, 0xBA, 0xBB, 0xBD}
    raw = ebcdic.encode("/u/user1/a[1]^b", codepage="cp1047")
    assert raw[10] == 0xAD and raw[12] == 0xBD and raw[13] == 0x5F
    assert ebcdic.decode_name(raw) == "/u/user1/a[1]^b"  # a path: IBM-1047
    assert ebcdic.decode(raw, "cp037") == "/u/user1/aÝ1¨¬b"  # what cp037 would have made of it
    assert ebcdic.decode_name(ebcdic.encode("USER1.PAYROLL.DATA", 44)) == "USER1.PAYROLL.DATA"


def test_text_fields_are_trimmed_and_empty_is_null():
    m = np.frombuffer(ebcdic.encode("SYSA", 8) + ebcdic.encode("  CS V2R5", 9)[:8] + bytes(8) + ebcdic.encode("ÄÖ", 8), np.uint8)
    text = fields.text_array(m.reshape(4, 8), np.array([True, True, True, True]))
    assert text.to_pylist() == ["SYSA", "CS V2R", None, "ÄÖ"]


def test_ip_addresses_mapped_native_and_unset():
    m = _m("00000000000000000000FFFFC000020A" "20010DB8001000000000000000000001" + "00" * 16, 16)
    assert fields.ip_array(m, np.ones(3, bool)).to_pylist() == ["192.0.2.10", "2001:db8:10::1", None]


def test_field_beyond_its_section_is_null():
    buf = np.frombuffer(bytes(range(1, 41)), np.uint8)
    s = fields.Sections(buf, np.array([0, 1]), np.array([0, 20]), np.array([8, 4]))
    assert s.int_col(4, 4).to_pylist() == [0x05060708, None]  # second instance is only 4 bytes long
    assert s.int_col(0, 4).to_pylist() == [0x01020304, 0x15161718]
