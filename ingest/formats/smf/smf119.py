"""SMF type 119 (z/OS Communications Server TCP/IP) subtypes 2, 6, 70, 20, 21 -> four raw tables.

Input (type119.md): a 24-byte header, the self-defining section at 24 (``SMF119SD_TRN`` = number of
triplets including the identification triplet; identification triplet at 28, section *k* at
28 + 8k), the 64-byte TCP/IP identification section, then the record-specific sections. Fixture 2
of ``formats/smf/README.md``, an FTP server STOR, starts::

    0000  017C0000 5E77004F AC950124 075FE2E8   LL=380, FLG X'5E', type 119, 14:30:15.25, 2024 day 075
    0010  E2C1C6E3 D7E20046 00060000 0000004C   SID 'SYSA', 'FTPS', subtype 70, TRN 6, ID at 76 ...
    0080  40404040 00000041 08000000 05000000   ... ASID X'0041', reason X'08' event; S1: operation 5 store
    0090  E2E3D6D9 E2C5D840 00000000 00000000   'STOR', 'SEQ ', data remote IP (IPv4-mapped) ...

Output (every table also carries the identification section: TCP/IP system name, sysplex, stack,
release, component, address space, ASID, reason):

* ``smf119_tcp_connection`` (subtype 2, TCP connection termination): remote/local IP and port, start
  and end (clock fields and the STCK pair), bytes and segments in/out (64-bit), round-trip time,
  retransmissions, open type (0 passive = server, 1 active = client).
* ``smf119_interface`` (subtype 6, interface statistics, one row per interface section): interval
  length, interface and device names, MTU, speed, bytes/packets/discards/errors in and out (deltas).
* ``smf119_ftp_transfer`` (subtype 70, FTP server transfer completion): operation, command, file
  type, client and data-connection addresses, user, start/end, duration, bytes (64-bit and the HFP
  copy), last reply, host name, file name(s) (IBM-1047 when the name is a z/OS UNIX path), security.
* ``smf119_tn3270_session`` (subtypes 20 and 21, TN3270E server SNA session start and end): LU,
  application, client address and port, bytes, start/end, duration, logmode, termination reason.

Clock fields inside sections are stored as recorded. IBM's general rule says local time, but the
subtype 2 field texts say GMT and PACSYS says 119 sections use UTC (type119.md §1.4, open question 1);
the STCK pair of subtype 2 is UTC by definition. Marts bucket by the header time, which is local.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ingest.formats.smf import ebcdic
from ingest.formats.smf.fields import Sections, decode_fields
from ingest.formats.smf.headers import (
    Decoded,
    Header,
    Triplet,
    common_columns,
    expand,
    first_instance,
    read_triplets,
    triplet_problems,
    whole_records,
)
from ingest.formats.smf.records import RecordBatch

RECORD_TYPE = 119
TABLE_CONNECTION = "smf119_tcp_connection"
TABLE_INTERFACE = "smf119_interface"
TABLE_FTP = "smf119_ftp_transfer"
TABLE_TN3270 = "smf119_tn3270_session"
SUBTYPES = (2, 6, 20, 21, 70)

IDENTIFICATION = [  # TCP/IP identification section (SMF119IDOff), 64 bytes
    ("tcpip_system_name", 0, 8, "text"),  # SMF119TI_SYSName
    ("sysplex_name", 8, 8, "text"),  # SMF119TI_SysplexName
    ("stack_name", 16, 8, "text"),  # SMF119TI_Stack
    ("release_id", 24, 8, "text"),  # SMF119TI_ReleaseID
    ("component", 32, 8, "text"),  # SMF119TI_Comp: TCP, IP, FTPS, TN3270S ...
    ("as_name", 40, 8, "text"),  # SMF119TI_ASName
    ("as_user_id", 48, 8, "text"),  # SMF119TI_UserID
    ("asid", 58, 2, "int"),  # SMF119TI_ASID
    ("record_reason", 60, 1, "int"),  # SMF119TI_Reason: X'08' event, X'80' interval (last) ...
]

TCP_CONNECTION = [  # subtype 2, S1
    ("resource_name", 0, 8, "text"),  # SMF119AP_TTRName
    ("connection_id", 8, 4, "int"),  # SMF119AP_TTConnID
    ("tls_connection_status", 12, 1, "int"),  # SMF119AP_TTTTLSCS
    ("termination_code", 14, 1, "int"),  # SMF119AP_TTTermCode
    ("remote_ip", 36, 16, "ip"),  # SMF119AP_TTRIP
    ("local_ip", 52, 16, "ip"),  # SMF119AP_TTLIP
    ("remote_port", 68, 2, "int"),  # SMF119AP_TTRPort
    ("local_port", 70, 2, "int"),  # SMF119AP_TTLPort
    ("in_bytes", 72, 8, "int"),  # SMF119AP_TTInBytes
    ("out_bytes", 80, 8, "int"),  # SMF119AP_TTOutBytes
    ("send_window_bytes", 88, 4, "int"),  # SMF119AP_TTSWS
    ("max_send_window_bytes", 92, 4, "int"),  # SMF119AP_TTMSWS
    ("congestion_window_bytes", 96, 4, "int"),  # SMF119AP_TTCWS
    ("send_segment_bytes", 100, 4, "int"),  # SMF119AP_TTSMS
    ("round_trip_ms", 104, 4, "int"),  # SMF119AP_TTRTT
    ("round_trip_variance_ms", 108, 4, "int"),  # SMF119AP_TTRVA
    ("open_type", 112, 1, "int"),  # SMF119AP_TTStatus: 0 passive (server), 1 active (client)
    ("type_of_service", 113, 1, "int"),  # SMF119AP_TTTOS
    ("retransmit_count", 114, 2, "int"),  # SMF119AP_TTXRT
    ("service_profile", 116, 32, "text"),  # SMF119AP_TTProf
    ("service_policy", 148, 32, "text"),  # SMF119AP_TTPol
    ("in_segments", 180, 8, "int"),  # SMF119AP_TTInSeg
    ("out_segments", 188, 8, "int"),  # SMF119AP_TTOutSeg
    ("start_tod", 196, 8, "stck"),  # SMF119AP_TTSSTCK (UTC)
    ("end_tod", 204, 8, "stck"),  # SMF119AP_TTESTCK (UTC)
    ("dup_acks_received", 212, 4, "int"),  # SMF119AP_TTDupAcksRcvd
]

INTERFACE = [  # subtype 6, S1, one instance per interface
    ("interval_us", 0, 8, "tod_us"),  # SMF119IS_IFDuration, TOD units (position unconfirmed)
    ("home_ip", 8, 16, "ip"),  # SMF119IS_IFLnkHome
    ("interface_name", 24, 16, "text"),  # SMF119IS_IFName
    ("device_name", 40, 16, "text"),  # SMF119IS_IFDevName
    ("interface_type", 56, 18, "text"),  # SMF119IS_IFDesc, e.g. IPAQENET
    ("mtu_bytes", 76, 4, "int"),  # SMF119IS_IFActualMtu
    ("speed", 80, 4, "int"),  # SMF119IS_IFSPeed (X'FFFFFFFF' = see high speed)
    ("high_speed", 84, 4, "int"),  # SMF119IS_IFHSpeed
    ("in_bytes", 88, 8, "int"),
    ("in_unicast_packets", 96, 8, "int"),
    ("in_broadcast_packets", 104, 8, "int"),
    ("in_multicast_packets", 112, 8, "int"),
    ("in_discards", 120, 4, "int"),
    ("in_errors", 124, 4, "int"),
    ("in_unknown_protocol", 128, 4, "int"),
    ("out_bytes", 132, 8, "int"),
    ("out_unicast_packets", 140, 8, "int"),
    ("out_broadcast_packets", 148, 8, "int"),
    ("out_multicast_packets", 156, 8, "int"),
    ("out_discards", 164, 4, "int"),
    ("out_errors", 168, 4, "int"),
    ("out_queue_length", 172, 4, "int"),  # SMF119IS_IFOQL, current
    ("physical_network_id", 224, 16, "text"),  # SMF119IS_IFPNetID
]

FTP_TRANSFER = [  # subtype 70, S1 (184 bytes)
    ("operation_code", 0, 1, "int"),  # SMF119FT_FSOper: 1 append 2 delete 3 rename 4 retrieve 5 store 6 store unique
    ("command", 4, 4, "text"),  # SMF119FT_FSCmd
    ("file_type", 8, 4, "text"),  # SMF119FT_FSFType: SEQ, JES, SQL
    ("data_remote_ip", 12, 16, "ip"),  # SMF119FT_FSDRIP
    ("data_local_ip", 28, 16, "ip"),  # SMF119FT_FSDLIP
    ("data_remote_port", 44, 2, "int"),
    ("data_local_port", 46, 2, "int"),
    ("client_ip", 48, 16, "ip"),  # SMF119FT_FSCRIP (control connection)
    ("server_ip", 64, 16, "ip"),  # SMF119FT_FSCLIP
    ("client_port", 80, 2, "int"),
    ("server_port", 82, 2, "int"),
    ("user_id", 84, 8, "text"),  # SMF119FT_FSSUser
    ("data_type", 92, 1, "text"),  # A ASCII, E EBCDIC, I image ...
    ("transfer_mode", 93, 1, "text"),  # B block, C compressed, S stream
    ("structure", 94, 1, "text"),  # F file, R record
    ("dataset_type", 95, 1, "text"),  # S SEQ, P PDS, H HFS
    ("duration_us", 112, 4, "cs_us"),  # SMF119FT_FSDur, 1/100 s
    ("transfer_bytes", 116, 8, "int"),  # SMF119FT_FSBytes
    ("last_reply", 124, 4, "text"),  # SMF119FT_FSLReply, e.g. ' 250'
    ("member_name", 128, 8, "text"),  # SMF119FT_FSM1
    ("member_name2", 144, 8, "text"),  # SMF119FT_FSM2
    ("transfer_bytes_float", 152, 8, "hfp"),  # SMF119FT_FSBytesFloat, IBM hex floating point
    ("control_connection_id", 160, 4, "int"),
    ("data_connection_id", 164, 4, "int"),
    ("session_id", 168, 15, "text"),  # SMF119FT_FSSessionID
]

FTP_SECURITY = [  # subtype 70, S5 (38 bytes)
    ("security_mechanism", 0, 1, "text"),  # N none, T TLS, G GSSAPI, A AT-TLS
    ("control_protection", 1, 1, "text"),
    ("data_protection", 2, 1, "text"),
    ("login_method", 3, 1, "text"),  # P password, C certificate, T Kerberos
    ("protocol_level", 4, 8, "text"),
    ("cipher_spec", 12, 20, "text"),
]

TN3270_END = [  # subtype 21, S1
    ("lu_name", 0, 8, "text"),
    ("application", 8, 8, "text"),
    ("logical_device", 16, 4, "int"),
    ("remote_ip", 20, 16, "ip"),
    ("local_ip", 36, 16, "ip"),
    ("remote_port", 52, 2, "int"),
    ("local_port", 54, 2, "int"),
    ("in_bytes", 64, 8, "int"),
    ("out_bytes", 72, 8, "int"),
    ("duration_us", 96, 4, "cs_us"),
    ("session_type", 100, 1, "int"),  # 1 TN3270, 2 TN3270E, 3 linemode ...
    ("ssl_status", 102, 1, "int"),
    ("termination_reason", 108, 8, "text"),
    ("logmode", 116, 8, "text"),
    ("device_type", 124, 20, "text"),
]

TN3270_START_COMMON = 56  # subtype 20's S1 shares the first 56 bytes (LU .. ports) with subtype 21's


def _text_section(batch: RecordBatch, rows: np.ndarray, t: Triplet) -> pa.Array:
    """A variable-length name section (host name, file name): the whole first instance is the text."""
    out = []
    for i, rec in enumerate(rows.tolist()):
        if not t.exists[i]:
            out.append(None)
            continue
        start = batch.start[rec] + t.offset[i]
        out.append(ebcdic.decode_name(batch.buf[start : start + t.length[i]].tobytes()) or None)
    return pa.array(out, pa.string())


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    whole = whole_records(batch).take(rows)
    trn, _ = whole.uint(24, 2)
    triplets = read_triplets(whole, [("SMF119IDOff" if k == 0 else f"SMF119S{k}Off", 28 + 8 * k) for k in range(8)], trn)
    problems = triplet_problems(batch, rows, triplets, 28)
    for i in np.flatnonzero(~triplets[0].exists).tolist():
        problems[i] = problems[i] or "record has no TCP/IP identification section (triplet SMF119IDOff at record offset 28 is zero)"
    keep = np.array([p is None for p in problems], dtype=bool)
    rejects = [(int(rows[i]), problems[i]) for i in np.flatnonzero(~keep)]
    rows = rows[keep]
    triplets = [t.take(np.flatnonzero(keep)) for t in triplets]
    subtype = header.subtype[rows]
    tables: dict[str, pa.Table] = {}

    def leading_columns(sel: np.ndarray, sections: Sections | None = None) -> dict[str, pa.Array]:
        """Common columns and the identification section for records ``sel`` (or their section rows)."""
        rec = rows[sel] if sections is None else sections.rec
        ident_rows = sel if sections is None else np.searchsorted(rows, sections.rec)
        ident = first_instance(batch, rows[ident_rows], triplets[0].take(ident_rows))
        return {**common_columns(batch, header, rec), "subsystem_id": header.ssi.take(pa.array(rec)), **decode_fields(ident, IDENTIFICATION)}

    def section(k: int, sel: np.ndarray) -> Sections:
        """The first instance of section S<k> of records ``sel``."""
        return first_instance(batch, rows[sel], triplets[k].take(sel))

    sel = np.flatnonzero(subtype == 2)
    if len(sel):
        s1 = section(1, sel)
        tables[TABLE_CONNECTION] = pa.table({
            **leading_columns(sel),
            "start_time": s1.timestamp_col(24, 20),  # SMF119AP_TTSDate + TTSTime
            "end_time": s1.timestamp_col(32, 28),  # SMF119AP_TTEDate + TTETime
            **decode_fields(s1, TCP_CONNECTION),
        })

    sel = np.flatnonzero(subtype == 6)
    if len(sel):
        interfaces = expand(batch, rows[sel], triplets[1].take(sel))
        tables[TABLE_INTERFACE] = pa.table({
            **leading_columns(sel, interfaces),
            "section_index": pa.array(interfaces.inst, pa.int64()),
            **decode_fields(interfaces, INTERFACE),
        })

    sel = np.flatnonzero(subtype == 70)
    if len(sel):
        s1 = section(1, sel)
        tables[TABLE_FTP] = pa.table({
            **leading_columns(sel),
            "start_time": s1.timestamp_col(100, 96),  # SMF119FT_FSSDate + FSSTime
            "end_time": s1.timestamp_col(108, 104),  # SMF119FT_FSEDate + FSETime
            **decode_fields(s1, FTP_TRANSFER),
            "host_name": _text_section(batch, rows[sel], triplets[2].take(sel)),
            "file_name": _text_section(batch, rows[sel], triplets[3].take(sel)),
            "file_name2": _text_section(batch, rows[sel], triplets[4].take(sel)),
            **decode_fields(section(5, sel), FTP_SECURITY),
        })

    parts = []
    for st in (20, 21):
        sel = np.flatnonzero(subtype == st)
        if not len(sel):
            continue
        s1 = section(1, sel)
        if st == 20:  # session start: same layout as the end record up to the ports, then its own time and date
            start_time, end_time = s1.timestamp_col(60, 56), pa.nulls(len(sel), pa.timestamp("us"))
            s1 = Sections(s1.buf, s1.rec, s1.start, np.minimum(s1.length, TN3270_START_COMMON))
        else:
            start_time, end_time = s1.timestamp_col(84, 80), s1.timestamp_col(92, 88)
        parts.append(pa.table({
            **leading_columns(sel),
            "record_subtype": pa.array(np.full(len(sel), st), pa.int64()),
            "start_time": start_time,
            "end_time": end_time,
            **decode_fields(s1, TN3270_END),
        }))
    if parts:
        tables[TABLE_TN3270] = pa.concat_tables(parts)
    return Decoded(tables, rejects, len(rows))
