r"""MEASCOM ``LIST`` report text (format ``measure.meascom``) -> raw MEASURE tables in raw units.

Input: what MEASCOM prints for ``LIST <entity> *`` with ``REPORT FORMAT NORMAL``, RATE ON or RATE OFF,
any number of entities and listings per file, with the command echo lines. Sample (Measure User's
Guide 520560-003 p.5-8, reports.md 1.1)::

    13+ LIST USERDEF *
    Process Program $WORK.APPL.BILLING
    CPU 4 Pin 45 Priority 140 Userid 255,255 Creatorid 255,255
    Local System \BUYER From 8 Nov 1990, 14:49:27 For 3.5 Seconds
    TRANSACTIONS 0.28 Accum 0
    TIMEPER 87.48 % Busy 0
    WAITING 0.87 # Max 1 # Queue 0
    14+ SET REPORT RATE OFF
    15+ LIST USERDEF *
    ...
    TIMEPER 3.08 s Busy 0

and a CPU block (Expand manual 523347-008 Example 20-5, reports.md 1.2)::

    Cpu 2 NSR-W Init Lock Pgs 144 Mem Pages 8192
    Memory MB 128 PCBs 1800 Pg Size 16384 Bytes
    Local System \TAHITI From 7 Feb 1997, 12:03:32 For 43.6 Seconds
    Cpu-Busy-Time 3.51 % Swaps
    Cpu-Qtime 0.04 # Cpu-Qlen-Max 23 #
    ...
    Ending-UCL 1,427 # Ending-SCL 4,294,967 K

Output: rows of ``raw.measure_cpu``, ``measure_process``, ``measure_disc``, ``measure_line``,
``measure_userdef``, ``measure_file``, ``measure_discopen`` with the columns of
docs/measure_raw_contract.md (``source_form`` = 'meascom'; ``loadid``, ``error`` and ``os_version`` NULL
because the text does not print them; LINE blocks print no CPU or PIN, so those are NULL too), plus the
identification items the report prints beyond the contract (e.g. ``cpu_type_name``, ``page_size_bytes``,
``creatorid``, ``trackid``) and one BIGINT column per counter label outside the contract (``Ending-SCL``
-> ``ending_scl``). A CPU type printed as a name (``NSR-W``) goes to ``cpu_type_name`` (``cpu_type``
stays NULL: no name-to-code table is known); printed as a number, to ``cpu_type``. Column of a label:
``label.lower().replace('-', '_')`` except the renames in ``meascom_labels.RENAMES``.

Values go back to raw units with the block's ``For`` duration as DELTA-TIME (to the printed precision,
``For 43.6 Seconds`` -> 43,600,000 µs): RATE ON ``Cpu-Busy-Time 3.51 %`` -> 1,530,360 µs; RATE OFF
``TIMEPER 3.08 s`` -> 3,080,000 µs; see ``meascom_labels`` for every kind and unit. A label printed with
no value is 0. RATE ON or OFF is read from the units of each block; the command echo
(``SET REPORT RATE OFF``) decides only for blocks whose units cannot (response/lockwait times alone).

One block (identification lines, ``Local System`` line, counter lines) is one record, except USERDEF:
each counter line is a record sharing the block's identification. ``Remote System`` (SYSTEM) blocks,
listings of entities perfdb does not parse (``LIST TERMINAL``, ...) and text outside any block are kept
verbatim in ``raw.measure_unparsed`` (``record_ordinal``, ``source_form``, ``entity`` (the LIST keyword
or SYSTEM, NULL for text outside any listing), ``line_number``, ``raw_text``), counted as skipped. DISC,
FILE and DISCOPEN have no public sample; their identification lines are perfdb's, in the style of the
others, and ``meascom_writer`` writes the same layout (``Disc $DATA01 Device Type 3 Subdevice Type 36``
/ ``Logical Device 23 CPU 2 Pin 257``; ``File $DATA01.SALES.ORDERS Device Type 3`` / ``CPU 3 Opener
3,45``; ``Discopen $DATA01.SALES.ORDERS`` / ``CPU 2 Opener 3,45``).

Bad input: a counter line that does not read as ``Label [number [unit]]`` groups (a value that is not a
number, a unit unknown for that counter, a stray token) rejects its whole block with ``line N: expected
<label> <number> [unit], found '...'``; the parser resumes at the next identification line or command
echo, so the other entities of the file still load. A bad USERDEF counter line rejects that line only.
A record the loader finds implausible (``ingest.intake.plausibility``: a negative counter, a time
before 1970-01-02, ...) is rejected at the line it starts on, which the parser tells it through
``ParseContext.place`` (the tables have no line column): a block's start line, a USERDEF counter's own
line. E.g. ``Cpu-Busy-Time -31.20 %`` in a PROCESS block starting at line 17: ``line 17: implausible in
raw.measure_process: cpu_busy_time -61776000 is negative (a cumulative counter)``.

Reading: ``parse`` takes the file in chunks of a few MB, each cut just before a command echo or a block
start, and gives each to ``meascom_columnar``, which reads well-formed report text with Arrow and NumPy
instead of line by line. A chunk it declines (anything the columnar reader does not reproduce exactly,
which includes every bad input above) goes through the line-by-line state machine
(``meascom_line_reader``), which keeps its state from chunk to chunk; rejects, messages and line numbers
all come from there. Either tells the line each of its records starts on, kept for the whole file in
about a byte per record (``meascom_line_reader.RecordLines``). The state machine alone, the reference the
columnar reader is tested against, is ``meascom_line_reader.parse_line_by_line``. Both read the grammar
of ``meascom_grammar``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Iterator

from ingest.formats.base import Batch, ParseContext
from ingest.formats.measure import meascom_columnar
from ingest.formats.measure import tables as measure_tables
from ingest.formats.measure.meascom_grammar import LOCAL_HEAD
from ingest.formats.measure.meascom_line_reader import LineReader, cyclic_gc_paused


class MeascomReportParser:
    format = "measure.meascom"
    version = "1"
    priority = 40  # text, specific: needs a MEASCOM 'Local System ... From ... For' line
    tables = (*measure_tables.ENTITY_TABLES, measure_tables.UNPARSED)

    def sniff(self, head: bytes, name: str) -> bool:
        return b"\x00" not in head and LOCAL_HEAD.search(head.decode("latin-1")) is not None

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        """Chunk by chunk: the columnar reader where it reproduces the state machine exactly, the state
        machine (which keeps its state from chunk to chunk) for the chunks it declines."""
        with open(path, encoding="utf-8", errors="replace") as fh, cyclic_gc_paused():
            reader = LineReader(ctx)
            lineno = 1  # of the chunk's first line
            clean = True  # the chunk starts where the reader's state is simple: no block or text open
            for text, follows in _chunks(fh):
                done = None
                # the columnar reader needs whole blocks: a clean start, and an end before an echo, a
                # block start or the end of the file (not a plain line end in the middle of a listing)
                if clean and follows is not None:
                    reader.settle(lineno - 1)
                    session = (reader.rate_on, reader.section, reader.foreign)
                    done = meascom_columnar.read_chunk(text, reader.ordinal, *session)
                if done is None:
                    yield from reader.feed(io.StringIO(text, newline="\n"), lineno)
                else:
                    yield from reader.columnar_batches(done, lineno)
                lineno += text.count("\n") + (not text.endswith("\n"))
                clean = follows == "echo" or (follows == "start" and not reader.foreign)
            yield from reader.close(lineno - 1)


# Text per chunk. The columnar reader's arrays take about ten times the chunk's size; a chunk is cut
# short of this where the next block or command begins, or, with no such line in 4 x CHUNK_CHARS, at a
# line end (the state machine then reads on across the cut).
CHUNK_CHARS = 4 * 2**20
# A newline before a line where the state machine's state is simple: a command echo (it ends the block
# and the text before it) or a block start (the same, unless a foreign listing makes it verbatim text).
# Stricter than the reader (no leading blanks, single spaces): a line it misses only makes a longer chunk.
_CUT = re.compile(r"\n(?=[0-9]+\+|(?:Cpu|Process|Disc|Discopen|File) [!-~]|Comm Line[ \n])")


def _chunks(fh) -> Iterator[tuple[str, str | None]]:
    """(text, what follows it): "echo" or "start" (the line after the cut), "eof", or None for a cut at
    a plain line end."""
    rest = ""
    data = fh.read(CHUNK_CHARS)
    while data:
        text = rest + data
        data = fh.read(CHUNK_CHARS)  # read ahead: the last chunk runs to the end of the file, uncut
        if not data:
            yield text, "eof"
            return
        cut = _last_cut(text)
        follows = None
        if cut is not None:
            follows = "echo" if text[cut].isdigit() else "start"
        elif len(text) < 4 * CHUNK_CHARS or (cut := text.rfind("\n") + 1) == 0:
            rest = text
            continue
        yield text[:cut], follows
        rest = text[cut:]


def _last_cut(text: str) -> int | None:
    """Position just after the last newline ``_CUT`` finds in ``text`` (searched from the end), or None."""
    window = 4096
    while True:
        start = max(0, len(text) - window)
        last = None
        for last in _CUT.finditer(text, start):
            pass
        if last is not None:
            return last.start() + 1
        if start == 0:
            return None
        window *= 16


PARSER = MeascomReportParser()
