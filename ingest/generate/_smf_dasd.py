"""A day of DASD device activity (SMF 74.1) for the plan: each system's volumes and, per RMF interval, what
RMF measured on each (docs/smf74_format.md).

A system has a few dozen 3390 volumes: system residence, page, spool, work, DB2 and production data. Each
has a base I/O rate (1-300 per second over the day, following the system's CPU load) and a service profile
per I/O: connect (data transfer), pending (channel/control unit start), disconnect (cache misses, synchronous
copy). IOS queue time grows with the volume's busy share of its exposures, the M/M/1 wait
``service x u / (1 - u)``: a HyperPAV volume's aliases keep it near zero, a busy single-exposure volume queues.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

# (volser prefix, count, exposures, base I/O per s range, connect ms range, disconnect ms range)
VOLUME_GROUPS = (
    ("SYSRES", 1, 1, (20, 60), (0.35, 0.5), (0.1, 0.3)),
    ("PAGE0", 2, 1, (5, 40), (0.5, 0.9), (0.1, 0.5)),
    ("SPOOL", 2, 1, (10, 50), (0.3, 0.6), (0.2, 0.8)),
    ("WORK0", 6, 1, (2, 30), (1.0, 2.5), (0.5, 3.0)),
    ("DB2A", 12, 4, (30, 180), (0.2, 0.6), (0.3, 2.0)),
    ("PRD0", 10, 4, (5, 120), (0.3, 0.8), (0.2, 1.5)),
)
PENDING_MS = (0.15, 0.3)
MAX_BUSY = 0.6  # of a volume's exposures: a capacity planner moves data sets off before it queues further
RMF_CYCLE_MS = 1000  # RMF CYCLE(1000): one sample a second (SMF74SAM)
DASD_UNIT_TYPE = "3010200F"  # UCBTYP of a 3390


class RmfTimes:
    """What a section of an RMF interval (``start``, ``interval_ms``) knows of its record: when SMF wrote it and how
    many samples RMF took."""
    start: dt.datetime
    interval_ms: int

    @property
    def written(self) -> dt.datetime:
        return self.start + dt.timedelta(milliseconds=self.interval_ms, seconds=1)

    @property
    def samples(self) -> int:
        return self.interval_ms // RMF_CYCLE_MS


@dataclass(frozen=True)
class Volume:
    device_number: int
    volser: str
    lcu: int
    exposures: int
    base_rate: float
    connect_ms: float
    disconnect_ms: float
    pending_ms: float


@dataclass
class DeviceInterval(RmfTimes):
    """One device data section: what RMF measured on a volume in an interval. The times per I/O are the truth
    the record's 128-µs totals encode; the IOS queue is the sampler's count, as RMF gets it."""
    volume: Volume
    start: dt.datetime
    interval_ms: int
    ssch: int
    connect_ms: float
    pending_ms: float
    disconnect_ms: float
    queued_requests: int  # SMF74QUE: requests found queued, summed over the samples

    @property
    def io_rate(self) -> float:
        return self.ssch / (self.interval_ms / 1000)

    @property
    def iosq_ms(self) -> float:
        """The average queue over the I/O rate (Little's law)."""
        return 1000 * self.queued_requests / self.samples / self.io_rate if self.ssch else 0.0

    def units_128us(self, per_io_ms: float) -> int:
        return round(per_io_ms * 1000 * self.ssch / 128)


def volumes_for(sid: str, seed: int) -> list[Volume]:
    rnd = random.Random(f"{seed}/{sid}/volumes")
    base = 0x0A00 if sid == "SYSA" else 0x0B00 + 0x100 * (sum(map(ord, sid)) % 4)
    out: list[Volume] = []
    for prefix, count, exposures, rates, connect, disconnect in VOLUME_GROUPS:
        for k in range(count):
            volser = prefix if count == 1 else f"{prefix}{k + 1:0{6 - len(prefix)}d}"
            low, high = rates
            out.append(Volume(base + len(out), volser, 1 + len(out) // 16, exposures,
                              math.exp(rnd.uniform(math.log(low), math.log(high))),
                              rnd.uniform(*connect), rnd.uniform(*disconnect), rnd.uniform(*PENDING_MS)))
    return out


def plan_devices(sid: str, intervals: list[tuple[dt.datetime, int]], load: list[float], seed: int,
                 day: dt.date) -> list[DeviceInterval]:
    """Each volume in each RMF interval (start, length in ms); ``load``: the interval's CPU busy, which the
    I/O rates follow relative to the day's mean."""
    rnd = random.Random(f"{seed}/{sid}/{day.isoformat()}/dasd")
    mean = sum(load) / len(load)
    volumes = volumes_for(sid, seed)
    out: list[DeviceInterval] = []
    for (start, interval_ms), busy in zip(intervals, load):
        for v in volumes:
            rate = min(300.0, max(1.0, v.base_rate * busy / mean * rnd.uniform(0.85, 1.15)))
            ssch = round(rate * interval_ms / 1000)
            connect = v.connect_ms * rnd.uniform(0.9, 1.1)
            disconnect = v.disconnect_ms * rnd.uniform(0.8, 1.2)
            pending = v.pending_ms * rnd.uniform(0.9, 1.1)
            service = connect + disconnect + pending
            u = min(MAX_BUSY, rate * (connect + disconnect) / 1000 / v.exposures)
            iosq = service * u ** v.exposures / (1 - u)  # aliases serve the queue: the wait falls with the power
            samples = interval_ms // RMF_CYCLE_MS
            out.append(DeviceInterval(v, start, interval_ms, ssch, connect, pending, disconnect,
                                      round(iosq / 1000 * rate * samples)))
    return out
