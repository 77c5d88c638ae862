r"""Linux ``vmstat -t`` output (format ``template.vmstat``) -> ``raw.linux_vmstat``: the parser a new format
starts from. Copy it to ``ingest/formats/<family>/<form>.py`` (the registry then finds its ``PARSER``) and
its test to ``tests/<family>/test_<form>.py``, rename, and replace what is vmstat's by what is yours.

Input: what ``vmstat -t <seconds>`` of procps-ng prints, one sample per line after two heading lines
that come back every screenful. Sample (procps-ng 4.0.2 on Linux, ``vmstat -t 1 3``)::

    procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----
     r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC
     5  0      0 18784264  68668 4332980    0    0  1274  3446  557 1236 66  8 26  0  0 2026-11-25 16:52:53
     4  0      0 18784264  68668 4332980    0    0     0     0  731 1133 92  8  0  0  0 2026-11-25 16:52:54
     5  0      0 18784264  68668 4332980    0    0     0  5872  785 1546 82 18  0  0  1 2026-11-25 16:52:55

Output: one row of ``raw.linux_vmstat`` per sample line (the columns of ``TABLE`` below): memory in bytes
(vmstat prints KiB), swap traffic in bytes per second, the rest as printed; ``sampled_at`` as printed
and ``time_zone`` from the second heading line. The first sample averages since boot, as vmstat's does.

Bad input: a sample line that is not the headings' numbers and a time goes to raw.rejects with its line
number (``line 4: expected 17 numbers and a time YYYY-MM-DD HH:MM:SS, found '...'``); the other lines
still load. A file without vmstat's headings is not this format: ``FormatError``, nothing is kept.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Iterator

import pyarrow as pa

from ingest.formats.base import BATCH_ROWS, Batch, Column, FormatError, ParseContext, RawTable, SourceFamily

# vmstat's heading -> (column, factor from the printed unit to the column's, what it is). One list: the
# table's columns and the parse both come from it.
COUNTERS = (
    ("r", "runnable_count", 1, "processes runnable (running or waiting for a CPU)"),
    ("b", "blocked_count", 1, "processes in uninterruptible sleep"),
    ("swpd", "swap_used_bytes", 1024, "virtual memory used"),
    ("free", "free_bytes", 1024, "idle memory"),
    ("buff", "buffer_bytes", 1024, "memory used as buffers"),
    ("cache", "cache_bytes", 1024, "memory used as cache"),
    ("si", "swap_in_bytes_per_s", 1024, "memory swapped in from disk"),
    ("so", "swap_out_bytes_per_s", 1024, "memory swapped out to disk"),
    ("bi", "blocks_in_per_s", 1, "blocks received from a block device"),
    ("bo", "blocks_out_per_s", 1, "blocks sent to a block device"),
    ("in", "interrupts_per_s", 1, "interrupts, including the clock"),
    ("cs", "context_switches_per_s", 1, "context switches"),
    ("us", "user_pct", 1, "CPU time in user code"),
    ("sy", "system_pct", 1, "CPU time in kernel code"),
    ("id", "idle_pct", 1, "CPU time idle"),
    ("wa", "iowait_pct", 1, "CPU time waiting for I/O"),
    ("st", "steal_pct", 1, "CPU time stolen from a virtual machine"),
)
FAMILY = SourceFamily("template", "The template parser's example (not a live format).", "docs/templates/README.md")
TABLE = RawTable(
    name="linux_vmstat",
    family=FAMILY,
    description="One vmstat sample: memory, swap, I/O, system and CPU figures of one interval.",
    columns=(
        Column("record_ordinal", pa.int64(), "position of the sample among the file's samples, from 0"),
        Column("line_number", pa.int64(), "line of the file the sample is on"),
        Column("sampled_at", pa.timestamp("us"), "end of the interval, as printed"),
        Column("time_zone", pa.string(), "the zone vmstat names above its timestamps"),
        *(Column(column, pa.int64(), description) for _heading, column, _factor, description in COUNTERS),
    ),
    natural_key=("sampled_at",),
)
HEADINGS = [heading for heading, _column, _factor, _description in COUNTERS]


class VmstatParser:
    format = "template.vmstat"
    version = "1"
    priority = 50  # text; specific enough (its heading line) to sniff before the generic formats
    tables = (TABLE,)

    def sniff(self, head: bytes, name: str) -> bool:
        first = head.split(b"\n", 1)[0]
        return first.startswith(b"procs -") and b"-timestamp-" in first

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        rows: dict[str, list] = {c.name: [] for c in TABLE.columns}
        ordinal, time_zone, width = 0, None, 0
        with path.open(encoding="utf-8", errors="replace") as f:
            for line_number, line in enumerate(f, start=1):
                words = line.split()
                if not words or words[0] == "procs":
                    continue  # a blank line, or the first heading line (vmstat repeats it every screenful)
                if words[0] == "r":
                    if words[: len(HEADINGS)] != HEADINGS:
                        raise FormatError(f"expected the headings {' '.join(HEADINGS)} ... <zone>", line=line_number)
                    # procps-ng 4.0.4 and later add a heading (gu) after st: kept out, but counted
                    time_zone, width = words[-1], len(words) - 1
                    continue
                if time_zone is None:
                    raise FormatError("expected the vmstat -t headings before the first sample", line=line_number)
                ctx.read()
                try:
                    sampled_at, *counters = _sample(words, width)
                except ValueError:
                    ctx.reject(f"line {line_number}: expected {width} numbers and a time YYYY-MM-DD HH:MM:SS, "
                               f"found '{' '.join(words)}'", line, line=line_number, record_ordinal=ordinal)
                else:
                    for name, value in zip(rows, (ordinal, line_number, sampled_at, time_zone, *counters)):
                        rows[name].append(value)
                ordinal += 1
                if len(rows["record_ordinal"]) == BATCH_ROWS:
                    yield Batch(TABLE.name, pa.table(rows, schema=TABLE.schema))
                    rows = {name: [] for name in rows}
        if time_zone is None:
            raise FormatError("not vmstat -t output: expected 'procs ---...-----timestamp-----' headings", line=1)
        if rows["record_ordinal"]:
            yield Batch(TABLE.name, pa.table(rows, schema=TABLE.schema))


def _sample(words: list[str], width: int) -> tuple:
    """(time, each counter in its column's unit) of one sample line; ValueError if it is not one."""
    if len(words) != width + 2:
        raise ValueError(words)
    counters = [int(word) * factor for word, (_h, _c, factor, _d) in zip(words, COUNTERS)]
    return (datetime.fromisoformat(f"{words[-2]} {words[-1]}"), *counters)


PARSER = VmstatParser()
