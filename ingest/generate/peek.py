"""``perfdb generate peek``: PEEK /CPU <cpu>/ EXPEDITED displays of the demo's NonStop systems (seed 001, L740-L822).

    perfdb generate peek --out DIR

Each display is written as the document prints its Figure 3 (L754, the fields on one line):

* ``\\DEV1`` CPU 0: Figure 3's own values (20 buffers, 16 used, 0.0% discarded before use and too late): it keeps
  both READLINK cache rules;
* ``\\PROD1`` CPU 6, the saturated processor of the demo: SYSGEN's default 20 buffers all in use, 4.7% of the
  requests cached discarded before use and 6.8% of the reads too late: both high (001-aF12);
* ``\\PROD1`` CPU 1: EXPEDITED_REQUEST_BUFFERS raised to 64 while at most 18 were ever used since reload and
  nothing was discarded: an override the statistics do not call for (001-aF13).

The files are named ``<host>__peek-cpu-<cpu>-exp__<time>.out`` (the command names the CPU, the display does not) and
land with the first night of the demo, as the other listings (``ingest.generate.listings``).
"""

from __future__ import annotations

from pathlib import Path

from ingest.generate._landing import landed
from ingest.generate.listings import LANDED_AFTER, STAMP, add_listing_command
from ingest.home import Home

HELP = "PEEK /CPU n/ EXPEDITED displays (READLINK cache statistics) of the demo's NonStop systems"
DESCRIPTION = """PEEK displays of \\PROD1 and \\DEV1 in the form of seed 001's Figure 3: one CPU with the figure's values,
one whose cache is short of buffers and one whose SYSGEN override the statistics do not call for."""

# (host, cpu): allowed, used, requests cached, discarded before use %, attempts to read, successful %,
# unsuccessful %, buffer length, longer than it %, too late %  (unsuccessful = longer + too late, L786-L790)
DISPLAYS = {
    ("DEV1", 0): (20, 16, 6_896_254, 0.0, 7_015_553, 98.2, 1.8, 1536, 1.8, 0.0),
    ("PROD1", 6): (20, 20, 9_412_377, 4.7, 9_020_114, 91.3, 8.7, 1536, 1.9, 6.8),
    ("PROD1", 1): (64, 18, 5_204_733, 0.0, 5_288_016, 98.6, 1.4, 1536, 1.4, 0.0),
}


def display(allowed: int, used: int, cached: int, discarded: float, attempts: int, successful: float,
            unsuccessful: float, length: int, longer: float, too_late: float) -> str:
    return (f"EXPEDITED REQUEST TRANSMISSION BUFFERS: {allowed} BUFFERS USED: {used} REQUESTS CACHED: {cached:,} "
            f"DISCARDED BEFORE USE: {discarded:.1f}% ATTEMPTS TO READ FROM CACHE: {attempts:,} SUCCESSFUL: "
            f"{successful:.1f}% UNSUCCESSFUL: {unsuccessful:.1f}% LENGTH > {length}b: {longer:.1f}% TOO LATE: "
            f"{too_late:.1f}%\n")


def generate(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for (host, cpu), fields in DISPLAYS.items():
        path = out / f"{host}__peek-cpu-{cpu}-exp__{STAMP}.out"
        path.write_text(display(*fields), encoding="utf-8")
        files.append(landed(path, LANDED_AFTER))
    return files


def demo(home: Home, seed: int) -> list[Path]:
    """The demo's PEEK displays, written into ``home/landing/listings`` (the same for every seed)."""
    return generate(home.landing / "listings")


def add_parser(subparsers) -> None:
    add_listing_command(subparsers, "peek", generate, HELP, DESCRIPTION)
