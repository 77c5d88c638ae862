"""SMF 119: fixture 2 (FTP STOR) and its VBS split (fixture 3), TCP connections, interfaces, TN3270."""

from __future__ import annotations

import datetime as dt
import pytest

from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from smf_dumps import load_hex, parse, patched

PROFILE = smf_plan.profile_for("SYSA")


FIXTURE2 = load_hex("fixture2_smf119_70_ftp_stor.hex")


def fixture3() -> bytes:
    data = FIXTURE2[4:]
    return (bytes.fromhex("009E0000009A0100") + data[:150] + bytes.fromhex("009E0000009A0300") + data[150:300]
            + bytes.fromhex("0054000000500200") + data[300:])


FIXTURE2_ROW = {
    "record_ordinal": 0, "system_id": "SYSA", "record_time": dt.datetime(2024, 3, 15, 14, 30, 15, 250_000),
    "subsystem_id": "FTPS", "tcpip_system_name": "SYSA", "sysplex_name": "PLEX1", "stack_name": "TCPIP",
    "release_id": "CS V2R5", "component": "FTPS", "as_name": "FTPD1", "as_user_id": "FTPD", "asid": 0x41,
    "record_reason": 0x08, "operation_code": 5, "command": "STOR", "file_type": "SEQ",
    "data_remote_ip": "192.0.2.10", "data_local_ip": "198.51.100.5", "data_remote_port": 50001, "data_local_port": 20,
    "client_ip": "192.0.2.10", "server_ip": "198.51.100.5", "client_port": 50000, "server_port": 21,
    "user_id": "USER1", "data_type": "I", "transfer_mode": "S", "structure": "F", "dataset_type": "S",
    "start_time": dt.datetime(2024, 3, 15, 14, 30, 10), "end_time": dt.datetime(2024, 3, 15, 14, 30, 14, 500_000),
    "duration_us": 4_500_000, "transfer_bytes": 1_048_576, "last_reply": "250", "member_name": None,
    "member_name2": None, "transfer_bytes_float": 1_048_576.0, "control_connection_id": 0x1A2B,
    "data_connection_id": 0x1A2C, "session_id": "FTPD100004", "host_name": None, "file_name": "USER1.PAYROLL.DATA",
    "file_name2": None, "security_mechanism": "N", "control_protection": "N", "data_protection": "N",
    "login_method": "P", "protocol_level": None, "cipher_spec": None,
}


@pytest.mark.parametrize("data, offset", [(FIXTURE2, 0), (fixture3(), 4)], ids=["vb", "vbs"])
def test_fixture2_ftp_store_decodes_to_its_expected_values(tmp_path, data, offset):
    tables, ctx = parse(tmp_path, data)
    (row,) = tables["smf119_ftp_transfer"]
    assert {k: row[k] for k in FIXTURE2_ROW} == FIXTURE2_ROW
    assert row["byte_offset"] == offset  # the RDW, or the SDW of the first segment
    assert ctx.records_read == 1 and ctx.rejects == []


def test_tcp_connection_with_ipv6_and_64_bit_counters(tmp_path):
    start = dt.datetime(2026, 1, 6, 10, 0, 0)
    conn = smf_plan.Connection(local_port=443, remote_ip="2001:db8:10::5a", remote_port=50123, start=start,
                          end=start + dt.timedelta(seconds=75, milliseconds=250), in_bytes=5_000_000_000,
                          out_bytes=(1 << 33) + 7, active_open=False, connection_id=0x00ABCDEF)
    tables, ctx = parse(tmp_path, smf_records.connection_record(PROFILE, conn))
    (row,) = tables["smf119_tcp_connection"]
    assert {k: row[k] for k in ("remote_ip", "local_ip", "remote_port", "local_port", "in_bytes", "out_bytes",
                                "connection_id", "open_type", "component", "record_time")} == {
        "remote_ip": "2001:db8:10::5a", "local_ip": "198.51.100.11", "remote_port": 50123, "local_port": 443,
        "in_bytes": 5_000_000_000, "out_bytes": 8_589_934_599, "connection_id": 0xABCDEF, "open_type": 0,
        "component": "TCP", "record_time": dt.datetime(2026, 1, 6, 10, 1, 15, 250_000),
    }
    # the section clocks and the STCK pair are UTC (the system runs at UTC+1)
    assert row["start_time"] == dt.datetime(2026, 1, 6, 9, 0) == row["start_tod"]
    assert row["end_tod"] - row["start_tod"] == dt.timedelta(seconds=75, milliseconds=250)
    assert row["end_time"] == dt.datetime(2026, 1, 6, 9, 1, 15, 250_000)


def test_interface_statistics_one_row_per_interface(tmp_path):
    written = dt.datetime(2026, 1, 6, 11, 0)
    samples = [smf_plan.InterfaceSample(written, "OSAQDIO1", "IPAQENET", 6_000_000_000, 9_000_000_000, 7_000_000, 8_000_000, 2, 3),
               smf_plan.InterfaceSample(written, "IUTIQDIO", "IPAQIDIO", 1000, 2000, 10, 20, 0, 0)]
    tables, ctx = parse(tmp_path, smf_records.interface_record(PROFILE, samples))
    keys = ("section_index", "interface_name", "interface_type", "interval_us", "mtu_bytes", "in_bytes", "out_bytes",
            "in_unicast_packets", "out_unicast_packets", "in_errors", "out_discards", "component", "record_reason")
    assert [tuple(r[k] for k in keys) for r in tables["smf119_interface"]] == [
        (0, "OSAQDIO1", "IPAQENET", 3_600_000_000, 8992, 6_000_000_000, 9_000_000_000, 7_000_000, 8_000_000, 2, 3, "IP", 0x80),
        (1, "IUTIQDIO", "IPAQIDIO", 3_600_000_000, 57344, 1000, 2000, 10, 20, 0, 0, "IP", 0x80),
    ]
    assert ctx.records_read == 1  # one record, two rows


def test_ftp_retrieve_of_a_zos_unix_path_uses_ibm1047(tmp_path):
    transfer = smf_plan.FtpTransfer(4, "RETR", "SEQ", "USER1", "192.0.2.77", "/u/user1/exports/a[1].bin",
                               dt.datetime(2026, 1, 6, 9, 0), 250, 123_456_789)
    tables, _ = parse(tmp_path, smf_records.ftp_record(PROFILE, transfer))
    (row,) = tables["smf119_ftp_transfer"]
    assert (row["file_name"], row["operation_code"], row["transfer_bytes"], row["duration_us"]) == (
        "/u/user1/exports/a[1].bin", 4, 123_456_789, 2_500_000)
    assert row["transfer_bytes_float"] == pytest.approx(123_456_789, rel=1e-15)


def test_tn3270_session_start_and_end(tmp_path):
    session = smf_plan.Tn3270Session("TCPL0001", "CICSPRD1", "192.0.2.40", dt.datetime(2026, 1, 6, 8, 5),
                                dt.datetime(2026, 1, 6, 16, 35, 30), 123_456, 7_654_321)
    records = smf_records.tn3270_records(PROFILE, session)
    tables, ctx = parse(tmp_path, b"".join(r for _, r in records))
    keys = ("record_subtype", "lu_name", "application", "remote_ip", "remote_port", "local_port", "start_time",
            "end_time", "duration_us", "in_bytes", "out_bytes", "logmode", "termination_reason")
    assert [tuple(r[k] for k in keys) for r in tables["smf119_tn3270_session"]] == [
        (20, "TCPL0001", "CICSPRD1", "192.0.2.40", 49152, 23, dt.datetime(2026, 1, 6, 7, 5), None, None, None, None, None, None),
        (21, "TCPL0001", "CICSPRD1", "192.0.2.40", 49152, 23, dt.datetime(2026, 1, 6, 7, 5),
         dt.datetime(2026, 1, 6, 15, 35, 30), 30_630_000_000, 123_456, 7_654_321, "SNX32705", "LOGOFF"),
    ]


def test_subtype_5_is_kept_verbatim_as_skipped(tmp_path):
    record = smf_records.other_record(PROFILE, dt.datetime(2026, 1, 6, 12, 0), 119, 5, 240)
    tables, ctx = parse(tmp_path, record + FIXTURE2)
    (row,) = tables["smf_unparsed"]
    assert {k: row[k] for k in ("record_type", "record_subtype", "system_id", "record_length", "record_time")} == {
        "record_type": 119, "record_subtype": 5, "system_id": "SYSA", "record_length": len(record),
        "record_time": dt.datetime(2026, 1, 6, 12, 0)}
    assert row["record_bytes"] == record
    assert tables["smf119_ftp_transfer"][0]["record_ordinal"] == 1


def test_triplet_count_beyond_the_triplet_area_is_not_trusted(tmp_path):
    damaged = patched(FIXTURE2, 24, (9).to_bytes(2, "big"))  # SMF119SD_TRN 9: "triplets" 6-8 would be identification text
    tables, ctx = parse(tmp_path, damaged)
    assert ctx.rejects == [] and tables["smf119_ftp_transfer"][0]["file_name"] == "USER1.PAYROLL.DATA"


def test_extended_header_record_is_kept_with_its_real_type(tmp_path):
    body = bytearray(52)
    body[0:2] = bytes([0x60 | 0x1E, 126])  # SMFxxFLG X'60': extended header, type 126 carrier
    body[2:6] = (5_221_525).to_bytes(4, "big")
    body[6:10] = bytes.fromhex("0124075F")
    body[10:14] = bytes.fromhex("E2E8E2C1")
    body[20:22] = (32).to_bytes(2, "big")  # extended header length at record offset 24
    body[48:50] = (1154).to_bytes(2, "big")  # the real record type at record offset 52
    record = (4 + len(body)).to_bytes(2, "big") + b"\x00\x00" + bytes(body)
    tables, ctx = parse(tmp_path, record)
    (row,) = tables["smf_unparsed"]
    assert (row["record_type"], row["extended_record_type"], row["record_length"]) == (126, 1154, 56)
