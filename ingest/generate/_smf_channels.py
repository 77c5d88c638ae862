"""A day of channel path activity (SMF 73.1) for the plan: each system's channel paths and, per RMF interval, the
partition's busy time on each (the channel path data section, ``ingest/formats/smf/smf73.py``).

A system has four FICON paths to its DASD, an OSA-Express and two channel-to-channel paths that carry VTAM's
host-to-host traffic (seed 003: MPC+ or, before V4R4, AHHC). Each path has a base busy share that follows the
system's CPU load over the day. SYSA's first CTC path is busy enough at the peaks to pass the 78 % that seed 003
L386 names as VTAM V4R3's maximum (its VTAM runs HPR without MPC+: ``ingest/generate/listings.py``); SYSB's,
whose VTAM uses MPC+, reaches the 95 % that L386 names as the MPC+ maximum. The paths RMF reports as not
defined (a section per CHPID X'00'-X'FF') are not written.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from ingest.generate._smf_dasd import RmfTimes

UNIT_US = 1024  # SMF73PBY and SMF73PTI count 1,024-µs units
MAX_BUSY = 0.99

# (CHPID, acronym, CTC defined, base busy share at the day's mean load) per system
PATHS = {
    "SYSA": ((0x20, "FC_S", False, 0.22), (0x21, "FC_S", False, 0.20), (0x22, "FC_S", False, 0.18),
             (0x23, "FC_S", False, 0.16), (0x30, "OSD", False, 0.08), (0x40, "CTC", True, 0.50),
             (0x41, "CTC", True, 0.30)),
    "SYSB": ((0x20, "FC_S", False, 0.20), (0x21, "FC_S", False, 0.18), (0x30, "OSD", False, 0.06),
             (0x40, "CTC", True, 0.62), (0x41, "CTC", True, 0.35)),
}


@dataclass(frozen=True)
class ChannelInterval(RmfTimes):
    """One channel path data section: the partition's busy share of a path in an RMF interval."""
    chpid: int
    acronym: str
    ctc: bool
    start: dt.datetime
    interval_ms: int
    busy: float

    @property
    def interval_units(self) -> int:  # SMF73PTI
        return self.interval_ms * 1000 // UNIT_US

    @property
    def busy_units(self) -> int:  # SMF73PBY
        return round(self.busy * self.interval_units)

    @property
    def busy_samples(self) -> int:  # SMF73BSY
        return round(self.busy * self.samples)


def plan_channels(sid: str, intervals: list[tuple[dt.datetime, int]], load: list[float], seed: int,
                  day: dt.date) -> list[ChannelInterval]:
    """Each channel path in each RMF interval (start, length in ms); ``load``: the interval's CPU busy, which the
    paths' busy shares follow relative to the day's mean."""
    rnd = random.Random(f"{seed}/{sid}/{day.isoformat()}/channels")
    mean = sum(load) / len(load)
    out: list[ChannelInterval] = []
    for (start, interval_ms), busy in zip(intervals, load):
        for chpid, acronym, ctc, base in PATHS.get(sid, PATHS["SYSB"]):
            share = min(MAX_BUSY, base * busy / mean * rnd.uniform(0.9, 1.1))
            out.append(ChannelInterval(chpid, acronym, ctc, start, interval_ms, share))
    return out
