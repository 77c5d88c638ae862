"""The load model behind ``perfdb generate measure``: one NonStop system measured hour by hour.

What it models, and why each shape is there (seed 001, "How to set up a performance data base"):

* MEASURE runs ``INTERVAL 1 HOURS`` around the clock and MEASCOM lists each hour with
  ``LOADID DT<jd><hh>`` (Julian day of year, hour). Every record here covers exactly one clock hour,
  00:00-01:00 ... 23:00-24:00, ``delta_time`` = 3 600 000 000 µs.
* Load follows a daily curve whose three 8-hour shifts differ (online peak in shift 1, 08-16; tail-off
  in shift 2; a nightly batch bump in shift 3), a weekday/weekend pattern, month-on-month growth and
  day-to-day noise. A few CPUs carry more than their share (busy processes placed on them), so they
  cross the 70 % BUSY threshold and queue, swap and spread the way Figure 1 of the article shows.
* Each symptom of the application article's Table 1 has one planted culprit (``_measure_inventory``: a
  utility started hourly in a new PIN, a table-scanning server, a server opening its files per transaction,
  a polling spooler, a file loaded without slack), in programs only the larger system runs; a block splits
  only when a record is inserted.
* ``half_hour_days`` of the spec were measured ``INTERVAL 30 MINUTES`` (an application analysis, seed 001
  L2199): each hour's records come as two half-hour records sharing the hour's counts (levels, such as a
  longest queue, kept in both), so the hourly values are those of the other days.
* Every line carries terminals (``terminals_per_line``, the ATMs of seed 001's benchmark): TERMINAL records
  that share out their line's transactions, response time and traffic.
* Counters are in raw contract units (``docs/measure_raw_contract.md``): busy µs = busy fraction x
  delta_time; queue µs·items = average queue length x delta_time; counts are per-interval counts.
  The entities agree with each other: a CPU's busy time is its processes' busy time plus system
  overhead; a server's messages sent are the logical I/Os of its FILE records; its THROUGHPUT user
  counter equals the messages it received; CPU disc I/Os are the physical I/Os of the discs whose
  disc process runs on it.

Randomness is a numpy ``Generator`` seeded by (seed, system name, calendar day), so a day's data does
not depend on which other days are generated, and the same seed always gives the same values.
The model yields plain record dicts keyed by the contract column names (timestamps as ``datetime``);
the form writers (CSV, binary structured records, MEASCOM text) turn them into files.
"""

from __future__ import annotations

import datetime as dt
import zlib
from collections import OrderedDict
from typing import Iterator

import numpy as np

from ingest.formats.measure import tables as measure_tables
from ingest.generate._measure_inventory import (
    ALTKEY_FILES,
    BATCH_PROFILE,
    CREATED_HOURLY_FIRST_PIN,
    CREATED_HOURLY_PROGRAM,
    MEASMON_NAME,
    MEASMON_SHARE,
    MEASURE_PRIORITY,
    MEASURE_SUBVOL,
    ONLINE_PROFILE,
    OPENS_PER_TRANSACTION_PROGRAM,
    OTHER_OVERHEAD,
    POLLING_MESSAGES_PER_S,
    POLLING_PROGRAM,
    SPLIT_PRONE_FILES,
    SPLITS_PER_INSERT,
    SYSTEM_LOAD,
    SYSTEM_PROFILE,
    SystemSpec,
    build_inventory,
)

HOUR_US = 3_600_000_000

WEEKDAY_FACTOR = np.array([1.00, 1.03, 1.04, 1.01, 0.94, 0.42, 0.30])  # Monday .. Sunday
DAYS_PER_MONTH = 30.44
DAYS_CACHED = 8

# the raw contract (measure.tables): the header every record starts with, the entity columns after it
HEADER_COLUMNS = tuple(c.name for c in measure_tables.HEADER)
ENTITY_COLUMNS = {e.table: tuple(c.name for c in (*e.ids, *e.counters)) for e in measure_tables.ENTITIES}
TABLES = tuple(ENTITY_COLUMNS)
# a text report lists the entities whose report layout is known; TERMINAL's is not (measure.tables.TEXT_ENTITIES)
TEXT_TABLES = tuple(e.table for e in measure_tables.TEXT_ENTITIES)
COUNTER_COLUMNS = {e.table: frozenset(c.name for c in e.counters) for e in measure_tables.ENTITIES}

# Guardian device types used here (FILE records): 2 = $RECEIVE, 3 = disc.
DEVICE_TYPE_RECEIVE = 2
DEVICE_TYPE_DISC = 3
DISC_SUBTYPE = 36
LINE_DEVICE_TYPE, LINE_SUBTYPE = 61, 63  # X.25 line as in the Expand manual's LINE example
LINE_BYTES_PER_S = 128_000  # line speed: what turns output bytes into write-busy time
BLOCK_BYTES = 4096
# Physical limits: a device is busy at most the whole hour. Demand beyond that is not served within the
# hour (it waits), so the model serves the share that fits and keeps every derived counter consistent.
DISC_BUSY_CEILING = 0.97  # the utilization the disc queue model (util / (1 - util)) is capped at
LINE_WRITE_CEILING = 0.97  # share of the hour a line can spend writing; the read posted fills the rest

USERDEF_QUEUE, USERDEF_ACCUM = 3, 1
def julian_day_loadid(day: dt.date, hour: int) -> str:
    """``DT<ddd><hh>``: day of year and hour, as the nightly MEASCOM LIST commands tag each hour."""
    return f"DT{day.timetuple().tm_yday:03d}{hour:02d}"


def _system_key(name: str) -> int:
    return zlib.crc32(name.encode("ascii"))


def _empty(table: str) -> dict[str, list]:
    return {c: [] for c in (*HEADER_COLUMNS, *ENTITY_COLUMNS[table])}


def _soft_cap(demand: np.ndarray, knee: float = 0.9, ceiling: float = 0.99) -> np.ndarray:
    """Busy fraction from demand: linear below the knee, then bending towards the ceiling (work waits)."""
    room = ceiling - knee
    over = np.maximum(demand - knee, 0.0)
    return np.where(demand <= knee, demand, knee + room * (1.0 - np.exp(-over / room)))


def _served_share(busy_us: np.ndarray, ceiling_us: float) -> np.ndarray:
    """Share of each hour's demand a device can serve: 1 up to ``ceiling_us`` of busy time, less beyond."""
    return np.minimum(1.0, ceiling_us / np.maximum(busy_us, 1.0))


def _serve(counts: np.ndarray, served: np.ndarray) -> np.ndarray:
    """The counts actually served; hours within the device's capacity keep their values exactly."""
    return np.where(served < 1.0, np.floor(counts * served), counts)


def _half_hours(table: str, cols: dict[str, list]) -> dict[str, list]:
    """Each hourly record as the two half-hour records of ``INTERVAL 30 MINUTES``: the first half gets half of
    each count (rounded down), the second the rest; a level is what the hour saw, in both halves."""
    half = dt.timedelta(minutes=30)
    out = {c: [] for c in cols}
    for row in range(len(cols["delta_time"])):
        start = cols["from_timestamp"][row]
        for first in (True, False):
            for column, values in cols.items():
                value = values[row]
                if column == "from_timestamp":
                    value = start if first else start + half
                elif column == "to_timestamp":
                    value = start + half if first else value
                elif column == "delta_time" or (column in COUNTER_COLUMNS[table] and not measure_tables.is_level(column)):
                    value = value // 2 if first else value - value // 2
                out[column].append(value)
    return out


class MeasureModel:
    """Generates the hourly MEASURE records of one system, a day at a time."""

    def __init__(self, spec: SystemSpec):
        self.spec = spec
        self._key = _system_key(spec.name)
        self.inv = build_inventory(spec, np.random.default_rng([spec.seed, self._key, 0]))
        # the last few days, so that writing a week in several forms computes each day once
        self._days: OrderedDict[dt.date, dict[str, dict[str, list]]] = OrderedDict()

    # -- one day ------------------------------------------------------------------------------------

    def day_columns(self, day: dt.date) -> dict[str, dict[str, list]]:
        """All tables of one calendar day as columns (rows hour-major), raw contract units."""
        if day in self._days:
            self._days.move_to_end(day)
            return self._days[day]
        s, inv, P = self.spec, self.inv, self.inv.procs
        rng = np.random.default_rng([s.seed, self._key, day.toordinal()])
        months = (day - s.start).days / DAYS_PER_MONTH
        day_factor = WEEKDAY_FACTOR[day.weekday()] * (1.0 + s.growth_per_month) ** months * rng.lognormal(0.0, 0.03)
        n_cpu, n_proc = s.cpus, len(P.kind)

        # processes -> CPU demand -> busy (work beyond the CPU waits: everyone on it is scaled down)
        noise = rng.lognormal(0.0, 0.12, (24, n_proc))
        is_batch = np.array([k == "batch" for k in P.kind])
        proc_demand = P.base * P.profile * noise * np.where(is_batch, max(day_factor, 0.8), day_factor)
        on_cpu = np.zeros((n_proc, n_cpu))
        on_cpu[np.arange(n_proc), P.cpu] = 1.0
        sys_frac = inv.intr_frac + OTHER_OVERHEAD
        system_load = SYSTEM_LOAD * SYSTEM_PROFILE[:, None] * day_factor * rng.lognormal(0.0, 0.08, (24, n_cpu))
        demand = (proc_demand @ on_cpu + system_load) / (1.0 - sys_frac)
        busy = _soft_cap(demand)
        proc_busy = proc_demand * (busy / demand)[:, P.cpu]
        # ready list: grows like rho/(1-rho); demand beyond capacity keeps it long
        rho = np.minimum(np.maximum(busy, demand * 0.99), 0.95)
        qlen = 0.45 * rho / (1.0 - rho) * rng.lognormal(0.0, 0.15, (24, n_cpu))

        cols = {}
        cols["measure_disc"], disc_io = self._disc_cols(rng, day, day_factor, busy)
        cols["measure_line"] = self._line_cols(rng, day, day_factor, qlen)
        cols["measure_process"], proc_extra = self._process_cols(rng, day, proc_busy, qlen, disc_io["requests"],
                                                                 np.reshape(cols["measure_line"]["requests"], (24, -1)))
        if s.measure_share:
            # MEASURE's own time was part of the unmeasured system work all along: carved out of it, it leaves
            # every CPU's busy as it was
            cols["measure_process"] = self._with_measure_processes(day, cols["measure_process"], busy, qlen,
                                                                   system_load * busy / demand)
        cols["measure_cpu"] = self._cpu_cols(rng, day, busy, qlen, proc_extra, disc_io)
        cols["measure_userdef"] = self._userdef_cols(rng, day, proc_extra, qlen)
        cols["measure_file"], cols["measure_discopen"] = self._file_cols(rng, day, proc_extra)
        # a generator of its own, so that the terminals leave the other entities' values as they were
        cols["measure_terminal"] = self._terminal_cols(
            np.random.default_rng([s.seed, self._key, day.toordinal(), 13]), cols["measure_line"])
        if day in s.half_hour_days:
            cols = {table: _half_hours(table, c) for table, c in cols.items()}
        self._days[day] = cols
        if len(self._days) > DAYS_CACHED:
            self._days.popitem(last=False)
        return cols

    def records(self, table: str, day: dt.date) -> Iterator[dict]:
        """The rows of one table for one day as dicts keyed by contract column names."""
        columns = self.day_columns(day)[table]
        names = list(columns)
        for values in zip(*(columns[n] for n in names)):
            yield dict(zip(names, values))

    # -- helpers ----------------------------------------------------------------------------------

    def _header(self, day: dt.date, cpu_nums: np.ndarray) -> dict[str, list]:
        """Header columns for 24 hours x n entities (hour-major)."""
        n = len(cpu_nums)
        start = dt.datetime.combine(day, dt.time())
        froms = [start + dt.timedelta(hours=h) for h in range(24)]
        tos = [start + dt.timedelta(hours=h + 1) for h in range(24)]
        return {
            "system_name": [self.spec.name] * (24 * n),
            "cpu_num": np.tile(cpu_nums, 24).tolist(),
            "loadid": [julian_day_loadid(day, h) for h in range(24) for _ in range(n)],
            "from_timestamp": [f for f in froms for _ in range(n)],
            "to_timestamp": [t for t in tos for _ in range(n)],
            "delta_time": [HOUR_US] * (24 * n),
            "error": [0] * (24 * n),
            "os_version": [self.spec.os_version] * (24 * n),
        }

    def _device_header(self, day: dt.date, cpu_nums: np.ndarray, names: list[str], pins: np.ndarray,
                       first_logical_device: int, device_type: int, subtype: int) -> dict[str, list]:
        """Header and entity columns of a device record (DISC, LINE) for 24 hours x the devices: the device,
        the PIN of the I/O process that drives it on its CPU, its logical device number (numbered from
        ``first_logical_device``), type and subtype."""
        n = len(names)
        return {
            **self._header(day, cpu_nums),
            "device_name": self._repeat(names),
            "pin": self._repeat(pins.tolist()),
            "logical_device": self._repeat(list(range(first_logical_device, first_logical_device + n))),
            "device_type": [device_type] * (24 * n),
            "device_subtype": [subtype] * (24 * n),
        }

    @staticmethod
    def _flat(a: np.ndarray) -> list[int]:
        return np.rint(a).astype(np.int64).ravel().tolist()

    @staticmethod
    def _repeat(values, hours: int = 24) -> list:
        return list(values) * hours

    # -- entities -----------------------------------------------------------------------------------

    def _process_cols(self, rng, day, proc_busy, qlen, disc_requests, line_requests):
        P, n = self.inv.procs, len(self.inv.procs.kind)
        kind = np.array(P.kind)
        busy_s = proc_busy * 3600.0
        cpu_q = qlen[:, P.cpu]
        ready = proc_busy * (1.0 + cpu_q * P.wait_factor)
        # messages: servers receive one request per transaction and send io_per_trans file-system messages
        trans = np.where(kind == "server", busy_s / P.cpu_per_trans, 0.0)
        trans = rng.poisson(trans).astype(float)
        tcp_trans = np.where(kind == "tcp", busy_s / P.cpu_per_trans / 4.0, 0.0)
        received = np.select([kind == "tcp", kind == "pathmon"], [tcp_trans * 2.0, busy_s * 20.0], default=busy_s * 2.0)
        received = rng.poisson(received).astype(float)
        # a server receives exactly its transactions, a disc process its disc's requests, a line handler its line's
        received[:, kind == "server"] = trans[:, kind == "server"]
        dp2, lh = P.disc_index >= 0, P.line_index >= 0
        received[:, dp2] = disc_requests[:, P.disc_index[dp2]]
        received[:, lh] = line_requests[:, P.line_index[lh]]
        sent = np.select(
            [kind == "server", kind == "tcp", kind == "batch", kind == "dp2"],
            [np.rint(trans * P.io_per_trans), tcp_trans, busy_s * 80.0 * P.recv_factor, received * 0.05],
            default=busy_s * 5.0,
        )
        polling = np.array([program == POLLING_PROGRAM for program in P.program])
        sent = np.rint(sent + np.where(polling, POLLING_MESSAGES_PER_S * 3600.0, 0.0))
        # $RECEIVE queue: a server takes no new request while it runs, waits to run or waits for its
        # disc I/Os; requests arriving meanwhile queue (M/M/1 waiting line rho^2/(1-rho))
        occupied = np.minimum(ready + np.where(kind == "server", trans * P.io_per_trans * P.io_wait_s / 3600.0, 0.0), 0.9)
        recv_aql = np.select(
            [kind == "server", kind == "dp2", kind == "tcp"],
            [occupied ** 2 / (1.0 - occupied) * P.recv_factor, occupied * 0.8 * P.recv_factor,
             0.02 * occupied * P.recv_factor],
            default=0.0,
        ) * rng.lognormal(0.0, 0.1, (24, n))
        recv_aql = np.where(received > 0, recv_aql, 0.0)
        recv_max = np.where(received > 0, np.ceil(recv_aql * rng.uniform(2.0, 4.0, (24, n))) + 1, 0)
        checkpoints = np.where(np.isin(kind, ["tcp", "pathmon", "dp2"]), rng.poisson(received * 0.3), 0)
        opens = np.where(np.isin(kind, ["utility", "batch"]), rng.poisson(3.0, (24, n)), rng.poisson(0.05, (24, n)))
        opens_each_transaction = np.array([program.endswith("." + OPENS_PER_TRANSACTION_PROGRAM) for program in P.program])
        opens = np.where(opens_each_transaction, opens + trans, opens)
        created_hourly = np.array([program == CREATED_HOURLY_PROGRAM for program in P.program])
        # a CPU running several such utilities gives each hour's instance of each a PIN of its own
        # (PIN = 200 + 24 x its rank on the CPU + hour): two processes never share a CPU,PIN in one hour
        rank_on_cpu = np.zeros(n, np.int64)
        for cpu in np.unique(P.cpu[created_hourly]):
            on_cpu = np.flatnonzero(created_hourly & (P.cpu == cpu))
            rank_on_cpu[on_cpu] = np.arange(on_cpu.size)
        pins = np.where(created_hourly, CREATED_HOURLY_FIRST_PIN + 24 * rank_on_cpu + np.arange(24)[:, None],
                        P.pin[None, :])
        cols = self._header(day, P.cpu)
        cols.update(
            pin=pins.ravel().tolist(),
            process_name=self._repeat(P.name),
            priority=self._repeat(P.priority.tolist()),
            program_file_name=self._repeat(P.program),
            userid=self._repeat(P.userid),
            cpu_busy_time=self._flat(proc_busy * HOUR_US),
            ready_time=self._flat(ready * HOUR_US),
            mem_qtime=[0] * (24 * n),  # G05 and later: page-fault waits are not queued separately
            dispatches=self._flat(busy_s * 1e6 / rng.uniform(2000, 8000, n) + received),
            page_faults=self._flat(rng.poisson(busy_s * 0.5)),
            vsems=self._flat(rng.poisson(busy_s * P.vsem_rate)),
            recv_qtime=self._flat(recv_aql * HOUR_US),
            recv_qlen_max=self._flat(recv_max),
            messages_sent=self._flat(sent),
            messages_received=self._flat(received),
            sent_bytes=self._flat(sent * P.msg_bytes),
            received_bytes=self._flat(received * P.msg_bytes * 0.6),
            checkpoints=self._flat(checkpoints),
            file_open_calls=self._flat(opens),
        )
        extra = {"trans": trans, "sent": sent, "received": received, "busy": proc_busy, "tcp_trans": tcp_trans}
        return cols, extra

    def _with_measure_processes(self, day, cols, busy, qlen, system_busy):
        """The PROCESS records with MEASURE's own processes added, each hour's after the others of the hour: the
        MEASCTL of each CPU and the MEASMON primary (_measure_inventory), together ``measure_share`` of each CPU's
        busy time (twice that on a half-hour day), within the CPU's unmeasured system work."""
        s, P = self.spec, self.inv.procs
        share = s.measure_share * (2.0 if day in s.half_hour_days else 1.0)
        measure_busy = np.minimum(share * busy, system_busy)
        # above every PIN the system's other processes hold on the CPU (the hourly-created utilities' excepted)
        free_pin = {c: int(max(P.pin[P.cpu == c], default=0)) + 1 for c in range(s.cpus)}
        own = [(c, free_pin[c], f"$XM{c:02d}", "MEASCTL", 1.0 - MEASMON_SHARE * (c == 0)) for c in range(s.cpus)]
        own.append((0, free_pin[0] + 1, MEASMON_NAME, "MEASMON", MEASMON_SHARE))
        cpu = np.array([o[0] for o in own])
        proc_busy = measure_busy[:, cpu] * np.array([o[4] for o in own])
        busy_s = proc_busy * 3600.0
        # the system processes' message rates of _process_cols
        received, sent = np.rint(busy_s * 2.0), np.rint(busy_s * 5.0)
        # the MEASMON primary checkpoints to its backup
        is_primary = np.array([o[3] == "MEASMON" for o in own])
        added = self._header(day, cpu)
        added.update(
            pin=self._repeat([o[1] for o in own]),
            process_name=self._repeat([o[2] for o in own]),
            priority=[MEASURE_PRIORITY] * (24 * len(own)),
            program_file_name=self._repeat([f"{MEASURE_SUBVOL}.{o[3]}" for o in own]),
            userid=["255,255"] * (24 * len(own)),
            cpu_busy_time=self._flat(proc_busy * HOUR_US),
            ready_time=self._flat(proc_busy * (1.0 + qlen[:, cpu] * 0.05) * HOUR_US),
            mem_qtime=[0] * (24 * len(own)),
            dispatches=self._flat(busy_s * 1e6 / 5000.0 + received),
            page_faults=[0] * (24 * len(own)),
            vsems=self._flat(busy_s),
            recv_qtime=[0] * (24 * len(own)),
            recv_qlen_max=self._flat(np.where(received > 0, 1, 0)),
            messages_sent=self._flat(sent),
            messages_received=self._flat(received),
            sent_bytes=self._flat(sent * 512.0),
            received_bytes=self._flat(received * 512.0),
            checkpoints=self._flat(np.where(is_primary, received, 0.0)),
            file_open_calls=[0] * (24 * len(own)),
        )
        n, m = len(cols["pin"]) // 24, len(own)
        return {c: [v for h in range(24) for v in (*values[h * n:(h + 1) * n], *added[c][h * m:(h + 1) * m])]
                for c, values in cols.items()}

    def _disc_cols(self, rng, day, day_factor, cpu_busy):
        inv, n = self.inv, self.spec.discs
        profile = 0.75 * ONLINE_PROFILE[:, None] + 0.25 * BATCH_PROFILE[:, None]
        requests = inv.disc_rate * profile * day_factor * rng.lognormal(0.0, 0.1, (24, n)) * 3600.0
        requests = rng.poisson(requests).astype(float)
        logical_reads = requests * inv.disc_read_frac
        misses = rng.binomial(logical_reads.astype(np.int64), 1.0 - inv.disc_hit_ratio).astype(float)
        hits = logical_reads - misses
        writes = np.rint(requests * (1.0 - inv.disc_read_frac))
        # swap traffic of the CPUs lands on $SYSTEM
        swaps = np.zeros((24, n))
        swaps[:, 0] = rng.poisson(cpu_busy.sum(axis=1) * 60.0)
        reads = misses + swaps[:, :1] * (np.arange(n) == 0)
        read_busy = reads * inv.disc_read_ms * 1000.0
        write_busy = writes * inv.disc_write_ms * 1000.0
        served = _served_share(read_busy + write_busy, DISC_BUSY_CEILING * HOUR_US)
        if (served < 1.0).any():
            requests, misses, hits, writes, swaps = (
                _serve(a, served) for a in (requests, misses, hits, writes, swaps)
            )
            reads = misses + swaps[:, :1] * (np.arange(n) == 0)
            read_busy = reads * inv.disc_read_ms * 1000.0
            write_busy = writes * inv.disc_write_ms * 1000.0
        util = np.minimum((read_busy + write_busy) / HOUR_US, DISC_BUSY_CEILING)
        aql = (util / (1.0 - util) + hits * 300.0 / HOUR_US) * rng.lognormal(0.0, 0.08, (24, n))
        cols = self._device_header(day, inv.disc_cpu, inv.disc_names, inv.disc_pin, 20, DEVICE_TYPE_DISC, DISC_SUBTYPE)
        cols.update(
            request_qtime=self._flat(aql * HOUR_US),
            requests=self._flat(requests),
            reads=self._flat(reads),
            writes=self._flat(writes),
            input_bytes=self._flat(reads * BLOCK_BYTES),
            output_bytes=self._flat(writes * BLOCK_BYTES),
            swaps=self._flat(swaps),
            requests_blocked=self._flat(rng.binomial(writes.astype(np.int64), 0.001)),
            read_busy_time=self._flat(read_busy),
            write_busy_time=self._flat(write_busy),
            seek_busy_time=self._flat((reads + writes) * rng.uniform(3.0, 5.5, n) * 1000.0),
            device_qbusy_time=self._flat(np.minimum(util * 1.05, 0.995) * HOUR_US),
            cache_hits=self._flat(hits),
            cache_misses=self._flat(misses),
        )
        per_cpu_io = np.zeros((24, self.spec.cpus))
        per_cpu_hits = np.zeros((24, self.spec.cpus))
        np.add.at(per_cpu_io.T, inv.disc_cpu, (reads + writes).T)
        np.add.at(per_cpu_hits.T, inv.disc_cpu, hits.T)
        return cols, {"ios": per_cpu_io, "hits": per_cpu_hits, "requests": requests}

    def _terminal_cols(self, rng, line: dict[str, list]) -> dict[str, list]:
        """The terminals of every line: each hour's line counters shared out among them at random (a
        multinomial, so that the terminals' counts add up to the line's)."""
        spec, n = self.spec, self.spec.lines
        counts = [spec.terminals_per_line[i % len(spec.terminals_per_line)] for i in range(n)]
        cols = _empty("measure_terminal")
        if n == 0 or not any(counts):
            return cols
        shared = ("requests", "reads", "writes", "input_bytes", "output_bytes", "transactions", "response_time")
        for row in range(24 * n):
            k = counts[row % n]
            weights = rng.dirichlet(np.full(k, 8.0)) if k else np.empty(0)
            for column in HEADER_COLUMNS:
                cols[column].extend([line[column][row]] * k)
            cols["line_name"].extend([line["device_name"][row]] * k)
            cols["subdev_name"].extend(f"#ATM{t:02d}" for t in range(1, k + 1))
            cols["logical_device"].extend([line["logical_device"][row]] * k)
            for column in shared:
                cols[column].extend(rng.multinomial(line[column][row], weights).tolist() if k else [])
        return cols

    def _line_cols(self, rng, day, day_factor, qlen):
        inv, n = self.inv, self.spec.lines
        if n == 0:
            return _empty("measure_line")
        load = SYSTEM_PROFILE[:, None] * day_factor * rng.lognormal(0.0, 0.1, (24, n))
        reads = rng.poisson(inv.line_rate * load * 3600.0).astype(float)
        writes = rng.poisson(reads * 0.99).astype(float)
        # a line carries at most its speed: what does not fit into the hour's writing time waits
        served = _served_share(writes * inv.line_out_bytes / LINE_BYTES_PER_S * 1e6, LINE_WRITE_CEILING * HOUR_US)
        reads, writes = _serve(reads, served), _serve(writes, served)
        in_bytes = reads * inv.line_in_bytes
        out_bytes = writes * inv.line_out_bytes
        transactions = np.rint(writes * 0.5)
        resp_s = 0.35 * (1.0 + 0.3 * qlen[:, inv.line_cpu])
        write_busy = np.rint(out_bytes / LINE_BYTES_PER_S * 1e6)
        read_busy = np.minimum(np.rint(np.minimum(0.55 + 0.35 * load, 0.97) * HOUR_US), HOUR_US - write_busy)
        cols = self._device_header(day, inv.line_cpu, inv.line_names, inv.line_pin, 170, LINE_DEVICE_TYPE, LINE_SUBTYPE)
        cols.update(
            # a read is kept posted on the line except while writing: read + write busy <= the hour
            read_busy_time=self._flat(read_busy),
            write_busy_time=self._flat(write_busy),
            requests=self._flat((reads + writes) / 2.0),
            input_bytes=self._flat(in_bytes),
            output_bytes=self._flat(out_bytes),
            input_data_bytes=self._flat(in_bytes * 0.82),
            output_data_bytes=self._flat(out_bytes * 0.87),
            reads=self._flat(reads),
            writes=self._flat(writes),
            retries=self._flat(rng.poisson(writes * 2e-4)),
            transactions=self._flat(transactions),
            response_time=self._flat(transactions * resp_s * 1e6),
        )
        return cols

    def _cpu_cols(self, rng, day, busy, qlen, proc, disc_io):
        s, inv, P = self.spec, self.inv, self.inv.procs
        n = s.cpus
        per_cpu = np.zeros((n, len(P.kind)))
        per_cpu[P.cpu, np.arange(len(P.kind))] = 1.0
        # swaps: mostly well under 1/s; the memory-starved saturated CPUs page hard near their peak
        swap_rate = (0.02 + 0.3 * busy ** 2 + np.where(inv.saturated, 15.0 * np.maximum(busy - 0.8, 0.0), 0.0))
        swaps = rng.poisson(swap_rate * rng.lognormal(0.0, 0.25, (24, n)) * 3600.0)
        page_requests = swaps * rng.uniform(4, 8, n) + rng.poisson(busy * 3600.0 * 2.0)
        tcp_trans = proc["tcp_trans"] @ per_cpu.T
        resp_s = 0.25 * (1.0 + 0.4 * qlen)
        dispatches = (proc["busy"] * 3600e6 / 4000.0 + proc["received"]) @ per_cpu.T + busy * 3600.0 * 2000.0
        free = np.clip(0.55 - 0.35 * busy + rng.normal(0.0, 0.03, (24, n)), 0.02, 0.9)
        cols = self._header(day, np.arange(n))
        cols.update(
            cpu_type=[s.cpu_type] * (24 * n),
            memory_pages=[inv.memory_pages] * (24 * n),
            pcbs=[inv.pcbs] * (24 * n),
            cpu_busy_time=self._flat(busy * HOUR_US),
            cpu_qtime=self._flat(qlen * HOUR_US),
            cpu_qlen_max=self._flat(np.ceil(qlen * rng.uniform(2.5, 4.0, (24, n))) + 1),
            mem_qtime=[0] * (24 * n),  # always 0 from G05
            mem_qlen_max=[0] * (24 * n),
            dispatches=self._flat(dispatches),
            swaps=self._flat(swaps),
            intr_busy_time=self._flat(busy * inv.intr_frac * rng.lognormal(0.0, 0.05, (24, n)) * HOUR_US),
            process_ovhd=self._flat(busy * 0.012 * HOUR_US),
            send_busy_time=[0] * (24 * n),  # D-series only; not used in G
            disc_ios=self._flat(disc_io["ios"]),
            cache_hits=self._flat(disc_io["hits"]),
            page_requests=self._flat(page_requests),
            page_scans=self._flat(page_requests * rng.uniform(2.0, 5.0, (24, n))),
            transactions=self._flat(tcp_trans),
            response_time=self._flat(tcp_trans * resp_s * 1e6),
            ending_free_mem=self._flat(free * inv.memory_pages),
        )
        return cols

    def _userdef_cols(self, rng, day, proc, qlen):
        inv, P = self.inv, self.inv.procs
        idx = inv.userdef_procs
        if idx.size == 0:
            return _empty("measure_userdef")
        trans = proc["trans"][:, idx]
        # response time of one transaction: its CPU and I/O service, stretched by the CPU's ready queue
        service_s = P.cpu_per_trans[idx] + P.io_per_trans[idx] * 0.012
        resp_s = service_s * (1.0 + 0.5 * qlen[:, P.cpu[idx]])
        aql = trans * resp_s / 3600.0
        max_q = np.where(trans > 0, np.ceil(aql * rng.uniform(2.0, 4.0, aql.shape)) + 1, 0)
        # two counters per process, RESP-TIME (QUEUE) then THROUGHPUT (ACCUM), index 0
        k = idx.size
        cpu2 = np.repeat(P.cpu[idx], 2)
        cols = self._header(day, cpu2)
        value = np.stack([trans * resp_s * 1e6, trans], axis=2).reshape(24, 2 * k)
        maxv = np.stack([max_q, np.zeros_like(max_q)], axis=2).reshape(24, 2 * k)
        cols.update(
            pin=self._repeat(np.repeat(P.pin[idx], 2).tolist()),
            process_name=self._repeat([P.name[i] for i in idx for _ in range(2)]),
            program_file_name=self._repeat([P.program[i] for i in idx for _ in range(2)]),
            priority=self._repeat(np.repeat(P.priority[idx], 2).tolist()),
            name=self._repeat(["RESP-TIME", "THROUGHPUT"] * k),
            type=self._repeat([USERDEF_QUEUE, USERDEF_ACCUM] * k),
            index=[0] * (24 * 2 * k),
            max_value=self._flat(maxv),
            counter_value=self._flat(value),
        )
        return cols

    def _file_cols(self, rng, day, proc):
        inv, P = self.inv, self.inv.procs
        opens = inv.file_opens
        if not opens:
            return _empty("measure_file"), _empty("measure_discopen")
        servers = sorted({o[0] for o in opens})
        # FILE: one record per server and opened file, plus its $RECEIVE; logical I/O = messages sent
        f_proc, f_name, f_dtype, f_share, f_mix, f_disc = [], [], [], [], [], []
        for p in servers:
            f_proc.append(p), f_name.append("$RECEIVE"), f_dtype.append(DEVICE_TYPE_RECEIVE)
            f_share.append(0.0), f_mix.append((0, 0, 0, 0)), f_disc.append(-1)
            for (q, fname, disc, share, r, w, u, dl) in opens:
                if q == p:
                    f_proc.append(p), f_name.append(f"{inv.disc_names[disc]}.APPDB.{fname}")
                    f_dtype.append(DEVICE_TYPE_DISC), f_share.append(share), f_mix.append((r, w, u, dl))
                    f_disc.append(disc)
        f_proc_a = np.array(f_proc)
        mix = np.array(f_mix, float)
        sent = proc["sent"][:, f_proc_a]
        received = proc["received"][:, f_proc_a]
        is_recv = np.array(f_dtype) == DEVICE_TYPE_RECEIVE
        # split each server's messages over its files so that they add up exactly
        file_msgs = np.floor(sent * np.array(f_share))
        for p in servers:
            cols_p = np.flatnonzero((f_proc_a == p) & ~is_recv)
            file_msgs[:, cols_p[0]] += sent[:, cols_p[0]] - file_msgs[:, f_proc_a == p].sum(axis=1)
        ops = np.floor(file_msgs[:, :, None] * mix[None, :, :])
        ops[:, :, 0] += file_msgs - ops.sum(axis=2)  # remainder counted as reads (or writes below)
        only_writes = mix[:, 0] == 0
        ops[:, only_writes, 1] += ops[:, only_writes, 0]
        ops[:, only_writes, 0] = 0
        reads = np.where(is_recv, received, ops[:, :, 0])
        replies = np.where(is_recv, received, ops[:, :, 2])
        info = rng.poisson(0.05, reads.shape)
        msg_bytes = P.msg_bytes[f_proc_a]
        file_busy = np.where(is_recv, 0.0, file_msgs * rng.uniform(1500, 6000, len(f_proc)))
        cols_f = self._header(day, P.cpu[f_proc_a])
        cols_f.update(
            opener_cpu=self._repeat(P.cpu[f_proc_a].tolist()),
            opener_pin=self._repeat(P.pin[f_proc_a].tolist()),
            file_name=self._repeat(f_name),
            device_type=self._repeat(f_dtype),
            file_busy_time=self._flat(file_busy),
            reads=self._flat(reads),
            writes=self._flat(np.where(is_recv, 0, ops[:, :, 1])),
            updates_or_replies=self._flat(replies),
            deletes_or_writereads=self._flat(np.where(is_recv, 0, ops[:, :, 3])),
            info_calls=self._flat(info),
            messages=self._flat(np.where(is_recv, received, file_msgs)),
            message_bytes=self._flat(np.where(is_recv, received, file_msgs) * msg_bytes),
        )

        # DISCOPEN: the disc process's physical I/O for each open, plus alternate-key files
        disc_cols = np.flatnonzero(~is_recv)
        d_src, d_name, d_disc, d_alt = [], [], [], []
        for j in disc_cols:
            d_src.append(j), d_name.append(f_name[j]), d_disc.append(f_disc[j]), d_alt.append(False)
            base = f_name[j].rsplit(".", 1)[1]
            if base in ALTKEY_FILES:
                d_src.append(j), d_name.append(f_name[j].rsplit(".", 1)[0] + "." + ALTKEY_FILES[base])
                d_disc.append(f_disc[j]), d_alt.append(True)
        src = np.array(d_src)
        alt = np.array(d_alt)
        r, w, u, dl = (ops[:, src, k] for k in range(4))
        levels = rng.uniform(1.6, 2.8, len(src))  # index blocks read per keyed access
        hit = inv.disc_hit_ratio[np.array(d_disc)]
        driver_in = np.rint(np.where(alt, (w + dl) * 1.2, (r + u) * levels))
        driver_out = np.where(alt, w + dl, w + u + dl)
        blocked = rng.binomial((r + w + u + dl).astype(np.int64), 0.002)
        split_rate = np.array([SPLIT_PRONE_FILES.get(name.rsplit(".", 1)[1], SPLITS_PER_INSERT) for name in d_name])
        cols_d = self._header(day, inv.disc_cpu[np.array(d_disc)])
        cols_d.update(
            opener_cpu=self._repeat(P.cpu[f_proc_a[src]].tolist()),
            opener_pin=self._repeat(P.pin[f_proc_a[src]].tolist()),
            file_name=self._repeat(d_name),
            driver_input_calls=self._flat(driver_in),
            driver_output_calls=self._flat(driver_out),
            cache_hits=self._flat(rng.binomial(driver_in.astype(np.int64), hit)),
            cache_write_hits=self._flat(rng.binomial(driver_out.astype(np.int64), 0.3)),
            # a block splits only when a record is inserted (WRITES, L2392), never on an update or delete
            block_splits=self._flat(rng.binomial(w.astype(np.int64), split_rate)),
            requests=self._flat(np.where(alt, w + dl, r + w + u + dl)),
            requests_blocked=self._flat(blocked),
            lockwait_time=self._flat(blocked * rng.uniform(20_000, 300_000, blocked.shape)),
        )
        return cols_f, cols_d

