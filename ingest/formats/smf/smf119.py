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
from ingest.formats.base import Column
from ingest.formats.smf.fields import Sections, columns, decode_fields
from ingest.formats.smf.headers import (
    Decoded,
    Header,
    Triplet,
    common_columns,
    expand,
    first_instance,
    require_section,
    split_rejects,
    triplet_area,
)
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.tables import I64, SECTION_INDEX, STR, SUBSYSTEM_ID, TS, smf_table

RECORD_TYPE = 119
SUBTYPES = (2, 6, 20, 21, 70)

IDENTIFICATION = [  # TCP/IP identification section (SMF119IDOff), 64 bytes
    ("tcpip_system_name", 0, 8, "text", "SMF119TI_SYSName: system name (SYSNAME)."),
    ("sysplex_name", 8, 8, "text", "SMF119TI_SysplexName: sysplex name."),
    ("stack_name", 16, 8, "text", "SMF119TI_Stack: TCP/IP stack name."),
    ("release_id", 24, 8, "text", "SMF119TI_ReleaseID: Communications Server release."),
    ("component", 32, 8, "text", "SMF119TI_Comp: subcomponent that wrote the record: `TCP`, `IP`, `FTPS`, `TN3270S` ..."),
    ("as_name", 40, 8, "text", "SMF119TI_ASName: address space that wrote the record."),
    ("as_user_id", 48, 8, "text", "SMF119TI_UserID: user id of its security context."),
    ("asid", 58, 2, "int", "SMF119TI_ASID: ASID of the writer."),
    ("record_reason", 60, 1, "int", "SMF119TI_Reason: X'08' event, X'80' interval (last), X'10' shutdown ..."),
]

TCP_CONNECTION = [  # subtype 2, S1
    ("resource_name", 0, 8, "text", "SMF119AP_TTRName: socket resource (job or address space) that closed the connection."),
    ("connection_id", 8, 4, "int", "SMF119AP_TTConnID: connection id."),
    ("tls_connection_status", 12, 1, "int", "SMF119AP_TTTTLSCS: AT-TLS status (1 not secure, 2 handshake, 3 secure)."),
    ("termination_code", 14, 1, "int", "SMF119AP_TTTermCode: termination reason code."),
    ("remote_ip", 36, 16, "ip", "SMF119AP_TTRIP: remote IP address (IPv4-mapped addresses as dotted quads)."),
    ("local_ip", 52, 16, "ip", "SMF119AP_TTLIP: local IP address."),
    ("remote_port", 68, 2, "int", "SMF119AP_TTRPort: remote port."),
    ("local_port", 70, 2, "int", "SMF119AP_TTLPort: local port."),
    ("in_bytes", 72, 8, "int", "SMF119AP_TTInBytes: bytes in."),
    ("out_bytes", 80, 8, "int", "SMF119AP_TTOutBytes: bytes out."),
    ("send_window_bytes", 88, 4, "int", "SMF119AP_TTSWS: send window at close, bytes."),
    ("max_send_window_bytes", 92, 4, "int", "SMF119AP_TTMSWS: largest send window, bytes."),
    ("congestion_window_bytes", 96, 4, "int", "SMF119AP_TTCWS: congestion window at close, bytes."),
    ("send_segment_bytes", 100, 4, "int", "SMF119AP_TTSMS: send segment size at close, bytes."),
    ("round_trip_ms", 104, 4, "int", "SMF119AP_TTRTT: round-trip time at close, ms."),
    ("round_trip_variance_ms", 108, 4, "int", "SMF119AP_TTRVA: round-trip time variance, ms."),
    ("open_type", 112, 1, "int", "SMF119AP_TTStatus: 0 passive open (server), 1 active open (client)."),
    ("type_of_service", 113, 1, "int", "SMF119AP_TTTOS: type of service."),
    ("retransmit_count", 114, 2, "int", "SMF119AP_TTXRT: retransmissions."),
    ("service_profile", 116, 32, "text", "SMF119AP_TTProf: service profile name."),
    ("service_policy", 148, 32, "text", "SMF119AP_TTPol: service policy name."),
    ("in_segments", 180, 8, "int", "SMF119AP_TTInSeg: segments in."),
    ("out_segments", 188, 8, "int", "SMF119AP_TTOutSeg: segments out."),
    ("start_tod", 196, 8, "stck", "SMF119AP_TTSSTCK: connection start, STCK, UTC."),
    ("end_tod", 204, 8, "stck", "SMF119AP_TTESTCK: connection end, STCK, UTC."),
    ("dup_acks_received", 212, 4, "int", "SMF119AP_TTDupAcksRcvd: duplicate ACKs received."),
]

INTERFACE = [  # subtype 6, S1, one instance per interface
    ("interval_us", 0, 8, "tod_us", "SMF119IS_IFDuration: length of the recording interval, µs (position unconfirmed)."),
    ("home_ip", 8, 16, "ip", "SMF119IS_IFLnkHome: the interface's HOME address."),
    ("interface_name", 24, 16, "text", "SMF119IS_IFName: link or interface name."),
    ("device_name", 40, 16, "text", "SMF119IS_IFDevName: device name."),
    ("interface_type", 56, 18, "text", "SMF119IS_IFDesc: interface type, e.g. `IPAQENET`."),
    ("mtu_bytes", 76, 4, "int", "SMF119IS_IFActualMtu: MTU, bytes."),
    ("speed", 80, 4, "int", "SMF119IS_IFSPeed: speed; X'FFFFFFFF' = see high_speed."),
    ("high_speed", 84, 4, "int", "SMF119IS_IFHSpeed: high speed."),
    ("in_bytes", 88, 8, "int", "SMF119IS_IFInBytes: bytes in."),
    ("in_unicast_packets", 96, 8, "int", "SMF119IS_IFInUniC: unicast packets in."),
    ("in_broadcast_packets", 104, 8, "int", "SMF119IS_IFInBroadC: broadcast packets in."),
    ("in_multicast_packets", 112, 8, "int", "SMF119IS_IFInMultiC: multicast packets in."),
    ("in_discards", 120, 4, "int", "SMF119IS_IFInDisc: inbound packets discarded."),
    ("in_errors", 124, 4, "int", "SMF119IS_IFInError: inbound packets in error."),
    ("in_unknown_protocol", 128, 4, "int", "SMF119IS_IFInUProt: inbound packets of an unknown protocol."),
    ("out_bytes", 132, 8, "int", "SMF119IS_IFOutBytes: bytes out."),
    ("out_unicast_packets", 140, 8, "int", "SMF119IS_IFOutUniC: unicast packets out."),
    ("out_broadcast_packets", 148, 8, "int", "SMF119IS_IFOutBroadC: broadcast packets out."),
    ("out_multicast_packets", 156, 8, "int", "SMF119IS_IFOutMultiC: multicast packets out."),
    ("out_discards", 164, 4, "int", "SMF119IS_IFOutDisc: outbound packets discarded."),
    ("out_errors", 168, 4, "int", "SMF119IS_IFOutError: outbound packets in error."),
    ("out_queue_length", 172, 4, "int", "SMF119IS_IFOQL: output queue length, current."),
    ("physical_network_id", 224, 16, "text", "SMF119IS_IFPNetID: physical network id."),
]

FTP_TRANSFER = [  # subtype 70, S1 (184 bytes)
    ("operation_code", 0, 1, "int",
     "SMF119FT_FSOper: 1 append, 2 delete, 3 rename, 4 retrieve, 5 store, 6 store unique."),
    ("command", 4, 4, "text", "SMF119FT_FSCmd: FTP command, e.g. `STOR`, `RETR`."),
    ("file_type", 8, 4, "text", "SMF119FT_FSFType: `SEQ`, `JES` or `SQL`."),
    ("data_remote_ip", 12, 16, "ip", "SMF119FT_FSDRIP: remote IP of the data connection."),
    ("data_local_ip", 28, 16, "ip", "SMF119FT_FSDLIP: local IP of the data connection."),
    ("data_remote_port", 44, 2, "int", "SMF119FT_FSDRPort: remote port of the data connection."),
    ("data_local_port", 46, 2, "int", "SMF119FT_FSDLPort: local port of the data connection."),
    ("client_ip", 48, 16, "ip", "SMF119FT_FSCRIP: client IP (control connection)."),
    ("server_ip", 64, 16, "ip", "SMF119FT_FSCLIP: server IP (control connection)."),
    ("client_port", 80, 2, "int", "SMF119FT_FSCRPort: client port (control connection)."),
    ("server_port", 82, 2, "int", "SMF119FT_FSCLPort: server port (control connection)."),
    ("user_id", 84, 8, "text", "SMF119FT_FSSUser: the client's user id on the server."),
    ("data_type", 92, 1, "text", "SMF119FT_FSType: A ASCII, E EBCDIC, I image, B DBCS, U UCS-2."),
    ("transfer_mode", 93, 1, "text", "SMF119FT_FSMode: B block, C compressed, S stream."),
    ("structure", 94, 1, "text", "SMF119FT_FSStruct: F file, R record."),
    ("dataset_type", 95, 1, "text", "SMF119FT_FSDsType: S SEQ, P PDS, H HFS."),
    ("duration_us", 112, 4, "cs_us", "SMF119FT_FSDur: transfer duration (1/100 s), µs."),
    ("transfer_bytes", 116, 8, "int", "SMF119FT_FSBytes: bytes transferred."),
    ("last_reply", 124, 4, "text", "SMF119FT_FSLReply: last reply code, e.g. `250`."),
    ("member_name", 128, 8, "text", "SMF119FT_FSM1: PDS member name."),
    ("member_name2", 144, 8, "text", "SMF119FT_FSM2: second member name (rename)."),
    ("transfer_bytes_float", 152, 8, "hfp", "SMF119FT_FSBytesFloat: bytes transferred, the hex floating point copy."),
    ("control_connection_id", 160, 4, "int", "SMF119FT_FSCConnID: control connection id."),
    ("data_connection_id", 164, 4, "int", "SMF119FT_FSDConnID: data connection id (0 if none)."),
    ("session_id", 168, 15, "text", "SMF119FT_FSSessionID: FTP session id."),
]

FTP_SECURITY = [  # subtype 70, S5 (38 bytes)
    ("security_mechanism", 0, 1, "text", "SMF119FT_FSMechanism: N none, T TLS, G GSSAPI, A AT-TLS."),
    ("control_protection", 1, 1, "text", "SMF119FT_FSCProtect: control connection protection (N, C clear, S safe, P private)."),
    ("data_protection", 2, 1, "text", "SMF119FT_FSDProtect: data connection protection (N, C, S, P)."),
    ("login_method", 3, 1, "text", "SMF119FT_FSLoginMech: P password, C certificate, T Kerberos."),
    ("protocol_level", 4, 8, "text", "SMF119FT_FSProtoLevel: security protocol level."),
    ("cipher_spec", 12, 20, "text", "SMF119FT_FSCipherSpec: cipher specification."),
]

TN3270_END = [  # subtype 21, S1
    ("lu_name", 0, 8, "text", "SMF119TN_NTLU: Telnet LU name."),
    ("application", 8, 8, "text", "SMF119TN_NTAppl: host application."),
    ("logical_device", 16, 4, "int", "SMF119TN_NTLdev: internal logical device number."),
    ("remote_ip", 20, 16, "ip", "SMF119TN_NTRIP: client IP address."),
    ("local_ip", 36, 16, "ip", "SMF119TN_NTLIP: local IP address."),
    ("remote_port", 52, 2, "int", "SMF119TN_NTRPort: client port."),
    ("local_port", 54, 2, "int", "SMF119TN_NTLPort: local port."),
    ("in_bytes", 64, 8, "int", "SMF119TN_NTInByte: bytes in (NULL for subtype 20)."),
    ("out_bytes", 72, 8, "int", "SMF119TN_NTOutByte: bytes out (NULL for subtype 20)."),
    ("duration_us", 96, 4, "cs_us", "SMF119TN_NTDur: session duration (1/100 s), µs (NULL for subtype 20)."),
    ("session_type", 100, 1, "int", "SMF119TN_NTSType: 1 TN3270, 2 TN3270E, 3 linemode ... (NULL for subtype 20)."),
    ("ssl_status", 102, 1, "int", "SMF119TN_NTSSL: SSL status (NULL for subtype 20)."),
    ("termination_reason", 108, 8, "text", "SMF119TN_NTRCode: termination reason, as in EZZ6034I (NULL for subtype 20)."),
    ("logmode", 116, 8, "text", "SMF119TN_NTLMode: SNA logmode (NULL for subtype 20)."),
    ("device_type", 124, 20, "text", "SMF119TN_NTDevt: Telnet device type (NULL for subtype 20)."),
]

# columns of every 119 table, before those of its record
_LEADING = (SUBSYSTEM_ID, *columns(IDENTIFICATION))
# section clock times are stored as recorded: local by IBM's general rule, GMT by the subtype 2 field texts
_START_TIME = Column("start_time", TS, "Start date and time, as recorded (local or UTC: see Conventions).")
_END_TIME = Column("end_time", TS, "End date and time, as recorded.")

CONNECTION_TABLE = smf_table(
    "smf119_tcp_connection", "One row per SMF 119.2 record: a TCP connection that ended.",
    (*_LEADING, _START_TIME, _END_TIME, *columns(TCP_CONNECTION)),
    ("system_id", "stack_name", "connection_id", "start_time", "end_time", "remote_ip", "remote_port"),
)
INTERFACE_TABLE = smf_table(
    "smf119_interface",
    "One row per interface section of an SMF 119.6 record (interface statistics); counters are deltas for the interval.",
    (*_LEADING, SECTION_INDEX, *columns(INTERFACE)),
    ("system_id", "stack_name", "interface_name", "record_time"),
)
FTP_TABLE = smf_table(
    "smf119_ftp_transfer", "One row per SMF 119.70 record: an FTP server transfer that completed.",
    (
        *_LEADING, _START_TIME, _END_TIME, *columns(FTP_TRANSFER),
        Column("host_name", STR, "SMF119FT_FSHostname: the server's host name."),
        Column("file_name", STR, "SMF119FT_FSFileName1: data set or file name (IBM-1047 when it starts with `/`)."),
        Column("file_name2", STR, "SMF119FT_FSFileName2: second file name (rename)."),
        *columns(FTP_SECURITY),
    ),
    ("system_id", "stack_name", "session_id", "control_connection_id", "data_connection_id", "start_time", "end_time",
     "command"),
)
TN3270_TABLE = smf_table(
    "smf119_tn3270_session", "One row per SMF 119.20 (TN3270E SNA session start) or 119.21 (session end) record.",
    (
        *_LEADING,
        Column("record_subtype", I64, "SMFxxSTY: 20 session start, 21 session end."),
        _START_TIME,
        Column("end_time", TS, "End date and time, as recorded; NULL for subtype 20.", optional=True),
        *columns(TN3270_END),
    ),
    ("system_id", "stack_name", "record_subtype", "lu_name", "start_time", "end_time"),
)
TABLES = (CONNECTION_TABLE, INTERFACE_TABLE, FTP_TABLE, TN3270_TABLE)

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
    layout = [("SMF119IDOff" if k == 0 else f"SMF119S{k}Off", 28 + 8 * k) for k in range(8)]
    triplets, problems = triplet_area(batch, rows, layout, 28, count_at=24)
    require_section(problems, triplets[0], "TCP/IP identification section")
    keep, rejects = split_rejects(rows, problems)
    rows = rows[keep]
    triplets = [t.take(keep) for t in triplets]
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
        tables[CONNECTION_TABLE.name] = pa.table({
            **leading_columns(sel),
            "start_time": s1.timestamp_col(24, 20),  # SMF119AP_TTSDate + TTSTime
            "end_time": s1.timestamp_col(32, 28),  # SMF119AP_TTEDate + TTETime
            **decode_fields(s1, TCP_CONNECTION),
        })

    sel = np.flatnonzero(subtype == 6)
    if len(sel):
        interfaces = expand(batch, rows[sel], triplets[1].take(sel))
        tables[INTERFACE_TABLE.name] = pa.table({
            **leading_columns(sel, interfaces),
            "section_index": pa.array(interfaces.inst, pa.int64()),
            **decode_fields(interfaces, INTERFACE),
        })

    sel = np.flatnonzero(subtype == 70)
    if len(sel):
        s1 = section(1, sel)
        tables[FTP_TABLE.name] = pa.table({
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
        tables[TN3270_TABLE.name] = pa.concat_tables(parts)
    return Decoded(tables, rejects, len(rows))
