"""The static inventory of a generated NonStop system: its processors, processes, discs, lines and the
files its servers open (``build_inventory``), and the site's daily load shapes.

``perfdb generate measure`` builds it once per system (``MeasureModel``); the day-by-day counters are the
model's. Programs, files and profiles follow seed 001 (an online PATHWAY application with servers under
``$PROGS.SERVER1`` instrumented with USERDEF counters, a nightly batch window, the usual system
processes)."""

from __future__ import annotations

import datetime as dt
import zlib
from dataclasses import dataclass, field

import numpy as np

# Relative online demand per clock hour (peak = 1.0): logon ramp at 07-09, two peaks around 10-11 and
# 14-15 with a lunch dip, evening tail-off, night floor.
ONLINE_PROFILE = np.array(
    [0.10, 0.08, 0.07, 0.07, 0.08, 0.12, 0.22, 0.45, 0.75, 0.92, 1.00, 0.97,
     0.80, 0.88, 0.98, 0.95, 0.82, 0.62, 0.48, 0.40, 0.33, 0.26, 0.19, 0.14]
)
# Nightly batch window (reports, backups) in shift 3, with an early start in the late evening.
BATCH_PROFILE = np.array(
    [0.75, 0.95, 1.00, 1.00, 0.85, 0.55, 0.25, 0.08, 0.05, 0.05, 0.05, 0.05,
     0.05, 0.05, 0.05, 0.05, 0.05, 0.08, 0.10, 0.12, 0.15, 0.25, 0.40, 0.55]
)
# System processes (disc processes, line handlers, PATHMON) never go fully quiet.
SYSTEM_PROFILE = 0.35 + 0.65 * ONLINE_PROFILE
REFERENCE_HOUR = 10  # the weekday peak hour the CPU targets are set at

SYSTEM_LOAD = 0.04  # monitor, memory manager and other unmeasured system work, at the reference hour
OTHER_OVERHEAD = 0.03  # share of busy time that is process creation and other OS work, besides interrupts

INSTRUMENTED_SUBVOL = "$PROGS.SERVER1"  # seed 001 Fig 3: ADD USERDEF $PROGS.SERVER1.*
INSTRUMENTED_PROGRAMS = 3  # the first server programs live there and bump RESP-TIME and THROUGHPUT

SERVER_PROGRAMS = ("ACCTSRV", "CUSTSRV", "ORDRSRV", "PAYSRV", "INVSRV", "AUDSRV", "RPTSRV", "MSGSRV")
# Database files each server program opens: (file, share of its I/O, reads, writes, updates, deletes per I/O)
SERVER_FILES = {
    "ACCTSRV": (("ACCOUNT", 0.5, 0.6, 0.0, 0.4, 0.0), ("HISTORY", 0.3, 0.1, 0.9, 0.0, 0.0), ("PROFILE", 0.2, 1.0, 0, 0, 0)),
    "CUSTSRV": (("CUSTOMER", 0.6, 0.85, 0.05, 0.1, 0.0), ("PROFILE", 0.4, 1.0, 0, 0, 0)),
    "ORDRSRV": (("ORDERS", 0.5, 0.5, 0.3, 0.15, 0.05), ("ITEMDATA", 0.3, 0.9, 0.0, 0.1, 0.0), ("ITEMDESC", 0.2, 1.0, 0, 0, 0)),
    "PAYSRV": (("ACCOUNT", 0.5, 0.5, 0.0, 0.5, 0.0), ("HISTORY", 0.5, 0.0, 1.0, 0.0, 0.0)),
    "INVSRV": (("ITEMDATA", 0.6, 0.7, 0.0, 0.3, 0.0), ("READY", 0.4, 0.4, 0.3, 0.0, 0.3)),
    "AUDSRV": (("AUDITLOG", 1.0, 0.0, 1.0, 0.0, 0.0),),
    "RPTSRV": (("HISTORY", 0.7, 1.0, 0, 0, 0), ("CUSTOMER", 0.3, 1.0, 0, 0, 0)),
    "MSGSRV": (("SESSION", 0.6, 0.6, 0.2, 0.2, 0.0), ("FOLDER", 0.4, 0.7, 0.25, 0.0, 0.05)),
}
ALTKEY_FILES = {"ORDERS": "ORDERS0", "READY": "READY0"}  # alternate-key files: physical I/O only (DISCOPEN)
BATCH_PROGRAMS = (("$SYSTEM.PRODOBJ.BATCH01", 185), ("$SYSTEM.PRODOBJ.ACTREPT", 185), ("$SYSTEM.SYSTEM.QP", 190))
UTILITY_PROGRAMS = (
    ("$SYSTEM.SYSTEM.TACL", 148, True),
    ("$SYSTEM.SYS01.FUP", 148, False),
    ("$SYSTEM.SYSTEM.CSPOOL", 145, True),
    ("$SYSTEM.SYSTEM.ENFORM", 140, False),
)

# The exceptions the application diagnostics are to find (Glasstone 1986, Table 1), each in one program that
# only the larger demo system runs, so that each rule flags a small minority of its evaluations:
# a utility a command file starts again every hour, in a new PIN ("Process starting new processes")
CREATED_HOURLY_PROGRAM = "$SYSTEM.SYS01.FUP"
CREATED_HOURLY_FIRST_PIN = 200  # above the static PINs: 200 + 24 x (rank among such utilities on its CPU) + hour
# a server that opens its files for every transaction and closes them again (L2386-L2388)
OPENS_PER_TRANSACTION_PROGRAM = "RPTSRV"
# a spooler collector polling in a loop without DELAY: messages sent at the same rate in every hour,
# at little CPU (L2452-L2462)
POLLING_PROGRAM = "$SYSTEM.SYSTEM.CSPOOL"
POLLING_MESSAGES_PER_S = 40.0
# a server that scans a large in-memory table serially: much CPU, few file I/Os per transaction
SERIAL_SCAN_PROGRAM = "MSGSRV"
SERIAL_SCAN_CPU_PER_TRANS, SERIAL_SCAN_IO_PER_TRANS = 0.08, 2.0
# a report server that browses a customer's whole HISTORY for every request: more file I/Os per transaction
# than the 20 of an OLTP transaction (L2264)
BROWSING_PROGRAM, BROWSING_IO_PER_TRANS = "RPTSRV", 26.0
# a key-sequenced file loaded full, without slack: a block split for one insert in four; the others split
# for one insert in 29, FOLDER's 115 writes to 4 block splits (Fig. 6 and 7, L2392)
SPLITS_PER_INSERT = 1.0 / 29.0
SPLIT_PRONE_FILES = {"ORDERS": 1.0 / 4.0}
# a PATHMON kept busy by a background process that asks it for SERVER STATUS without pause (L2448: "On
# one customer's system, PATHMON was using 50% of a processor"): its weight among its processor's online
# processes, against 0.15 for a PATHMON that "rarely becomes active" (on the systems whose spec asks for it)
BUSY_PATHMON_WEIGHT = 4.0

# MEASURE's own processes (Measure User's Guide, Fig. 1-1; seed 001 L1035-L1041, L1076-L1078): the MEASMON
# process pair $XMM, which coordinates, and one MEASCTL $XMnn in each processor, which allocates the counter
# records and writes them to the data file. Their programs must be on the active system subvolume (Measure
# Reference Manual, Appendix C); the super-group user starts the subsystem (MEASMONCONTROL). The manual gives no
# priority; they run at the line handlers' 199. The MEASCTLs do the measuring; of CPU 0's MEASURE time the
# MEASMON primary takes MEASMON_SHARE. Its backup is not generated: the demo's process counts were pinned without
# it (a pair's two processes share a process_key; rpt_process_minimum_activity tells them apart by CPU and PIN).
MEASURE_SUBVOL = "$SYSTEM.SYS01"
MEASURE_PRIORITY = 199
MEASMON_NAME = "$XMM"
MEASMON_SHARE = 0.10


@dataclass(frozen=True)
class SystemSpec:
    """What one generated system looks like; every field has a CLI flag in ``perfdb generate measure``."""

    name: str
    cpus: int
    start: dt.date
    days: int
    processes: int = 40
    discs: int = 6
    lines: int = 2
    seed: int = 1
    os_version: str = "G06"
    # MEASURE's CPU-TYPE code (Measure Reference Manual, MEASGETVERSION processor^type): 1 TNS II, 2 TXP,
    # 3 VLX, 4 CLX, 5 Cyclone, 6 NSR-L, 7 NSR-N/P/K, 8 NSR-W, 9 NSR-G/T/V, 10 NSE; the capacity thresholds
    # depend on it (seed reference_capacity_thresholds)
    cpu_type: int = 2
    growth_per_month: float = 0.05
    saturated_cpus: int | None = None  # default: one per 8 CPUs
    file_openers: int = 6  # server processes whose FILE and DISCOPEN entities are measured
    busy_pathmon: bool = False  # PATHMON polled for SERVER STATUS all day (BUSY_PATHMON_WEIGHT)
    # terminals (ATMs) on each line, repeated over the lines: seed 001's ATM benchmark had 10 a line, 8 to 15
    # (L3400-L3402); each is a TERMINAL entity sharing its line's transactions
    terminals_per_line: tuple[int, ...] = (10,)
    # days MEASURE ran INTERVAL 30 MINUTES (an application analysis, seed 001 L2199) instead of 1 HOURS
    half_hour_days: tuple[dt.date, ...] = ()
    # share of each CPU's busy time MEASURE's own processes take when the measurement includes them, as seed 001
    # L1190 measured them (0.02 % to 1.14 %, L1192); twice that on a half-hour day, whose application analysis
    # is a second, concurrent measurement beside the daily one (L1192: "depending on ... the number of
    # concurrent measurements"). 0: the measurement leaves them out
    measure_share: float = 0.0

    def __post_init__(self):
        name = self.name if self.name.startswith("\\") else "\\" + self.name
        object.__setattr__(self, "name", name.upper())
        problems = []
        if not (2 <= len(self.name) <= 8) or not self.name[1:].isalnum() or not self.name[1].isalpha():
            problems.append(f"system name {self.name!r}: expected a backslash and 1-7 letters/digits, first a letter")
        if not 1 <= self.cpus <= 16:
            problems.append(f"cpus {self.cpus}: a NonStop system has 1 to 16 processors")
        if self.days < 1:
            problems.append(f"days {self.days}: expected at least 1")
        if self.processes < 4:
            problems.append(f"processes {self.processes}: expected at least 4")
        if not 1 <= self.discs <= 999:
            problems.append(f"discs {self.discs}: expected 1 to 999")
        if not 0 <= self.lines <= 99:
            problems.append(f"lines {self.lines}: expected 0 to 99")
        if not self.terminals_per_line or min(self.terminals_per_line) < 0:
            problems.append(f"terminals per line {self.terminals_per_line}: expected counts of 0 or more")
        if not 0.0 <= self.measure_share < 0.05:
            problems.append(f"MEASURE share {self.measure_share}: expected a fraction of CPU busy, 0 to under 0.05")
        if not 1 <= self.cpu_type <= 10:
            problems.append(f"cpu type {self.cpu_type}: expected a MEASURE CPU-TYPE code, 1 to 10")
        if problems:
            raise ValueError("; ".join(problems))

    @property
    def short_name(self) -> str:
        return self.name.lstrip("\\")

    def dates(self) -> list[dt.date]:
        return [self.start + dt.timedelta(days=i) for i in range(self.days)]


@dataclass
class Processes:
    """Static process inventory of a system (one entry per process, parallel arrays)."""

    cpu: np.ndarray
    pin: np.ndarray
    name: list
    program: list[str]
    priority: np.ndarray
    userid: list[str]
    kind: list[str]  # server, tcp, pathmon, batch, utility, dp2, lh
    base: np.ndarray  # demand (fraction of one CPU) at the reference hour, before growth and noise
    profile: np.ndarray  # (24, P) hourly shape
    cpu_per_trans: np.ndarray  # seconds of CPU per transaction (servers) / per request
    io_per_trans: np.ndarray  # file-system messages sent per transaction
    io_wait_s: np.ndarray  # how long one of those messages keeps the server waiting
    msg_bytes: np.ndarray
    wait_factor: np.ndarray  # how much ready-list time a process sees per unit of CPU queue
    recv_factor: np.ndarray
    vsem_rate: np.ndarray  # semaphore waits per CPU-busy second
    disc_index: np.ndarray  # dp2: which disc it serves, else -1
    line_index: np.ndarray  # lh: which line it serves, else -1


@dataclass
class Inventory:
    saturated: np.ndarray  # bool per CPU: built to run past the 70 % BUSY threshold at peak
    intr_frac: np.ndarray
    memory_pages: int
    pcbs: int
    procs: Processes
    disc_names: list[str]
    disc_cpu: np.ndarray
    disc_pin: np.ndarray
    disc_rate: np.ndarray  # requests per second at the reference hour
    disc_read_frac: np.ndarray
    disc_hit_ratio: np.ndarray
    disc_read_ms: np.ndarray
    disc_write_ms: np.ndarray
    line_names: list[str]
    line_cpu: np.ndarray
    line_pin: np.ndarray
    line_rate: np.ndarray  # reads per second at the reference hour
    line_in_bytes: np.ndarray
    line_out_bytes: np.ndarray
    userdef_procs: np.ndarray  # indexes of processes running $PROGS.SERVER1 programs
    file_opens: list = field(default_factory=list)  # (proc index, file name, disc index, weights...)



def build_inventory(s: SystemSpec, rng: np.random.Generator) -> Inventory:
    """What the system holds for its whole life: which CPUs saturate, its processes, discs, lines and opens."""
    n_sat = s.saturated_cpus if s.saturated_cpus is not None else max(1, s.cpus // 8)
    n_sat = min(n_sat, s.cpus)
    # CPU 0 carries the operator and line traffic; saturation goes to other processors when there are any
    candidates = np.arange(1, s.cpus) if s.cpus > 1 else np.arange(s.cpus)
    saturated = np.zeros(s.cpus, bool)
    saturated[rng.choice(candidates, size=min(n_sat, len(candidates)), replace=False)] = True
    # weekday peak-hour busy fraction each CPU is built to reach at the start
    cpu_target = np.where(saturated, rng.uniform(0.80, 0.88, s.cpus), rng.uniform(0.36, 0.58, s.cpus))
    intr_frac = rng.uniform(0.10, 0.16, s.cpus)
    intr_frac[0] = 0.20

    disc_names = ["$SYSTEM"] + [f"$DATA{i:02d}" for i in range(1, s.discs)]
    disc_cpu = np.arange(s.discs) % s.cpus
    line_names = [f"$X25L{i:02d}" for i in range(1, s.lines + 1)]
    line_cpu = (np.arange(s.lines) * 3) % s.cpus
    # I/O processes (disc processes, line handlers) get the low PINs of their CPU, started at system load
    next_pin = dict.fromkeys(range(s.cpus), 4)
    disc_pin, line_pin = np.zeros(s.discs, np.int64), np.zeros(s.lines, np.int64)
    for pins, cpus in ((disc_pin, disc_cpu), (line_pin, line_cpu)):
        for i, c in enumerate(cpus):
            pins[i], next_pin[c] = next_pin[c], next_pin[c] + 2

    procs = _processes(s, rng, saturated, cpu_target, intr_frac, disc_names, disc_cpu, disc_pin,
                            line_names, line_cpu, line_pin)
    inv = Inventory(
        saturated=saturated,
        intr_frac=intr_frac,
        memory_pages=32_768,
        pcbs=2_400,
        procs=procs,
        disc_names=disc_names,
        disc_cpu=disc_cpu,
        disc_pin=disc_pin,
        disc_rate=np.where(np.arange(s.discs) == 0, rng.uniform(12, 25, s.discs), rng.uniform(15, 60, s.discs)),
        disc_read_frac=rng.uniform(0.6, 0.8, s.discs),
        disc_hit_ratio=rng.uniform(0.55, 0.92, s.discs),
        disc_read_ms=rng.uniform(7.0, 12.0, s.discs),
        disc_write_ms=rng.uniform(9.0, 15.0, s.discs),
        line_names=line_names,
        line_cpu=line_cpu,
        line_pin=line_pin,
        line_rate=rng.uniform(4.0, 14.0, s.lines),
        line_in_bytes=rng.uniform(60, 100, s.lines),
        line_out_bytes=rng.uniform(110, 160, s.lines),
        userdef_procs=np.array(
            [i for i, p in enumerate(procs.program) if p.startswith(INSTRUMENTED_SUBVOL + ".")], np.int64
        ),
    )
    if s.discs > 1:  # one disc is busier than the rest: the one the threshold reports should point at
        inv.disc_rate[1] = rng.uniform(70, 85)
    inv.file_opens = _file_opens(s, rng, procs)
    return inv

def _processes(s: SystemSpec, rng, saturated, cpu_target, intr_frac, disc_names, disc_cpu, disc_pin,
               line_names, line_cpu, line_pin) -> Processes:
    n_dp2 = min(s.discs, s.processes // 4)
    n_lh = min(s.lines, s.processes // 10)
    rest = s.processes - n_dp2 - n_lh
    n_pathmon = 1
    n_batch = min(len(BATCH_PROGRAMS), rest // 8)
    n_tcp = max(1, rest // 8)
    n_util = rest // 8
    n_server = rest - n_pathmon - n_batch - n_tcp - n_util

    rows: list[dict] = []
    sat_cpus = np.flatnonzero(saturated)
    for i in range(n_server):
        prog = SERVER_PROGRAMS[i % len(SERVER_PROGRAMS)]
        subvol = INSTRUMENTED_SUBVOL if (i % len(SERVER_PROGRAMS)) < INSTRUMENTED_PROGRAMS else "$PROGS.SERVER2"
        rows.append(dict(kind="server", cpu=(i + 1) % s.cpus, name=f"$S{prog[:2]}{i // len(SERVER_PROGRAMS):02d}",
                         program=f"{subvol}.{prog}", priority=160, userid="100,1"))
    for i in range(n_tcp):
        rows.append(dict(kind="tcp", cpu=(2 * i) % s.cpus, name=f"$TCP{i + 1}",
                         program="$SYSTEM.SYSTEM.PATHTCP2", priority=170, userid="255,255"))
    rows.append(dict(kind="pathmon", cpu=0, name="$PM", program="$SYSTEM.SYSTEM.PATHMON",
                     priority=180, userid="255,255"))
    for i in range(n_batch):
        program, pri = BATCH_PROGRAMS[i]
        cpu = int(sat_cpus[i % len(sat_cpus)]) if len(sat_cpus) else i % s.cpus
        rows.append(dict(kind="batch", cpu=cpu, name=f"$B{i + 1:02d}" if i < 2 else None,
                         program=program, priority=pri, userid="100,2"))
    for i in range(n_util):
        program, pri, named = UTILITY_PROGRAMS[i % len(UTILITY_PROGRAMS)]
        rows.append(dict(kind="utility", cpu=int(rng.integers(s.cpus)), name=f"$U{i + 1:03d}" if named else None,
                         program=program, priority=pri, userid="255,255"))
    for d in range(n_dp2):
        rows.append(dict(kind="dp2", cpu=int(disc_cpu[d]), pin=int(disc_pin[d]), name=disc_names[d],
                         program="$SYSTEM.SYS01.OSIMAGE", priority=220, userid="255,255", disc=d))
    for ln in range(n_lh):
        rows.append(dict(kind="lh", cpu=int(line_cpu[ln]), pin=int(line_pin[ln]), name=line_names[ln],
                         program="$SYSTEM.SYS01.LHOBJ", priority=199, userid="255,255", line=ln))

    n = len(rows)
    kind = [r["kind"] for r in rows]
    cpu = np.array([r["cpu"] for r in rows], np.int64)
    # everything else gets PINs upwards from 30 on its CPU, with gaps where processes came and went
    pin = np.zeros(n, np.int64)
    next_pin = dict.fromkeys(range(s.cpus), 30)
    for i, r in enumerate(rows):
        if "pin" in r:
            pin[i] = r["pin"]
        else:
            pin[i] = next_pin[cpu[i]]
            next_pin[cpu[i]] += int(rng.integers(1, 4))

    is_batch = np.array([k == "batch" for k in kind])
    profile = np.empty((24, n))
    for i, k in enumerate(kind):
        profile[:, i] = BATCH_PROFILE if k == "batch" else SYSTEM_PROFILE if k in ("dp2", "lh", "pathmon") else ONLINE_PROFILE
    weight = rng.lognormal(0.0, 0.5, n)
    # PATHWAY hands work to the first server of a class first; later ones only run when it is busy
    instance = np.array([i // len(SERVER_PROGRAMS) if k == "server" else 0 for i, k in enumerate(kind)])
    weight *= 0.55 ** instance
    pathmon_weight = BUSY_PATHMON_WEIGHT if s.busy_pathmon else 0.15
    weight *= np.array([{"server": 1.0, "tcp": 0.7, "pathmon": pathmon_weight, "utility": 0.12, "dp2": 0.9,
                         "lh": 0.5}.get(k, 0.0) for k in kind])
    # Scale each CPU's online processes so that, with overhead, the CPU reaches its target at the
    # reference hour; batch processes bring their own absolute demand (a fraction of a CPU at night).
    base = np.zeros(n)
    batch_base = rng.uniform(0.12, 0.22, n)
    base[is_batch] = batch_base[is_batch]
    for c in range(s.cpus):
        on = (cpu == c) & ~is_batch
        ref = float((weight[on] * profile[REFERENCE_HOUR, on]).sum())
        if ref <= 0:
            continue
        want = cpu_target[c] * (1.0 - intr_frac[c] - OTHER_OVERHEAD) - SYSTEM_LOAD - float(
            (base[(cpu == c) & is_batch] * BATCH_PROFILE[REFERENCE_HOUR]).sum()
        )
        base[on] = weight[on] * max(want, 0.02) / ref

    cpu_per_trans = np.where(
        [k == "server" for k in kind], rng.uniform(0.02, 0.09, n), rng.uniform(0.002, 0.006, n)
    )
    # "each transaction will typically need to perform between 5 and 20 file I/Os" (seed 001 L2264): a server
    # outside that band is a planted exception (the table-scanning MSGSRV and the browsing RPTSRV below), not a draw
    io_per_trans = rng.uniform(5.5, 15.0, n)
    scans = np.array([r["program"].endswith("." + SERIAL_SCAN_PROGRAM) for r in rows])
    browses = np.array([r["program"].endswith("." + BROWSING_PROGRAM) for r in rows])
    cpu_per_trans = np.where(scans, SERIAL_SCAN_CPU_PER_TRANS, cpu_per_trans)
    io_per_trans = np.select([scans, browses], [SERIAL_SCAN_IO_PER_TRANS, BROWSING_IO_PER_TRANS], io_per_trans)
    wait_factor = np.select(
        [np.array([r["priority"] for r in rows]) >= 199, np.array([r["priority"] for r in rows]) >= 180],
        [0.05, 0.15], default=0.45,
    ) * rng.uniform(0.8, 1.2, n)
    return Processes(
        cpu=cpu,
        pin=pin,
        name=[r["name"] for r in rows],
        program=[r["program"] for r in rows],
        priority=np.array([r["priority"] for r in rows], np.int64),
        userid=[r["userid"] for r in rows],
        kind=kind,
        base=base,
        profile=profile,
        cpu_per_trans=cpu_per_trans,
        io_per_trans=io_per_trans,
        io_wait_s=rng.uniform(0.006, 0.015, n),
        msg_bytes=rng.uniform(128, 2048, n),
        wait_factor=wait_factor,
        recv_factor=rng.uniform(0.6, 1.6, n),
        vsem_rate=rng.uniform(0.2, 6.0, n),
        disc_index=np.array([r.get("disc", -1) for r in rows], np.int64),
        line_index=np.array([r.get("line", -1) for r in rows], np.int64),
    )

def _file_opens(s: SystemSpec, rng, procs: Processes) -> list[tuple]:
    """Which database files the measured servers open, on which disc, with what access mix."""
    data_discs = list(range(1, s.discs)) or [0]
    servers = [i for i, k in enumerate(procs.kind) if k == "server"][: s.file_openers]
    opens = []
    for p in servers:
        prog = procs.program[p].rsplit(".", 1)[1]
        for fname, share, r, w, u, dl in SERVER_FILES[prog]:
            disc = data_discs[zlib.crc32(fname.encode()) % len(data_discs)]
            opens.append((p, fname, disc, share, r, w, u, dl))
    return opens
