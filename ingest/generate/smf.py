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
* 72.3 - RMF workload activity, one record per WLM service class and RMF interval: the captured CP time
  split over the classes by fixed day and night shares (`_smf_plan.WLM_CLASSES`), zIIP service of the
  DDF class, transactions ended, their response time and DASD I/Os.

Everything is deterministic for a seed: each system, day and record family draws from its own
``random.Random`` keyed by (seed, system, date, family), so one day can be regenerated alone (the
round-trip tests compare a day's plan with what the marts report). The plan of a day is
``_smf_plan``; its encoding as records and dumps ``_smf_records``, written from the layouts independently
of the decoder.

Section clock fields of type 119 are written in UTC (the IBM field texts say GMT); headers and RMF
interval times are local, with the GMT offset in SMF70LGO.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from ingest.cli_options import add_generator_options, output_dir, positive_int, subcommand
from ingest.generate._landing import landed
from ingest.generate._smf_plan import DEMO_START, plan_day
from ingest.generate._smf_records import BLKSIZE, day_records, write_dump
from ingest.home import Home

DEMO_DAYS = 60
DEMO_SYSTEMS = ("SYSA", "SYSB")


def generate(out_dir: Path, systems: list[str], start: dt.date, days: int, seed: int,
             forms: dict[str, str], days_per_file: int = 1, blksize: int = BLKSIZE) -> list[Path]:
    """Dumps of ``days_per_file`` days each, per system, named like the data sets an IFASMFDL job writes."""
    written = []
    for sid in systems:
        for first in range(0, days, days_per_file):
            span = [start + dt.timedelta(days=d) for d in range(first, min(days, first + days_per_file))]
            records = [r for day in span for r in day_records(plan_day(sid, day, seed))]
            name = f"SMF.{sid}.D{span[0]:%y%j}.D{span[-1]:%y%j}.{forms[sid].upper()}.dump"
            written.append(landed(write_dump(out_dir / name, records, forms[sid], blksize), span[-1]))
    return written


def demo(home: Home, seed: int) -> list[Path]:
    """Two systems, the MEASURE demo's 60 days, one dump a week each: SYSA as VB, SYSB as VBS blocks."""
    return generate(home.landing / "smf", list(DEMO_SYSTEMS), DEMO_START, DEMO_DAYS, seed,
                    {"SYSA": "vb", "SYSB": "vbs"}, days_per_file=7)


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "smf", _cmd, help="z/OS SMF dumps (70.1, 72.3, 73.1, 74.1, 30, 119 and a few undecoded types), VB or VBS")
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
