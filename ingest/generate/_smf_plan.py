"""The plan of one generated z/OS day: the systems, their started tasks, batch jobs, TSO users, connections
and transfers, and what each RMF interval and SMF interval says, in the units the records say it.

``perfdb generate smf`` (``ingest/generate/smf.py``) describes the day a plan models; ``_smf_records``
encodes a plan as SMF records. Each system, day and record family draws from its own ``random.Random``
keyed by (seed, system, date, family), so one day can be regenerated alone."""

from __future__ import annotations

import csv
import datetime as dt
import functools
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from ingest.capacity.sizing import KB, TN3270_OVERHEAD_KI_PER_TXN
from ingest.generate._smf_channels import ChannelInterval, plan_channels
from ingest.generate._smf_dasd import DeviceInterval, plan_devices

DEMO_START = dt.date(2026, 1, 5)  # the MEASURE demo's first day; load grows from it
RMF_INTERVAL = dt.timedelta(minutes=30)  # RMF INTERVAL(30M), the RMF default
GRPB_LIMIT_MSU = 300  # SYSB's capacity group: its 4HRA passes 300 MSU/h on a few percent of the demo's intervals
SMF_INTERVAL = dt.timedelta(minutes=60)  # SMFPRMxx INTVAL(60): SMF 30 subtype 2, SMF 119 interval records
RMF_PER_DAY, SMF_PER_DAY = 48, 24
CAPTURE_RATIO = 0.88
# What the FTP and TN3270 servers spend, in seed 004's units: KI per KB an FTP transfer moves (G.5 prints
# 15 to 80) and KI per TN3270 transaction (L4347), 2 transactions a minute per session (L4536), on
# engines of the speed the seed processor_speeds gives the system (no SMF record carries MIPS)
FTP_KI_PER_KB = 40.0
TN3270_TRANSACTIONS_PER_MIN = 2.0
PROCESSOR_SPEEDS = Path(__file__).resolve().parents[2] / "dbt_project" / "seeds" / "processor_speeds.csv"
# The systems' last IPL; before it, a maintenance IPL every 13 weeks (a Sunday 06:00 like it), so that a
# started task's step never starts after the records it writes, whatever day range is generated
IPL = dt.datetime(2025, 12, 28, 6, 0)
IPL_EVERY = dt.timedelta(weeks=13)
TOD_EPOCH = dt.datetime(1900, 1, 1)


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
    defined_capacity_msu: int = 0  # SMF70MSU of its partition; 0 = no defined capacity
    capacity_group: str = ""  # SMF70GNM of its partition; "" = not in a capacity group
    group_max_msu: int = 0  # SMF70GMU: the group's limit

    @property
    def sysname(self) -> str:
        return self.sid


def profile_for(sid: str) -> SystemProfile:
    if sid == "SYSA":
        # 4 CPs at 180 MSU/h each (SMF70CPA 320): a defined capacity of 480 MSU/h, which the rolling four-hour
        # average of busy weekdays reaches, so the demo has capped intervals
        return SystemProfile("SYSA", "PRODA", 1, 4, 2, 6, 2, "000000000002A8E1", "198.51.100.11", defined_capacity_msu=480)
    if sid == "SYSB":
        # in capacity group GRPB, whose limit its busiest hours reach (fct_msu_group_interval caps it)
        return SystemProfile("SYSB", "PRODB", 1, 2, 1, 4, 1, "000000000002B3F7", "198.51.100.12",
                             capacity_group="GRPB", group_max_msu=GRPB_LIMIT_MSU)
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
    # the servers of the SMF 119 FTP transfers and TN3270 sessions, each in an address space of its own with
    # a report class the seed workload_definitions maps (RFTP*, RTN3270*): what the sizing report divides.
    # Their CPU follows their work (server_cpu_cs), not a weight
    StartedTask("FTPD1", "FTPD", "SYSSTC", "RFTPD", "FTP", 0, 0),
    StartedTask("TN3270", "EZBTNINI", "SYSSTC", "RTN3270", "TN3270", 0, 0),
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


@dataclass(frozen=True)
class WlmClass:  # a WLM service class with one period, as its 72.3 record reports it
    name: str
    workload: str
    description: str
    goal_flags: int  # R723CRGF: X'80' percentile response time, X'40' average response time, X'20' velocity, X'08' system
    goal_value: int  # ms for a response time goal, % for velocity
    importance: int
    share_day: float  # of the interval's captured CP time, 08:00-18:00
    share_night: float
    transactions_per_cpu_s: float
    response_s: float
    io_per_cpu_s: float
    ziip_per_cp: float = 0.0  # zIIP seconds per CP second
    contention: float = 0.5  # delay samples per using sample at a CP utilization u of u / (1 - u) = 1
    percentile: int = 0  # R723CPCT of a percentile goal


# service definition the 72.3 records carry: 50,000 CPU service units a second (R723MADJ 320 sixteenths of a µs
# per unit, R723MCPU/R723MSRB 1.0), zIIPs as fast as CPs (R723NFFS 256)
SU_PER_CPU_S, WLM_ADJUSTMENT, WLM_NORMALIZATION = 50_000, 320, 256
# the upper bounds of RMF's response time buckets, as fractions of the goal (the 14th has none)
RT_BUCKET_BOUNDS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 2.0, 4.0)
WLM_CLASSES = (  # shares add up to 1 by day and by night: what the workload marts must give back
    WlmClass("CICSHIGH", "ONLINE", "CICS production regions", 0x40, 250, 1, 0.46, 0.10, 250.0, 0.18, 30.0),
    # 90 % within 150 ms; response times exponential around their mean of 50 ms: 90 % end within 115 ms, in the
    # 80 % bucket of the distribution, performance index 0.8
    WlmClass("DDFHIGH", "DB2", "DB2 distributed requests", 0x80, 150, 2, 0.12, 0.06, 400.0, 0.05, 60.0, ziip_per_cp=1.2,
             percentile=90),
    # velocity 1 / (1 + contention x u / (1 - u)): BATCHMED misses 30 over a busy weekday's first shift (u about
    # 0.68: 24 %) and meets it at night (u about 0.4: 53 %); STCHI misses 60 only above u = 0.77, on the first
    # shifts of the later weeks, when the load has grown
    WlmClass("STCHI", "STC", "Important started tasks", 0x20, 60, 1, 0.18, 0.20, 0.0, 0.0, 80.0, contention=0.2),
    WlmClass("BATCHMED", "BATCH", "Production batch", 0x20, 30, 4, 0.10, 0.52, 1 / 60, 240.0, 400.0, contention=1.5),
    WlmClass("TSOHI", "TSO", "TSO users", 0x40, 500, 2, 0.08, 0.02, 20.0, 0.3, 15.0),
    WlmClass("SYSSTC", "SYSTEM", "System started tasks", 0x08, 0, 0, 0.06, 0.10, 0.0, 0.0, 5.0),
)

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
class ClassInterval:  # one 72.3 record: a WLM service class in an RMF interval
    wlm: WlmClass
    start: dt.datetime
    interval_ms: int
    written: dt.datetime
    cp_s: float  # general CP seconds (TCB + SRB)
    ziip_s: float
    transactions: int
    dasd_io: int
    using_samples: int = 0  # R723CTOU: WLM samples 4 times a second what it manages, CPU and I/O usings
    cpu_using_samples: int = 0  # R723CCUS
    delay_samples: int = 0  # R723CTOT

    @property
    def cpu_service_units(self) -> int:  # R723CCPU: TCB on CPs and normalized zIIP service
        return round(self.cp_s * 0.85 * SU_PER_CPU_S) + self.ziip_service_units

    @property
    def srb_service_units(self) -> int:
        return round(self.cp_s * SU_PER_CPU_S) - round(self.cp_s * 0.85 * SU_PER_CPU_S)

    @property
    def ziip_service_units(self) -> int:
        return round(self.ziip_s * SU_PER_CPU_S)

    @property
    def response_time_counts(self) -> list[int]:
        """R723TRDB: the transactions in each of RMF's 14 response time buckets around the goal, the response
        times exponential around the class's mean."""
        goal_s = self.wlm.goal_value / 1000
        ended = [round(self.transactions * (1 - math.exp(-bound * goal_s / self.wlm.response_s))) for bound in RT_BUCKET_BOUNDS]
        return [now - before for before, now in zip([0, *ended], [*ended, self.transactions])]


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
    wlm: list[ClassInterval] = field(default_factory=list)
    work: list[WorkRecord] = field(default_factory=list)
    connections: list[Connection] = field(default_factory=list)
    interfaces: list[InterfaceSample] = field(default_factory=list)
    ftp: list[FtpTransfer] = field(default_factory=list)
    tn3270: list[Tn3270Session] = field(default_factory=list)
    devices: list[DeviceInterval] = field(default_factory=list)  # 74.1 device data sections, interval by interval
    channels: list[ChannelInterval] = field(default_factory=list)  # 73.1 channel path data sections, likewise
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
    ipl = last_ipl(day0)
    for k in range(SMF_PER_DAY):
        start = day0 + k * SMF_INTERVAL
        rmf = plan.rmf[k * per_smf : (k + 1) * per_smf]
        night = not (8 <= start.hour < 18)
        captured_cs = int(sum(cp_busy_s[k * per_smf : (k + 1) * per_smf]) * CAPTURE_RATIO * 100)
        left = max(captured_cs // 20, captured_cs - batch_cs[k])
        servers = server_cpu_cs(plan, start)
        left = max(0, left - sum(servers.values()))
        weights = [(s.weight_night if night else s.weight_day) * rnd.uniform(0.85, 1.15) for s in STARTED_TASKS]
        ziip_busy_cs = sum(c.dispatch_us for iv in rmf for c in iv.cpus if c.cpu_type == "zIIP") // 10_000
        for number, (stc, w) in enumerate(zip(STARTED_TASKS, weights)):
            cpu_cs = servers.get(stc.workload, int(left * w / sum(weights)))
            plan.work.append(WorkRecord(
                subtype=2, work_type="STC", job_name=stc.job_name, job_id=f"STC{1000 + number:05d}",
                step_name=stc.job_name, step_number=1, program=stc.program, reader_start=ipl, step_start=ipl,
                written=start + SMF_INTERVAL, interval_start=start, cpu_tcb_cs=cpu_cs * 4 // 5, cpu_srb_cs=cpu_cs - cpu_cs * 4 // 5,
                ziip_cs=int(ziip_busy_cs * 0.9) if stc.ziip else 0, excp=int(cpu_cs * rnd.uniform(1.5, 4)),
                service_class=stc.service_class, report_class=stc.report_class, workload=stc.workload))


def last_ipl(at: dt.datetime) -> dt.datetime:
    """The IPL the started tasks running at ``at`` started with."""
    if at >= IPL:
        return IPL
    return IPL - IPL_EVERY * math.ceil((IPL - at) / IPL_EVERY)


@functools.cache
def _processor_speeds() -> dict[str, float]:
    with open(PROCESSOR_SPEEDS, newline="") as f:
        return {r["system_name"]: float(r["mips_per_engine"]) for r in csv.DictReader(f)}


def mips_per_engine(sid: str) -> float:
    """The engine speed the seed processor_speeds gives a system (1200 for the demo's SYSA and SYSB); a
    system it does not name runs on engines as fast as its first row's."""
    speeds = _processor_speeds()
    return speeds.get(sid, next(iter(speeds.values())))


def server_cpu_cs(plan: DayPlan, start: dt.datetime) -> dict[str, int]:
    """CPU centiseconds of the FTP and TN3270 servers in the SMF interval from ``start``, by workload: the
    transfers that completed in it at FTP_KI_PER_KB, the sessions' connected minutes in it at 2 transactions
    a minute of 280 KI. A 1 MiB transfer on 1200-MIPS engines: 1024 KB x 40 KI / 1,200,000 KIPS = 3.4 cs."""
    end, kips = start + SMF_INTERVAL, mips_per_engine(plan.profile.sid) * 1000
    ftp_ki = sum(t.transfer_bytes / KB * FTP_KI_PER_KB for t in plan.ftp if start <= t.end < end)
    tn3270_min = sum(max(0.0, (min(end, t.end) - max(start, t.start)).total_seconds()) / 60 for t in plan.tn3270)
    tn3270_ki = tn3270_min * TN3270_TRANSACTIONS_PER_MIN * TN3270_OVERHEAD_KI_PER_TXN
    return {"FTP": round(100 * ftp_ki / kips), "TN3270": round(100 * tn3270_ki / kips)}


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


def _plan_wlm(plan: DayPlan, cp_busy_s: list[float]) -> None:
    """RMF workload activity: each interval's captured CP time split over the WLM classes by their shares."""
    for iv, busy in zip(plan.rmf, cp_busy_s):
        night = not (8 <= iv.start.hour < 18)
        captured = busy * CAPTURE_RATIO
        cps = [cpu for cpu in iv.cpus if cpu.cpu_type == "CP"]
        u = min(0.95, sum(cpu.online_us - cpu.wait_us for cpu in cps) / (len(cps) * iv.interval_ms * 1000))
        for c in WLM_CLASSES:
            cp_s = round(captured * (c.share_night if night else c.share_day), 3)
            using = round(cp_s * 5)  # 4 CPU using samples a CP second, a fifth more I/O usings
            plan.wlm.append(ClassInterval(c, iv.start, iv.interval_ms, iv.written, cp_s, round(cp_s * c.ziip_per_cp, 3),
                                          round(cp_s * c.transactions_per_cpu_s), round(cp_s * c.io_per_cpu_s),
                                          using, round(cp_s * 4), round(using * c.contention * u / (1 - u))))


def plan_day(sid: str, day: dt.date, seed: int) -> DayPlan:
    plan = DayPlan(profile_for(sid), day)
    cp_busy_s = _plan_rmf(plan, _rng(seed, sid, day, "rmf"))
    _plan_wlm(plan, cp_busy_s)
    intervals = [(iv.start, iv.interval_ms) for iv in plan.rmf]
    plan.devices = plan_devices(sid, intervals, cp_busy_s, seed, day)
    plan.channels = plan_channels(sid, intervals, cp_busy_s, seed, day)
    _plan_tcpip(plan, seed)  # before the work: the FTP and TN3270 servers' CPU follows their transfers and sessions
    _plan_work(plan, cp_busy_s, seed)
    return plan
