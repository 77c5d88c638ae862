"""``perfdb generate smf``: realistic SMF dumps for one or more z/OS systems and days, VB or VBS.

What a day of one system holds (RMF interval 30 minutes, the RMF default; SMF interval 60 minutes):

* 70.1 - one record per RMF interval: the image's logical CPs and zIIPs (wait, parked time, I/O
  interrupts, dispatches), the CPC's PR/SM partitions (this LPAR, a test LPAR, ``PHYSICAL``) with
  their logical processors and CPU-identification sections. Busy follows a working-day profile
  (prime shift high, batch window at night, quiet weekends) with a slow growth trend, so the
  threshold and trend reports have something to say.
* 30 - started tasks (CICS, DB2, MQ, TCP/IP) write subtype 2 every SMF interval; batch jobs write
  subtype 1 at start (not decoded: it lands in the catch-all), 2/3 for steps that cross an SMF
  interval boundary, 4 per step and 5 per job; TSO users the same on working days. CPU time is about
  88 % of the RMF busy time (a realistic capture ratio); a few applications make most of the load.
* 119 - TCP connection terminations (2) by port and remote network, interface statistics (6) for
  an OSA and a HiperSockets interface, FTP server transfers (70) stores and retrieves of data sets
  and JES spool files, TN3270 session starts and ends (20/21), and TCP/IP statistics (5, not decoded).
* 72.3 records (RMF workload activity), which perfdb does not decode: the catch-all at work.

Everything is deterministic for a seed: each system, day and record family draws from its own
``random.Random`` keyed by (seed, system, date, family), so one day can be regenerated alone (the
round-trip tests compare a day's plan with what the marts report). The encoders below are written
from the layouts in ``formats/smf`` independently of the decoder.

Section clock fields of type 119 are written in UTC (the IBM field texts say GMT); headers and RMF
interval times are local, with the GMT offset in SMF70LGO.
"""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
import random
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ingest.cli_options import add_generator_options, output_dir, positive_int, subcommand
from ingest.formats.smf import ebcdic
from ingest.home import Home

DEMO_START = dt.date(2026, 1, 5)  # the MEASURE demo's first day
DEMO_DAYS = 60
DEMO_SYSTEMS = ("SYSA", "SYSB")
RMF_INTERVAL = dt.timedelta(minutes=30)  # RMF INTERVAL(30M), the RMF default
SMF_INTERVAL = dt.timedelta(minutes=60)  # SMFPRMxx INTVAL(60): SMF 30 subtype 2, SMF 119 interval records
RMF_PER_DAY, SMF_PER_DAY = 48, 24
CAPTURE_RATIO = 0.88
BLKSIZE = 27_998  # half-track 3390 block, the usual SMF dump block size
IPL = dt.datetime(2025, 12, 28, 6, 0)
TOD_EPOCH = dt.datetime(1900, 1, 1)


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


# -- systems and workload --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SystemProfile:
    sid: str
    lpar: str
    lpar_number: int
    cps: int
    ziips: int
    physical_cps: int
    physical_ziips: int
    cpc_serial: str
    home_ip: str
    utc_offset_h: int = 1
    plex: str = "PLEXP1"

    @property
    def sysname(self) -> str:
        return self.sid


def profile_for(sid: str) -> SystemProfile:
    if sid == "SYSA":
        return SystemProfile("SYSA", "PRODA", 1, 4, 2, 6, 2, "000000000002A8E1", "198.51.100.11")
    if sid == "SYSB":
        return SystemProfile("SYSB", "PRODB", 1, 2, 1, 4, 1, "000000000002B3F7", "198.51.100.12")
    rnd = random.Random(f"profile/{sid}")
    cps = rnd.choice((2, 3, 4))
    return SystemProfile(sid, f"LP{sid[:6]}", 1, cps, 1, cps + 2, 1, f"{rnd.randrange(16**16):016X}", f"198.51.100.{rnd.randrange(20, 250)}")


@dataclass(frozen=True)
class StartedTask:
    job_name: str
    program: str
    service_class: str
    report_class: str
    workload: str
    weight_day: float
    weight_night: float
    ziip: bool = False


STARTED_TASKS = (
    StartedTask("CICSPRD1", "DFHSIP", "CICSHIGH", "RCICSP1", "ONLINE", 34, 5),
    StartedTask("DB2PDBM1", "DSNYASCP", "STCHI", "RDB2DBM1", "DB2", 22, 12),
    StartedTask("CICSPRD2", "DFHSIP", "CICSHIGH", "RCICSP2", "ONLINE", 18, 3),
    StartedTask("DB2PDIST", "DSNYASCP", "DDFHIGH", "RDB2DDF", "DB2", 9, 3, ziip=True),
    StartedTask("MQP1MSTR", "CSQYASCP", "STCHI", "RMQ", "MQ", 4, 2),
    StartedTask("TCPIP", "EZBTCPIP", "SYSSTC", "RTCPIP", "SYSTEM", 2, 1.5),
)


@dataclass(frozen=True)
class BatchJob:
    name: str
    job_class: str
    days: str  # daily | weekday | sunday
    start: tuple[int, int]
    steps: tuple[tuple[str, str, float, float, int], ...]  # step, program, CPU s, elapsed min, EXCPs


BATCH_JOBS = (
    BatchJob("BACKUP01", "B", "daily", (1, 0), (("DUMP", "ADRDSSU", 45, 48, 180_000),)),
    BatchJob("DB2REORG", "C", "sunday", (2, 10), (("UNLOAD", "DSNUTILB", 220, 42, 90_000), ("RELOAD", "DSNUTILB", 260, 55, 95_000))),
    BatchJob("PAYROLL1", "A", "weekday", (19, 30), (("STEP010", "SORT", 35, 7, 20_000), ("STEP020", "PAYCALC", 320, 38, 15_000), ("STEP030", "IEBGENER", 3, 2, 2_000))),
    BatchJob("BILLING1", "A", "weekday", (21, 0), (("EXTRACT", "BILEXTR", 140, 24, 60_000), ("SORT", "SORT", 70, 9, 40_000), ("PRICE", "BILPRICE", 650, 66, 20_000), ("PRINT", "IEBGENER", 6, 4, 3_000))),
) + tuple(
    BatchJob(f"EODJ{k:04d}", "A", "weekday", (18, 5 + 12 * k), (("RUN", f"EODP{k:04d}", 8 + 2 * k, 4 + k % 5, 2_000 + 300 * k),))
    for k in range(1, 9)
)

TSO_USERS = ("USR0001", "USR0002")

CONNECTION_MIX = (  # (local port, remote network prefix, share, mean in bytes, mean out bytes, mean seconds, active open)
    (23, "192.0.2.", 0.26, 40_000, 900_000, 2_400, False),
    (443, "203.0.113.", 0.22, 6_000, 60_000, 2, False),
    (446, "198.51.100.", 0.18, 150_000, 900_000, 40, False),
    (1414, "198.51.100.", 0.10, 2_000_000, 1_500_000, 3_600, False),
    (21, "192.0.2.", 0.08, 3_000, 9_000, 90, False),
    (443, "2001:db8:10::", 0.10, 8_000, 90_000, 3, False),
    (1414, "203.0.113.", 0.06, 600_000, 800_000, 1_800, True),
)

FTP_MIX = (  # (operation, command, file type, share, mean MB, rate MB/s) - rates of a modern OSA/z15 setup
    (5, "STOR", "SEQ", 0.38, 60, 28.0),
    (4, "RETR", "SEQ", 0.34, 90, 45.0),
    (4, "RETR", "JES", 0.18, 2, 4.0),
    (5, "STOR", "JES", 0.05, 0.2, 2.5),
    (1, "APPE", "SEQ", 0.05, 8, 22.0),
)


# -- the plan of one day (everything the records say, in the units they say it) ---------------------------------------

@dataclass
class CpuSample:  # one logical CPU of this image in one RMF interval (CPU data + its PR/SM logical processor)
    cpu_id: int
    cpu_type: str  # CP | zIIP
    wait_us: int
    parked_us: int
    online_us: int
    dispatch_us: int
    effective_us: int
    io_interrupts: int
    dispatches: int


@dataclass
class RmfInterval:
    start: dt.datetime
    interval_ms: int
    cpus: list[CpuSample]
    other_lps: list[tuple[str, int, str, int, int, int]]  # partition, number, type, dispatch, effective, online (µs)

    @property
    def written(self) -> dt.datetime:
        return self.start + dt.timedelta(milliseconds=self.interval_ms, seconds=1)


@dataclass
class WorkRecord:  # one SMF 30 record
    subtype: int
    work_type: str
    job_name: str
    job_id: str
    step_name: str
    step_number: int
    program: str
    reader_start: dt.datetime
    step_start: dt.datetime
    written: dt.datetime
    interval_start: dt.datetime | None
    cpu_tcb_cs: int
    cpu_srb_cs: int
    ziip_cs: int
    excp: int
    service_class: str
    report_class: str
    workload: str
    job_class: str = ""
    completion_code: int = 0


@dataclass
class Connection:  # 119.2
    local_port: int
    remote_ip: str
    remote_port: int
    start: dt.datetime  # local
    end: dt.datetime
    in_bytes: int
    out_bytes: int
    active_open: bool
    connection_id: int


@dataclass
class InterfaceSample:  # one interface section of a 119.6 record
    written: dt.datetime
    name: str
    kind: str
    in_bytes: int
    out_bytes: int
    in_packets: int
    out_packets: int
    in_errors: int
    out_discards: int


@dataclass
class FtpTransfer:  # 119.70
    operation: int
    command: str
    file_type: str
    user: str
    client_ip: str
    file_name: str
    start: dt.datetime  # local
    duration_cs: int
    transfer_bytes: int

    @property
    def end(self) -> dt.datetime:
        return self.start + dt.timedelta(milliseconds=10 * self.duration_cs)


@dataclass
class Tn3270Session:  # 119.20 at logon, 119.21 at logoff
    lu: str
    application: str
    client_ip: str
    start: dt.datetime
    end: dt.datetime
    in_bytes: int
    out_bytes: int


@dataclass
class DayPlan:
    profile: SystemProfile
    day: dt.date
    rmf: list[RmfInterval] = field(default_factory=list)
    work: list[WorkRecord] = field(default_factory=list)
    connections: list[Connection] = field(default_factory=list)
    interfaces: list[InterfaceSample] = field(default_factory=list)
    ftp: list[FtpTransfer] = field(default_factory=list)
    tn3270: list[Tn3270Session] = field(default_factory=list)
    other: list[tuple[dt.datetime, int, int, int]] = field(default_factory=list)  # (written, type, subtype, body bytes)


def _rng(seed: int, sid: str, day: dt.date, family: str) -> random.Random:
    return random.Random(f"{seed}/{sid}/{day.isoformat()}/{family}")


def _busy_target(day: dt.date, start: dt.datetime, rnd: random.Random) -> float:
    """Average CP busy (fraction of unparked time) for the interval starting at ``start``."""
    hour = start.hour + start.minute / 60
    weekday = day.weekday() < 5
    if weekday and 8 <= hour < 17:
        base = 0.62 + 0.12 * (1 - abs(hour - 11.5) / 4)  # peaks late morning
    elif 19 <= hour or hour < 4:
        base = 0.48
    else:
        base = 0.24
    if not weekday:
        base *= 0.55
    # ~12 % more a month from the demo's first day (capped after five months): capacity runs out some day
    growth = 1 + 0.004 * min(max((day - DEMO_START).days, 0), 150)
    return min(0.97, max(0.03, base * growth + rnd.gauss(0, 0.035)))


def _plan_rmf(plan: DayPlan, rnd: random.Random) -> list[float]:
    """CP busy seconds per interval (what SMF 30 work must roughly add up to)."""
    p = plan.profile
    cp_busy_s = []
    for k in range(RMF_PER_DAY):
        start = dt.datetime.combine(plan.day, dt.time()) + k * RMF_INTERVAL
        interval_ms = 1_800_000 - rnd.randrange(0, 6)  # RMF intervals run a few ms short
        interval_us = interval_ms * 1000
        target = _busy_target(plan.day, start, rnd)
        cpus = []
        weights = [1.15, 1.05, 0.95, 0.85, 0.8, 0.75][: p.cps]
        parked_last = target < 0.35 and p.cps > 1  # HiperDispatch parks the vertical-low CP when quiet
        unparked = [interval_us // 2 if (parked_last and i == p.cps - 1) else interval_us for i in range(p.cps)]
        total_busy = target * sum(unparked)
        scale = total_busy / sum(w * un for w, un in zip(weights, unparked))
        busy_sum = 0
        for i in range(p.cps):
            busy = int(min(0.985 * unparked[i], weights[i] * unparked[i] * scale))
            busy_sum += busy
            cpus.append(_cpu_sample(i, "CP", interval_us, busy, interval_us - unparked[i], rnd))
        cp_busy_s.append(busy_sum / 1e6)
        for j in range(p.ziips):
            busy = int(interval_us * min(0.9, max(0.02, 0.55 * target + rnd.gauss(0, 0.03))))
            cpus.append(_cpu_sample(p.cps + j, "zIIP", interval_us, busy, 0, rnd))
        others = []
        for _ in range(2):  # a test LPAR with two shared CPs, lightly used
            dispatch = int(interval_us * (0.08 + 0.04 * rnd.random()))
            others.append(("TESTLP", 2, "CP", dispatch, int(dispatch * 0.985), interval_us))
        physical = [("PHYSICAL", 0, t, int(interval_us * 0.004), 0, interval_us)
                    for t in ["CP"] * p.physical_cps + ["zIIP"] * p.physical_ziips]
        plan.rmf.append(RmfInterval(start, interval_ms, cpus, others + physical))
    return cp_busy_s


def _cpu_sample(cpu_id: int, cpu_type: str, interval_us: int, busy_us: int, parked_us: int, rnd: random.Random) -> CpuSample:
    dispatch = min(interval_us, int(busy_us * 1.018) + 1500)  # PR/SM dispatch includes LPAR management
    effective = min(dispatch, int(busy_us * 1.004))
    return CpuSample(
        cpu_id=cpu_id, cpu_type=cpu_type, wait_us=interval_us - parked_us - busy_us, parked_us=parked_us,
        online_us=interval_us, dispatch_us=dispatch, effective_us=effective,
        io_interrupts=int(busy_us / 1e6 * rnd.uniform(150, 260)), dispatches=int(busy_us / 1e6 * rnd.uniform(3000, 5000)),
    )


def _plan_work(plan: DayPlan, cp_busy_s: list[float], seed: int) -> None:
    rnd = _rng(seed, plan.profile.sid, plan.day, "work")
    day0 = dt.datetime.combine(plan.day, dt.time())
    batch_cs = [0] * SMF_PER_DAY
    job_number = 10_000 + (plan.day - DEMO_START).days % 50 * 1000
    steps_todo = []
    for job in BATCH_JOBS:
        runs = job.days == "daily" or (job.days == "weekday" and plan.day.weekday() < 5) or (job.days == "sunday" and plan.day.weekday() == 6)
        if not runs:
            continue
        job_number += 1
        steps_todo.append((job.name, f"JOB{job_number:05d}", "JES2", job.job_class,
                           day0 + dt.timedelta(hours=job.start[0], minutes=job.start[1], seconds=rnd.randrange(0, 120)),
                           [(s, pgm, cpu * rnd.uniform(0.85, 1.15), mins * rnd.uniform(0.8, 1.2), int(excp * rnd.uniform(0.9, 1.1)))
                            for s, pgm, cpu, mins, excp in job.steps]))
    if plan.day.weekday() < 5:
        for k, user in enumerate(TSO_USERS):
            job_number += 1
            logon = day0 + dt.timedelta(hours=8, minutes=10 + 25 * k, seconds=rnd.randrange(60))
            steps_todo.append((user, f"TSU{job_number:05d}", "TSO", "", logon,
                               [(user, "IKJEFT01", rnd.uniform(20, 60), rnd.uniform(420, 500), rnd.randrange(2_000, 9_000))]))
    for job_name, job_id, work_type, job_class, reader_start, steps in steps_todo:
        plan.other.append((reader_start + dt.timedelta(seconds=1), 30, 1, 184))  # job start: not decoded
        t = reader_start + dt.timedelta(seconds=3)
        totals = [0, 0, 0]
        for number, (step, pgm, cpu_s, minutes, excp) in enumerate(steps, 1):
            end = t + dt.timedelta(minutes=minutes)
            end = min(end, day0 + dt.timedelta(hours=23, minutes=59, seconds=50))
            cpu_cs = int(cpu_s * 100)
            tcb, srb = cpu_cs * 93 // 100, cpu_cs - cpu_cs * 93 // 100
            common = dict(work_type=work_type, job_name=job_name, job_id=job_id, step_name=step, step_number=number,
                          program=pgm, reader_start=reader_start, step_start=t, ziip_cs=0,
                          service_class="BATCHMED" if work_type == "JES2" else "TSOHI", report_class=f"R{job_name[:7]}",
                          workload="BATCH" if work_type == "JES2" else "TSO", job_class=job_class)
            # interval records for the pieces between SMF interval boundaries, subtype 3 for the last piece
            boundaries = [b for b in (day0 + k * SMF_INTERVAL for k in range(1, SMF_PER_DAY + 1)) if t < b < end]
            if boundaries:
                edges = [t, *boundaries, end]
                span = (end - t).total_seconds()
                left = [tcb, srb, excp]
                for i, (a, b) in enumerate(zip(edges, edges[1:])):
                    last = i == len(edges) - 2
                    share = (b - a).total_seconds() / span
                    piece = left if last else [int(v * share) for v in (tcb, srb, excp)]
                    left = [x - y for x, y in zip(left, piece)] if not last else left
                    plan.work.append(WorkRecord(subtype=3 if last else 2, written=b, interval_start=a, cpu_tcb_cs=piece[0],
                                                cpu_srb_cs=piece[1], excp=piece[2], **common))
                    batch_cs[min(SMF_PER_DAY - 1, int((a - day0) / SMF_INTERVAL))] += piece[0] + piece[1]
            else:
                batch_cs[min(SMF_PER_DAY - 1, int((t - day0) / SMF_INTERVAL))] += tcb + srb
            plan.work.append(WorkRecord(subtype=4, written=end, interval_start=None, cpu_tcb_cs=tcb, cpu_srb_cs=srb, excp=excp, **common))
            totals = [totals[0] + tcb, totals[1] + srb, totals[2] + excp]
            t = end + dt.timedelta(seconds=2)
        plan.work.append(WorkRecord(subtype=5, written=t, interval_start=None, cpu_tcb_cs=totals[0], cpu_srb_cs=totals[1],
                                    excp=totals[2], **{**common, "step_name": "", "step_number": len(steps), "step_start": reader_start}))
    # started tasks: what the hour's captured CP time leaves after batch and TSO
    per_smf = RMF_PER_DAY // SMF_PER_DAY
    for k in range(SMF_PER_DAY):
        start = day0 + k * SMF_INTERVAL
        rmf = plan.rmf[k * per_smf : (k + 1) * per_smf]
        night = not (8 <= start.hour < 18)
        captured_cs = int(sum(cp_busy_s[k * per_smf : (k + 1) * per_smf]) * CAPTURE_RATIO * 100)
        left = max(captured_cs // 20, captured_cs - batch_cs[k])
        weights = [(s.weight_night if night else s.weight_day) * rnd.uniform(0.85, 1.15) for s in STARTED_TASKS]
        ziip_busy_cs = sum(c.dispatch_us for iv in rmf for c in iv.cpus if c.cpu_type == "zIIP") // 10_000
        for number, (stc, w) in enumerate(zip(STARTED_TASKS, weights)):
            cpu_cs = int(left * w / sum(weights))
            plan.work.append(WorkRecord(
                subtype=2, work_type="STC", job_name=stc.job_name, job_id=f"STC{1000 + number:05d}",
                step_name=stc.job_name, step_number=1, program=stc.program, reader_start=IPL, step_start=IPL,
                written=start + SMF_INTERVAL, interval_start=start, cpu_tcb_cs=cpu_cs * 4 // 5, cpu_srb_cs=cpu_cs - cpu_cs * 4 // 5,
                ziip_cs=int(ziip_busy_cs * 0.9) if stc.ziip else 0, excp=int(cpu_cs * rnd.uniform(1.5, 4)),
                service_class=stc.service_class, report_class=stc.report_class, workload=stc.workload))


def _host_in(prefix: str, rnd: random.Random) -> str:
    """An address inside the network ``prefix`` (``192.0.2.`` or ``2001:db8:10::``)."""
    return f"{prefix}{rnd.randrange(1, 0xFFFF):x}" if ":" in prefix else f"{prefix}{rnd.randrange(2, 254)}"


def _plan_tcpip(plan: DayPlan, seed: int) -> None:
    rnd = _rng(seed, plan.profile.sid, plan.day, "tcpip")
    day0 = dt.datetime.combine(plan.day, dt.time())
    weekday = plan.day.weekday() < 5
    for k in range(SMF_PER_DAY):  # connections closing in each hour, more in prime shift
        start = day0 + k * SMF_INTERVAL
        count = (12 if weekday and 8 <= start.hour < 18 else 4) + rnd.randrange(5)
        for _ in range(count):
            port, prefix, _, mean_in, mean_out, mean_s, active = rnd.choices(CONNECTION_MIX, [m[2] for m in CONNECTION_MIX])[0]
            end = start + dt.timedelta(seconds=rnd.uniform(0, 3599))
            seconds = min(rnd.expovariate(1 / mean_s), (end - day0).total_seconds())
            plan.connections.append(Connection(
                local_port=rnd.randrange(1024, 65535) if active else port,
                remote_ip=_host_in(prefix, rnd), remote_port=port if active else rnd.randrange(1024, 65535),
                start=end - dt.timedelta(seconds=round(seconds, 2)), end=end,
                in_bytes=int(rnd.expovariate(1 / mean_in)) + 60, out_bytes=int(rnd.expovariate(1 / mean_out)) + 60, active_open=active,
                connection_id=rnd.randrange(1, 1 << 24)))
        busy = 6.0 if weekday and 8 <= start.hour < 18 else 1.0
        for name, kind, scale in (("OSAQDIO1", "IPAQENET", 1.0), ("IUTIQDIO", "IPAQIDIO", 0.4)):
            in_bytes = int(busy * scale * rnd.uniform(4e8, 8e8))
            out_bytes = int(busy * scale * rnd.uniform(6e8, 14e8))
            plan.interfaces.append(InterfaceSample(start + SMF_INTERVAL, name, kind, in_bytes, out_bytes,
                                                   in_bytes // 900, out_bytes // 1200, rnd.randrange(0, 3), rnd.randrange(0, 5)))
        plan.other.append((start + SMF_INTERVAL, 119, 5, 240))  # TCP/IP statistics: not decoded
    for _ in range(10 + rnd.randrange(8) if weekday else 3 + rnd.randrange(3)):
        op, cmd, ftype, _, mean_mb, rate = rnd.choices(FTP_MIX, [m[3] for m in FTP_MIX])[0]
        size = max(4096, int(rnd.expovariate(1 / (mean_mb * 1_048_576))))
        duration_cs = max(1, round(size / (rate * rnd.uniform(0.7, 1.3) * 1_048_576) * 100))
        start = day0 + dt.timedelta(seconds=rnd.uniform(7 * 3600, 22 * 3600))
        user = rnd.choice(("USER1", "BATCHFT", "PARTNER1"))
        name = f"'{user}.OUTPUT.JOB{rnd.randrange(10000, 99999)}'" if ftype == "JES" else (
            f"/u/{user.lower()}/exports/data{rnd.randrange(100)}.bin" if rnd.random() < 0.2 else f"{user}.DATA.D{plan.day:%y%j}.F{rnd.randrange(100):02d}")
        plan.ftp.append(FtpTransfer(op, cmd, ftype, user, _host_in("192.0.2.", rnd), name, start, duration_cs, size))
    for n in range(24 if weekday else 4):
        logon = day0 + dt.timedelta(hours=rnd.uniform(7.5, 10), minutes=n)
        logoff = logon + dt.timedelta(hours=rnd.uniform(0.5, 7))
        plan.tn3270.append(Tn3270Session(f"TCPL{n:04d}", rnd.choice(("CICSPRD1", "TSO", "CICSPRD2")), _host_in("192.0.2.", rnd),
                                         logon, logoff, rnd.randrange(20_000, 400_000), rnd.randrange(200_000, 6_000_000)))
    for k in range(RMF_PER_DAY):  # RMF workload activity: perfdb does not decode it yet
        written = day0 + (k + 1) * RMF_INTERVAL + dt.timedelta(seconds=2)
        plan.other.append((written, 72, 3, 400))


def plan_day(sid: str, day: dt.date, seed: int) -> DayPlan:
    plan = DayPlan(profile_for(sid), day)
    cp_busy_s = _plan_rmf(plan, _rng(seed, sid, day, "rmf"))
    _plan_work(plan, cp_busy_s, seed)
    _plan_tcpip(plan, seed)
    return plan


# -- the plan as records ---------------------------------------------------------------------------------------------

def rmf_record(p: SystemProfile, iv: RmfInterval) -> bytes:
    interval_ms = iv.interval_ms
    product = section(
        104, (0, packed_digits(25, 3)), (2, ebc("RMF", 8)), (10, packed_digits(int(iv.start.strftime("%H%M%S")), 7)),
        (14, packed_date(iv.start.date())), (18, packed_digits(interval_ms // 60000 * 100000 + interval_ms % 60000, 7)),
        (24, u(interval_ms // 1000, 4)), (30, u(0x1000, 2)), (36, packed_digits(1000, 7)), (40, ebc("ZV020500", 8)),
        (49, u(0x14, 1)), (50, u(p.lpar_number, 1)), (60, struct.pack(">q", p.utc_offset_h * 3600 * 1_000_000 * 4096)),
        (78, u(0, 2)), (88, ebc(p.plex, 8)), (96, ebc(p.sysname, 8)),
    )
    control = section(
        96, (0, u(0x8561, 2)), (3, u(p.physical_cps + p.physical_ziips, 1)), (4, u(0x10, 1)), (5, u(0x08, 1)),
        (8, ebc(f"7{p.physical_cps:02d}", 16)), (24, u(360, 2)), (32, u(180 * p.cps, 4)), (36, u(150 * p.cps, 4)),
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
                          (20, ebc(p.plex, 8)), (28, ebc(p.sysname, 8)), (40, u(65536, 4)))]
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
    ssi = {30: "JES2", 72: "RMF", 74: "RMF"}.get(rtype, "TCP")
    return smf_record(rtype, subtype, 0xDE, written, p.sid, ssi, [[filler]], trn=rtype != 30)


def day_records(plan: DayPlan) -> list[bytes]:
    """Every record of the day, in the order SMF wrote them (by write time)."""
    p = plan.profile
    out: list[tuple[dt.datetime, bytes]] = [(iv.written, rmf_record(p, iv)) for iv in plan.rmf]
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


def generate(out_dir: Path, systems: list[str], start: dt.date, days: int, seed: int,
             forms: dict[str, str], days_per_file: int = 1, blksize: int = BLKSIZE) -> list[Path]:
    """Dumps of ``days_per_file`` days each, per system, named like the data sets an IFASMFDL job writes."""
    written = []
    for sid in systems:
        for first in range(0, days, days_per_file):
            span = [start + dt.timedelta(days=d) for d in range(first, min(days, first + days_per_file))]
            records = [r for day in span for r in day_records(plan_day(sid, day, seed))]
            name = f"SMF.{sid}.D{span[0]:%y%j}.D{span[-1]:%y%j}.{forms[sid].upper()}.dump"
            written.append(write_dump(out_dir / name, records, forms[sid], blksize))
    return written


def demo(home: Home, seed: int) -> list[Path]:
    """Two systems, the MEASURE demo's 60 days, one dump a week each: SYSA as VB, SYSB as VBS blocks."""
    return generate(home.landing / "smf", list(DEMO_SYSTEMS), DEMO_START, DEMO_DAYS, seed,
                    {"SYSA": "vb", "SYSB": "vbs"}, days_per_file=7)


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "smf", _cmd, help="z/OS SMF dumps (70.1, 30, 119 and a few undecoded types), VB or VBS")
    add_generator_options(p, "smf", start=DEMO_START, days=1, days_type=positive_int)
    p.add_argument("--systems", default="SYSA", help="comma-separated SMF system ids (default SYSA)")
    p.add_argument("--form", choices=["vb", "vbs"], default="vb", help="RDW-prefixed records or VBS block images")
    p.add_argument("--blksize", type=int, default=BLKSIZE, help="VBS block size (default %(default)s)")
    p.add_argument("--days-per-file", type=positive_int, default=1)


def _cmd(args) -> int:
    try:
        systems = [s.strip().upper() for s in args.systems.split(",") if s.strip()]
        if not systems or any(len(s) > 4 for s in systems):
            raise ValueError("SMF system ids are 1 to 4 characters, e.g. --systems SYSA,SYSB")
        if not 64 <= args.blksize <= 32_760:
            raise ValueError("--blksize must be between 64 and 32760")
    except ValueError as e:
        print(f"perfdb generate smf: {e}", file=sys.stderr)
        return 2
    forms = {s: args.form for s in systems}
    paths = generate(output_dir(args, "smf"), systems, args.start, args.days, args.seed, forms, args.days_per_file, args.blksize)
    for path in paths:
        print(path)
    return 0
