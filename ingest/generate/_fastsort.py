"""The demo's FastSort statistics listings (``ingest.formats.nonstop.fastsort``): the nightly sorts of the MEASURE
demo's NonStop systems, each run's statistics as FastSort prints them to its list file (HP FastSort Manual
429834-003, p. 2-13: the manual's own form, one space between a value and its name).

Each night at ``HOUR`` a system sorts a small file (under seed 001's 100 Kbytes, L1344) and a large one. The
small file fits the memory FastSort's AUTOMATIC option gives it, so it sorts in one pass (INITIAL RUNS 0, L1344:
"a one-pass sort if the file is small"), except on its ``SHORT_MEMORY_DAYS``, when the job names a memory of 16
pages (32 Kbytes): the tournament then writes runs to scratch and merges them, a second pass seed 001's rule
001-aF19 flags (L1284: "If the input file is less than the size of main memory, the sort can be done in one
pass"). The large file outgrows any memory given it and is sorted in two passes, as it must be.

The figures follow seed 001: a random file's runs average twice the tournament (L1298), compares grow as
N log2 N (L1280), the serial rate is the processor's (Table 2's TXP, 1 Mbyte in 27 s, L1414: about 40,000
bytes/s; Figure 5's VLX, 604 100-byte records/s, L1448), and a block of the scratch file is 16 Kbytes (L1288:
"16-Kbyte blocks provide most of the benefits"), written once and read once.
The values are fixed, not drawn: the demo's other captures keep their random sequence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HOUR = 2
PAGE_BYTES = 2048  # BUFFER PAGES are 1,024-word pages; a NonStop word is 16 bits
BLOCK_BYTES = 16384
SHORT_MEMORY_PAGES = 16


@dataclass(frozen=True)
class SortJob:
    minute: int
    records: int
    record_bytes: int
    buffer_pages: int


@dataclass(frozen=True)
class NonStopSystem:
    name: str
    bytes_per_s: int
    jobs: tuple[SortJob, ...]
    short_memory_days: tuple[int, ...]


SYSTEMS = (
    # the day's 800 transactions of 120 bytes (96,000 bytes) and a 200,000-record account extract (20 Mbytes)
    NonStopSystem("\\PROD1", 40000, (SortJob(0, 800, 120, 64), SortJob(10, 200000, 100, 1024)), (11, 39)),
    # 1,000 records of 100 bytes: seed 001's 100 Kbytes (100,000 bytes), and a 50,000-record test file (5 Mbytes)
    NonStopSystem("\\DEV1", 60400, (SortJob(0, 1000, 100, 64), SortJob(10, 50000, 100, 512)), (25,)),
)


def statistics(job: SortJob, bytes_per_s: int) -> str:
    """The listing of one run of ``job`` on a processor sorting ``bytes_per_s``."""
    file_bytes = job.records * job.record_bytes
    memory = job.buffer_pages * PAGE_BYTES
    runs = 0 if file_bytes <= memory else math.ceil(file_bytes / (2 * memory))
    scratch = file_bytes if runs else 0
    merge_order = max(2, memory // BLOCK_BYTES) if runs else 0
    elapsed = round(2 + file_bytes / bytes_per_s * (1.3 if runs else 1.0))
    pairs = [
        (job.records, "RECORDS"), (job.record_bytes, "MAX RECORD SIZE"),
        (_time(elapsed), "ELAPSED TIME"), (job.buffer_pages, "BUFFER PAGES"),
        (_time(round(0.3 * elapsed)), "I/O WAIT TIME"), (runs, "INITIAL RUNS"),
        (int(job.records * math.log2(job.records)), "COMPARES"), (0, "FIRST MERGE ORDER"),
        (scratch, "SCRATCH DISK"), (merge_order, "MERGE ORDER"),
        (2 * math.ceil(scratch / BLOCK_BYTES), "SCRATCH SEEKS"), (0, "INTERMEDIATE PASSES"),
    ]
    lines = [f" {a} {name_a} {b} {name_b}" for (a, name_a), (b, name_b) in zip(pairs[::2], pairs[1::2])]
    return "\n".join(lines + [" 0 NUMBER OF DUPLICATES", "Errors detected: 0", "Warnings detected: 0"]) + "\n"


def night(system: NonStopSystem, day: int) -> list[tuple[int, str]]:
    """(minute after HOUR, listing) of each sort a system runs on a night of the demo (0 = its first day)."""
    out = []
    for job in system.jobs:
        if day in system.short_memory_days and job is system.jobs[0]:
            job = SortJob(job.minute, job.records, job.record_bytes, SHORT_MEMORY_PAGES)
        out.append((job.minute, statistics(job, system.bytes_per_s)))
    return out


def _time(seconds: int) -> str:
    return f"{seconds // 60:02d}:{seconds % 60:02d}"
