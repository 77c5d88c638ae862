"""SMF records from a day's plan (``_smf_plan``), and the dumps that hold them (VB or VBS).

The encoders are written from IBM's published layouts (docs/smf_raw_contract.md cites them) independently
of the decoder in ``ingest/formats/smf``, so that the round-trip tests compare two readings of the layout.
Section clock fields of type 119 are written in UTC (the IBM field texts say GMT); headers and RMF interval
times are local, with the GMT offset in SMF70LGO."""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
import struct
from pathlib import Path

from ingest.formats.smf import ebcdic
from ingest.generate._smf_channels import ChannelInterval
from ingest.generate._smf_dasd import DASD_UNIT_TYPE, DeviceInterval
from ingest.generate._smf_plan import (
    RT_BUCKET_BOUNDS,
    SMF_INTERVAL,
    TOD_EPOCH,
    WLM_ADJUSTMENT,
    WLM_NORMALIZATION,
    ClassInterval,
    Connection,
    DayPlan,
    FtpTransfer,
    InterfaceSample,
    RmfInterval,
    SystemProfile,
    Tn3270Session,
    WorkRecord,
)

BLKSIZE = 27_998  # half-track 3390 block, the usual SMF dump block size


# -- encoders ------------------------------------------------------------------------------------------------

ebc = functools.lru_cache(maxsize=4096)(ebcdic.encode)


@functools.lru_cache(maxsize=1024)
def packed_date(d: dt.date) -> bytes:
    """``0cyydddF``: c = 0 for 19yy, 1 for 20yy."""
    return bytes.fromhex(f"0{(d.year - 1900) // 100}{d.year % 100:02d}{d.timetuple().tm_yday:03d}F")


def packed_digits(value: int, digits: int) -> bytes:
    return bytes.fromhex(f"{value:0{digits}d}F")


def hundredths(t: dt.datetime) -> int:
    return (t.hour * 3600 + t.minute * 60 + t.second) * 100 + t.microsecond // 10_000


def tod(t: dt.datetime) -> int:
    return int((t - TOD_EPOCH) / dt.timedelta(microseconds=1)) << 12


def ip16(text: str) -> bytes:
    addr = ipaddress.ip_address(text)
    return (b"\x00" * 10 + b"\xff\xff" + addr.packed) if addr.version == 4 else addr.packed


def hfp_long(value: float) -> bytes:
    if value == 0:
        return bytes(8)
    exponent, fraction = 64, float(value)
    while fraction >= 1:
        fraction /= 16
        exponent += 1
    while fraction < 1 / 16:
        fraction *= 16
        exponent -= 1
    return bytes([exponent]) + int(fraction * (1 << 56)).to_bytes(7, "big")


def smf_record(rtype: int, subtype: int, flags: int, when: dt.datetime, sid: str, ssi: str,
               sections: list[list[bytes]], trn: bool = True) -> bytes:
    """A record with the 24-byte header, (for 70/119) SMF..TRN, then triplets and sections in order."""
    head = struct.pack(">BBI", flags, rtype, hundredths(when)) + packed_date(when.date()) + ebc(sid, 4) + ebc(ssi, 4) + struct.pack(">H", subtype)
    middle = struct.pack(">HH", len(sections), 0) if trn else b""
    pos = 4 + len(head) + len(middle) + 8 * len(sections)
    triplets, body = bytearray(), bytearray()
    for instances in sections:
        if not instances:
            triplets += bytes(8)
            continue
        triplets += struct.pack(">IHH", pos, len(instances[0]), len(instances))
        for inst in instances:
            body += inst
        pos += len(instances[0]) * len(instances)
    rec = head + middle + bytes(triplets) + bytes(body)
    return struct.pack(">HH", 4 + len(rec), 0) + rec


def section(size: int, *fields: tuple[int, bytes]) -> bytes:
    out = bytearray(size)
    for at, value in fields:
        out[at : at + len(value)] = value
    return bytes(out)


def u(value: int, width: int) -> bytes:
    return int(value).to_bytes(width, "big")


# -- the plan as records ---------------------------------------------------------------------------------------------

def rmf_record(p: SystemProfile, iv: RmfInterval) -> bytes:
    product = _rmf_product(p, iv.start, iv.interval_ms)
    control = section(
        96, (0, u(0x8561, 2)), (3, u(p.physical_cps + p.physical_ziips, 1)), (4, u(0x10, 1)), (5, u(0x08, 1)),
        (8, ebc(f"7{p.physical_cps:02d}", 16)), (24, u(360, 2)), (28, u(WLM_ADJUSTMENT, 4)), (32, u(180 * p.cps, 4)), (36, u(150 * p.cps, 4)),
        (48, ebc("T01", 16)), (64, u(p.ziips, 2)), (78, ebc(p.cpc_serial, 16)), (94, u(0xC0, 1)),
    )
    cpus, lps = [], []
    for c in iv.cpus:
        cpus.append(section(
            92, (0, u(c.wait_us * 4096, 8)), (8, u(c.cpu_id, 2)), (10, u(0x09, 1)), (12, bytes.fromhex(p.cpc_serial[-6:])),
            (15, u(2 if c.cpu_type == "zIIP" else 0, 1)), (16, u(c.io_interrupts * 9 // 10, 4)), (20, u(c.io_interrupts // 10, 4)),
            (32, u(c.parked_us * 4096, 8)), (40, u(c.dispatches * 7 // 10, 8)), (48, u(c.dispatches * 3 // 10, 8)),
            (56, u(c.io_interrupts, 8)),
        ))
        lps.append(_lp(c.dispatch_us, c.cpu_id, c.effective_us, c.online_us, c.cpu_type, weight=300 if c.cpu_type == "CP" else 100))
    partitions = [section(84, (0, ebc(p.lpar, 8)), (8, u(p.lpar_number, 1)), (10, u(len(iv.cpus), 2)), (12, u(0, 4)),
                          (20, ebc(p.plex, 8)), (28, ebc(p.sysname, 8)), (40, u(65536, 4)),
                          (52, u(p.defined_capacity_msu, 4)), *_capacity_group(p))]
    first = len(lps)
    for name in ("TESTLP", "PHYSICAL"):
        mine = [o for o in iv.other_lps if o[0] == name]
        partitions.append(section(84, (0, ebc(name, 8)), (8, u(mine[0][1], 1)), (10, u(len(mine), 2)), (12, u(first, 4)),
                                  (40, u(8192 if name == "TESTLP" else 0, 4))))
        for i, (_, _, cpu_type, dispatch, effective, online) in enumerate(mine):
            lps.append(_lp(dispatch, i, effective, online, cpu_type, weight=50))
        first += len(mine)
    cpu_ids = [section(24, (0, ebc("CP", 16)), (16, u(p.physical_cps, 2)), (20, u(p.physical_cps * 360, 4))),
               section(24, (0, ebc("IIP", 16)), (16, u(p.physical_ziips, 2)), (20, u(p.physical_ziips * 360, 4)))]
    return smf_record(70, 1, 0xDF, iv.written, p.sid, "RMF", [[product], [control], cpus, [], partitions, lps, cpu_ids, [], []])


def _capacity_group(p: SystemProfile) -> list[tuple[int, bytes]]:
    """SMF70PFL's capacity-group member bit, SMF70GNM and SMF70GMU of the image's partition, if it is in a group."""
    if not p.capacity_group:
        return []
    return [(56, u(0x4000, 2)), (60, ebc(p.capacity_group, 8)), (68, u(p.group_max_msu, 4))]


def _rmf_product(p: SystemProfile, start: dt.datetime, interval_ms: int) -> bytes:
    """The RMF product section every RMF record (70-79) starts with: level, interval start and length, system."""
    return section(
        104, (0, packed_digits(25, 3)), (2, ebc("RMF", 8)), (10, packed_digits(int(start.strftime("%H%M%S")), 7)),
        (14, packed_date(start.date())), (18, packed_digits(interval_ms // 60000 * 100000 + interval_ms % 60000, 7)),
        (24, u(interval_ms // 1000, 4)), (30, u(0x1000, 2)), (36, packed_digits(1000, 7)), (40, ebc("ZV020500", 8)),
        (49, u(0x14, 1)), (50, u(p.lpar_number, 1)), (60, struct.pack(">q", p.utc_offset_h * 3600 * 1_000_000 * 4096)),
        (78, u(0, 2)), (88, ebc(p.plex, 8)), (96, ebc(p.sysname, 8)),
    )


def workload_record(p: SystemProfile, c: ClassInterval) -> bytes:
    """72.3: the workload manager control section of the class and its one period."""
    control = section(
        280, (4, ebc("WEEKDAY", 8)), (12, ebc("Production policy", 32)), (52, u(10_000, 4)), (56, u(5_000, 4)),
        (64, u(10_000, 4)), (68, u(250, 4)), (80, ebc(c.wlm.workload, 8)), (120, ebc(c.wlm.name, 8)),
        (128, ebc(c.wlm.description, 32)), (160, u(1, 2)), (172, u(WLM_ADJUSTMENT, 4)), (176, ebc("PRODSD", 8)),
        (240, u(WLM_NORMALIZATION, 4)), (244, u(WLM_NORMALIZATION, 4)),
    )
    response_goal = c.wlm.goal_flags in (0x80, 0x40)  # in ms, with a response time distribution around it
    elapsed_1024us = c.transactions * c.wlm.response_s * 1e6 / 1024
    io_su = c.dasd_io * 5
    period = section(
        576, (0, u(1 if response_goal else 0, 2)), (7, u(0xE0, 1)), (8, u(1, 1)), (9, u(0x80 if response_goal else 0, 1)),
        (10, u(c.wlm.goal_flags, 1)), (12, u(c.wlm.goal_value, 4)), (16, u(c.wlm.percentile, 2)), (18, u(c.wlm.importance, 2)),
        (24, hfp_long(c.cpu_service_units + c.srb_service_units + io_su)), (32, hfp_long(c.cpu_service_units)),
        (40, hfp_long(io_su)), (56, hfp_long(c.srb_service_units)), (184, u(c.transactions, 4)),
        (200, hfp_long(elapsed_1024us)), (208, hfp_long(elapsed_1024us * 0.9)), (224, u(c.cpu_using_samples, 4)),
        (228, u(c.delay_samples, 4)), (340, u(c.dasd_io, 4)), (344, u(c.using_samples, 4)), (544, hfp_long(c.ziip_service_units)),
    )
    # SMF72RTS: the map (array 0: each bucket's bound, % of the goal; the last has none), then the period's counts
    # (array 1, R723CRTX at period offset 0)
    distribution = [b"".join(u(round(100 * bound), 4) for bound in RT_BUCKET_BOUNDS) + u(0, 4),
                    b"".join(u(n, 4) for n in c.response_time_counts)] if response_goal else []
    return smf_record(72, 3, 0xDE, c.written, p.sid, "RMF",
                      [[_rmf_product(p, c.start, c.interval_ms)], [control], [], [], [period], distribution, [], []])


def device_record(p: SystemProfile, devices: list[DeviceInterval]) -> bytes:
    """74.1: the devices of one interval, each a device data section (IBM's offsets 0-51; the rest of RMF's
    section, busy delays, storage group and the like, left zero)."""
    first = devices[0]
    control = section(32, (2, u(1, 2)), (4, u(len(devices), 2)), (6, u(0x0020, 2)))  # one DASD class record
    sections = []
    for d in devices:
        v = d.volume
        connect, pending, disconnect = (d.units_128us(ms) for ms in (d.connect_ms, d.pending_ms, d.disconnect_ms))
        sections.append(section(
            120, (0, u(v.device_number, 2)), (2, u(v.lcu, 2)), (5, u(0x01, 1)), (6, ebc(v.volser, 6)),
            (12, bytes.fromhex(DASD_UNIT_TYPE)), (16, u(v.exposures, 4)), (20, u(d.ssch, 4)), (24, u(d.ssch, 4)),
            (28, u(connect, 4)), (32, u(pending, 4)), (36, u(connect + pending + disconnect, 4)), (40, u(disconnect, 4)),
            (44, u(d.queued_requests, 4)),
        ))
    return smf_record(74, 1, 0xDE, first.written, p.sid, "RMF",
                      [[_rmf_product(p, first.start, first.interval_ms)], [control], sections])


def channel_record(p: SystemProfile, paths: list[ChannelInterval]) -> bytes:
    """73.1: the channel paths of one interval, each a channel path data section (IBM's offsets 0-21: CHPID,
    flags, busy samples, the partition's busy time and measurement interval, acronym; the rest left zero); the
    control section's sample count, CPMF available (SMF73CFL X'04') in extended mode (SMF73CMI 2)."""
    first = paths[0]
    control = section(92, (0, u(first.samples, 4)), (4, u(0x04, 1)), (90, u(2, 1)))
    sections = [section(
        24, (0, u(c.chpid, 1)), (1, u(0x01, 1)), (2, u(0x02, 1)), (3, u(0x40 if c.ctc else 0, 1)), (4, u(c.busy_samples, 4)),
        (8, u(c.busy_units, 4)), (12, u(c.interval_units, 4)), (17, ebc(c.acronym, 5)),
    ) for c in paths]
    return smf_record(73, 1, 0xDE, first.written, p.sid, "RMF",
                      [[_rmf_product(p, first.start, first.interval_ms)], [control], sections])


def _lp(dispatch: int, address: int, effective: int, online: int, cpu_type: str, weight: int) -> bytes:
    return section(88, (0, u(dispatch, 8)), (8, u(address, 2)), (10, u(weight, 2)), (13, u(0x80, 1)),
                   (14, u(2 if cpu_type == "zIIP" else 1, 2)), (16, u(effective, 8)), (40, u(online, 8)))


def work_record(p: SystemProfile, w: WorkRecord) -> bytes:
    subsystem = section(38, (4, ebc("05", 2)), (6, ebc("SMF", 8)), (14, ebc("SP7.2.5", 8)), (22, ebc(p.sysname, 8)), (30, ebc(p.plex, 8)))
    ident = section(
        184, (0, ebc(w.job_name, 8)), (8, ebc(w.program, 8)), (16, ebc(w.step_name, 8)), (32, ebc(w.job_id, 8)),
        (40, u(w.step_number, 2)), (42, ebc(w.job_class or " ", 1)), (56, u(hundredths(w.step_start), 4)),
        (60, packed_date(w.step_start.date())), (64, u(hundredths(w.reader_start), 4)), (68, packed_date(w.reader_start.date())),
        (72, u(hundredths(w.reader_start), 4)), (76, packed_date(w.reader_start.date())), (80, ebc("OPERATIONS", 20)),
        (100, ebc("SYS1", 8)), (108, ebc(w.job_name if w.work_type == "TSO" else f"{w.job_name[:4]}USR", 8)),
        (140, ebc(w.job_class or "", 8)),
    )
    io = section(72, (4, u(min(w.excp, 0xFFFFFFFF), 4)), (18, u(w.excp // 40, 4)), (32, u(w.excp // 50, 4)),
                 (36, u(w.excp // 200, 4)), (40, u(w.excp // 400, 4)), (44, u(w.excp, 4)), (64, u(w.excp, 8)))
    interval = w.interval_start or w.step_start
    processor = section(136, (4, u(w.cpu_tcb_cs, 4)), (8, u(w.cpu_srb_cs, 4)), (12, u(2, 4)), (16, u(1, 4)),
                        (36, u(hundredths(interval), 4)), (40, packed_date(interval.date())), (116, u(w.ziip_cs, 4)))
    service = (w.cpu_tcb_cs + w.cpu_srb_cs) * 52
    performance = section(112, (0, u(service, 4)), (4, u(service * 8 // 10, 4)), (8, u(service // 10, 4)), (12, u(w.excp // 10, 4)),
                          (32, u(1, 4)), (36, ebc(w.workload, 8)), (44, ebc(w.service_class, 8)), (60, ebc(w.report_class, 8)))
    completion = [section(8, (0, u(w.completion_code, 2)))] if w.subtype in (4, 5) else []
    return smf_record(30, w.subtype, 0xDE, w.written, p.sid, w.work_type,
                      [[subsystem], [ident], [io], completion, [processor], [], [], [performance], [], []], trn=False)


@functools.lru_cache(maxsize=64)
def _tcpip_ident(p: SystemProfile, comp: str, asname: str, reason: int) -> bytes:
    return section(64, (0, ebc(p.sysname, 8)), (8, ebc(p.plex, 8)), (16, ebc("TCPIP", 8)), (24, ebc("CS V2R5", 8)),
                   (32, ebc(comp, 8)), (40, ebc(asname, 8)), (48, ebc("TCPIP", 8)), (58, u(0x0041, 2)), (60, u(reason, 1)))


def _utc(p: SystemProfile, t: dt.datetime) -> dt.datetime:
    return t - dt.timedelta(hours=p.utc_offset_h)


def connection_record(p: SystemProfile, c: Connection) -> bytes:
    s, e = _utc(p, c.start), _utc(p, c.end)
    s1 = section(
        216, (0, ebc("CICSPRD1" if c.local_port == 23 else "TCPIP", 8)), (8, u(c.connection_id, 4)),
        (12, u(3 if c.local_port == 443 else 1, 1)), (20, u(hundredths(s), 4)), (24, packed_date(s.date())),
        (28, u(hundredths(e), 4)), (32, packed_date(e.date())), (36, ip16(c.remote_ip)), (52, ip16(p.home_ip)),
        (68, u(c.remote_port, 2)), (70, u(c.local_port, 2)), (72, u(c.in_bytes, 8)), (80, u(c.out_bytes, 8)),
        (88, u(65535, 4)), (92, u(262144, 4)), (96, u(65535, 4)), (100, u(1440, 4)), (104, u(3, 4)), (108, u(1, 4)),
        (112, u(1 if c.active_open else 0, 1)), (180, u(c.in_bytes // 1200 + 1, 8)), (188, u(c.out_bytes // 1400 + 1, 8)),
        (196, u(tod(s), 8)), (204, u(tod(e), 8)),
    )
    return smf_record(119, 2, 0x5E, c.end, p.sid, "TCP", [[_tcpip_ident(p, "TCP", "TCPIP", 0x08)], [s1], [], [], []])


def interface_record(p: SystemProfile, samples: list[InterfaceSample]) -> bytes:
    s1 = [section(
        240, (0, u(int(SMF_INTERVAL.total_seconds() * 1e6) * 4096, 8)), (8, ip16(p.home_ip)), (24, ebc(x.name, 16)),
        (40, ebc(x.name[:8], 16)), (56, ebc(x.kind, 18)), (76, u(8992 if x.kind == "IPAQENET" else 57344, 4)),
        (80, u(0xFFFFFFFF, 4)), (84, u(10_000, 4)), (88, u(x.in_bytes, 8)), (96, u(x.in_packets, 8)), (124, u(x.in_errors, 4)),
        (132, u(x.out_bytes, 8)), (140, u(x.out_packets, 8)), (164, u(x.out_discards, 4)),
    ) for x in samples]
    return smf_record(119, 6, 0x5E, samples[0].written, p.sid, "IP", [[_tcpip_ident(p, "IP", "TCPIP", 0x80)], s1, []])


def ftp_record(p: SystemProfile, f: FtpTransfer) -> bytes:
    s, e = _utc(p, f.start), _utc(p, f.end)
    s1 = section(
        184, (0, u(f.operation, 1)), (4, ebc(f.command, 4)), (8, ebc(f.file_type, 4)), (12, ip16(f.client_ip)), (28, ip16(p.home_ip)),
        (44, u(50001, 2)), (46, u(20, 2)), (48, ip16(f.client_ip)), (64, ip16(p.home_ip)), (80, u(50000, 2)), (82, u(21, 2)),
        (84, ebc(f.user, 8)), (92, ebc("ISFS" if f.file_type == "SEQ" else "ASFS", 4)), (96, u(hundredths(s), 4)),
        (100, packed_date(s.date())), (104, u(hundredths(e), 4)), (108, packed_date(e.date())), (112, u(f.duration_cs, 4)),
        (116, u(f.transfer_bytes, 8)), (124, ebc(" 250" if f.file_type == "SEQ" else " 226", 4)), (128, ebc("", 24)),
        (152, hfp_long(f.transfer_bytes)), (160, u(0x1A2B, 4)), (164, u(0x1A2C, 4)), (168, ebc("FTPD100004", 15)),
    )
    name = f.file_name.encode("latin-1")
    file_name = ebc(f.file_name, None, "cp1047") if name.startswith(b"/") else ebc(f.file_name)
    security = section(38, (0, ebc("TNNP", 4)), (4, ebc("", 28)), (36, ebc("", 2)))
    return smf_record(119, 70, 0x5E, f.end + dt.timedelta(seconds=1), p.sid, "FTPS",
                      [[_tcpip_ident(p, "FTPS", "FTPD1", 0x08)], [s1], [], [file_name], [], [security]])


def tn3270_records(p: SystemProfile, t: Tn3270Session) -> list[tuple[dt.datetime, bytes]]:
    s, e = _utc(p, t.start), _utc(p, t.end)
    common = ((0, ebc(t.lu, 8)), (8, ebc(t.application, 8)), (16, u(0x100, 4)), (20, ip16(t.client_ip)), (36, ip16(p.home_ip)),
              (52, u(49152, 2)), (54, u(23, 2)))
    start = section(64, *common, (56, u(hundredths(s), 4)), (60, packed_date(s.date())))
    end = section(144, *common, (56, ebc("TN3270", 8)), (64, u(t.in_bytes, 8)), (72, u(t.out_bytes, 8)), (80, u(hundredths(s), 4)),
                  (84, packed_date(s.date())), (88, u(hundredths(e), 4)), (92, packed_date(e.date())),
                  (96, u(int((t.end - t.start).total_seconds() * 100), 4)), (100, u(2, 1)), (108, ebc("LOGOFF", 8)),
                  (116, ebc("SNX32705", 8)), (124, ebc("IBM-3278-2-E", 20)))
    ident = [_tcpip_ident(p, "TN3270S", "TN3270", 0x08)]
    return [(t.start, smf_record(119, 20, 0x5E, t.start, p.sid, "TN3S", [ident, [start], []])),
            (t.end, smf_record(119, 21, 0x5E, t.end, p.sid, "TN3S", [ident, [end], [], [], []]))]


def other_record(p: SystemProfile, written: dt.datetime, rtype: int, subtype: int, body: int) -> bytes:
    """A record of a type perfdb does not decode: a real header and self-defining section, filler data."""
    filler = section(body, (0, ebc(f"{rtype}.{subtype} {p.sid} {written:%Y-%m-%d %H:%M}", 40)))
    ssi = {30: "JES2", 72: "RMF", 73: "RMF", 74: "RMF"}.get(rtype, "TCP")
    return smf_record(rtype, subtype, 0xDE, written, p.sid, ssi, [[filler]], trn=rtype != 30)


def day_records(plan: DayPlan) -> list[bytes]:
    """Every record of the day, in the order SMF wrote them (by write time)."""
    p = plan.profile
    out: list[tuple[dt.datetime, bytes]] = [(iv.written, rmf_record(p, iv)) for iv in plan.rmf]
    out += [(c.written, workload_record(p, c)) for c in plan.wlm]
    by_interval: dict[dt.datetime, list[DeviceInterval]] = {}
    for d in plan.devices:
        by_interval.setdefault(d.start, []).append(d)
    out += [(ds[0].written, device_record(p, ds)) for ds in by_interval.values()]
    by_path_interval: dict[dt.datetime, list[ChannelInterval]] = {}
    for c in plan.channels:
        by_path_interval.setdefault(c.start, []).append(c)
    out += [(cs[0].written, channel_record(p, cs)) for cs in by_path_interval.values()]
    out += [(w.written, work_record(p, w)) for w in plan.work]
    out += [(c.end, connection_record(p, c)) for c in plan.connections]
    by_time: dict[dt.datetime, list[InterfaceSample]] = {}
    for x in plan.interfaces:
        by_time.setdefault(x.written, []).append(x)
    out += [(when, interface_record(p, xs)) for when, xs in by_time.items()]
    out += [(f.end + dt.timedelta(seconds=1), ftp_record(p, f)) for f in plan.ftp]
    for t in plan.tn3270:
        out += tn3270_records(p, t)
    out += [(when, other_record(p, when, rtype, subtype, body)) for when, rtype, subtype, body in plan.other]
    out.sort(key=lambda r: r[0])
    return [r for _, r in out]


# -- dumps ---------------------------------------------------------------------------------------------------------------

def vb_bytes(records: list[bytes]) -> bytes:
    """RDW-prefixed records, as FTP binary with SITE RDW delivers them."""
    return b"".join(records)


def vbs_bytes(records: list[bytes], blksize: int = BLKSIZE) -> bytes:
    """Physical VBS blocks: records fill each block, a record that does not fit is spanned over the next."""
    out, block = bytearray(), bytearray()

    def flush() -> None:
        if block:
            out.extend(struct.pack(">HH", len(block) + 4, 0) + block)
            block.clear()

    for rec in records:
        room = blksize - 4 - len(block)
        if len(rec) <= room:
            block += rec  # a complete record's SDW is its RDW (segment code 00)
            continue
        data, first = rec[4:], True
        while data:
            room = blksize - 4 - len(block)
            if room < 5 + 4:  # not even a descriptor and a few bytes: next block
                flush()
                continue
            take = min(len(data), room - 4)
            last = take == len(data)
            code = 0 if (first and last) else 1 if first else 2 if last else 3
            block += struct.pack(">HBB", take + 4, code, 0) + data[:take]
            data, first = data[take:], False
            if data:
                flush()
    flush()
    return bytes(out)


def write_dump(path: Path, records: list[bytes], form: str, blksize: int = BLKSIZE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(vb_bytes(records) if form == "vb" else vbs_bytes(records, blksize))
    return path
