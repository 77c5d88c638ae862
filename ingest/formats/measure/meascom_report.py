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

Reading: ``parse`` takes the file in chunks of a few MB, each cut just before a command echo or a block
start, and gives each to ``meascom_columnar``, which reads well-formed report text with Arrow and NumPy
instead of line by line. A chunk it declines (anything the columnar reader does not reproduce exactly,
which includes every bad input above) goes through the line-by-line state machine (``_Reader``), which
keeps its state from chunk to chunk; rejects, messages and line numbers all come from there. The state
machine alone, the reference the columnar reader is tested against, is ``parse_line_by_line``.
"""

from __future__ import annotations

import gc
import io
import re
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Iterator

import pyarrow as pa

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext
from ingest.formats.measure import tables as measure_tables
from ingest.formats.measure.meascom_labels import (
    CONVERSIONS,
    ENTITY_SCHEMAS,
    HEADER_SCHEMA,
    ID_LINES,
    QUEUE,
    TABLES,
    UNITS,
    UNPARSED_SCHEMA,
    USERDEF_TYPES,
    label_info,
)

SOURCE_FORM = "meascom"
UNPARSED_TABLE = measure_tables.UNPARSED.name
_MAX_INT64 = 2**63 - 1
_MAX_INT32 = 2**31 - 1
_MAX_DELTA_US = 100 * 366 * 86_400 * 10**6  # a longer "For" is a mangled line, and would overflow TIMESTAMP

_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_NUMBER_START = frozenset("0123456789-")
_USERDEF_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_LOCAL = re.compile(
    r"Local System (?P<system>\\\S+) From (?P<day>\d{1,2}) (?P<month>[A-Za-z]{3}) (?P<year>\d{4}), "
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2}):(?P<second>\d{2}) For (?P<duration>\d[\d,]*(?:\.\d+)?) "
    r"(?P<unit>Seconds?|Minutes?|Hours?)"
)
_LOCAL_HEAD = re.compile(r"^[ \t]*Local System \\\S+ From \d{1,2} [A-Za-z]{3} \d{4}, \d{1,2}:\d{2}:\d{2} For ", re.M)
_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_DURATION_US = {"second": 1e6, "minute": 6e7, "hour": 3.6e9}
_EPOCH = datetime(1970, 1, 1)
_ONE_US = datetime(1970, 1, 1, 0, 0, 0, 1) - _EPOCH

# first word of a line that starts a block (or, for "Local", ends its identification lines)
_STARTERS = {
    "Cpu": "cpu",
    "Process": "process",  # or userdef: told apart by the rest of the line
    "Comm": "line",
    "Disc": "disc",
    "File": "file",
    "Discopen": "discopen",
    "Remote": "system",
    "Local": None,
}
_TWO_WORD_STARTERS = {"Comm": "Line", "Remote": "System"}
_PARSED_ENTITIES = set(TABLES) | {"SYSTEM"}  # LIST <entity> whose output this parser reads
_ID, _COUNTERS = 0, 1
_LINE_CACHE_SIZE = 32_768  # distinct lines each line cache remembers (then it starts afresh)


class _Table:
    """Rows of one raw table as lists in column order; labels outside the contract add columns."""

    def __init__(self, name: str):
        schema = UNPARSED_SCHEMA if name == UNPARSED_TABLE else HEADER_SCHEMA + ENTITY_SCHEMAS[name]
        self.name = name
        self.columns = [column for column, _t in schema]
        self.types = [t for _column, t in schema]
        self.index = {column: i for i, column in enumerate(self.columns)}
        self.labels: dict[str, tuple[int, dict, int | None]] = {}  # label -> (column index, conversions, count index)
        # A counter line of labels without values (zero counters) -> its column indexes. Such lines come
        # back in almost every block (40 % of the counter lines of a typical report): a dict lookup each.
        self.zero_lines: dict[str, tuple[int, ...]] = {}
        self.rows: list[list] = []

    def _column(self, column: str) -> int:
        i = self.index.get(column)
        if i is None:
            i = self.index[column] = len(self.columns)
            self.columns.append(column)
            self.types.append(pa.int64())
        return i

    def label(self, token: str, row: list) -> tuple[int, dict, int | None] | None:
        """A counter label's column index (added if new, ``row`` widened to match), or None."""
        info = label_info(token)
        if info is None:
            return None
        column, conversions, count_column = info
        found = (self._column(column), conversions, None if count_column is None else self._column(count_column))
        if len(self.labels) < 10_000:  # a garbage file must not grow the cache without bound
            self.labels[token] = found
        row.extend([None] * (len(self.columns) - len(row)))
        return found

    def remember_zero_line(self, line: str, labels: list[str]) -> None:
        infos = [self.labels.get(label) for label in labels]
        if None not in infos:  # (a label the full label cache did not keep)
            if len(self.zero_lines) >= _LINE_CACHE_SIZE:
                self.zero_lines.clear()
            self.zero_lines[line] = tuple(info[0] for info in infos)

    def arrow(self) -> pa.Table:
        width = len(self.columns)
        rows = self.rows
        for row in rows:  # rows made before a new column appeared are shorter
            if len(row) < width:
                row.extend([None] * (width - len(row)))
        arrays = []
        for column, t, values in zip(self.columns, self.types, zip(*rows)):
            if column == "source_form":
                arrays.append(pa.array([SOURCE_FORM] * len(rows), t))
            elif pa.types.is_timestamp(t):  # held as µs since 1970, naive local time
                arrays.append(pa.array(values, pa.int64()).cast(t))
            else:
                arrays.append(pa.array(values, t))
        self.rows = []
        return pa.table(arrays, names=self.columns)


class _Block:
    """One entity block while it is being read."""

    __slots__ = (
        "entity", "table", "start", "lines", "phase", "row", "delta_s", "error", "resp", "evidence", "rate_on", "id_line",
    )

    def __init__(self, entity: str, table: _Table | None, start: int, rate_on: bool):
        self.entity = entity
        self.table = table
        self.start = start
        self.lines: list[str] | None = [] if table is None else None  # SYSTEM blocks only: kept verbatim
        self.phase = _ID
        self.row: list | None = [None] * len(table.columns) if table is not None else None
        self.delta_s = 0.0
        self.error: str | None = None
        self.resp: list = []  # RESP counters: (column index, printed time in µs, index of their count)
        self.evidence = 0  # +1 RATE ON / -1 RATE OFF, from the last unit that tells
        self.rate_on = rate_on  # the session's RATE when the block began (command echo)
        self.id_line = 0  # index in ID_LINES of the next identification line expected


class _Reader:
    """Line-by-line state machine over one report file; ``run`` yields batches."""

    def __init__(self, ctx: ParseContext):
        self.ctx = ctx
        self.ordinal = 0  # records seen so far; ctx.read() is told in bulk (``_sync_reads``)
        self.reads_told = 0
        self.tables: dict[str, _Table] = {}
        self.rate_on = True  # MEASCOM's default (reports.md §3)
        self.section: str | None = None  # entity of the last LIST echo
        self.foreign = False  # the last LIST was of an entity this parser does not read
        self.orphan: list[str] = []
        self.orphan_start = 0
        self.seen_report = False
        self.blk: _Block | None = None  # the block being read when a chunk of lines ends
        self.lineno = 0  # last line read
        self.full = False  # a table holds BATCH_ROWS rows: yield before reading on
        # The same identification and Local System lines come back every interval (and all entities of
        # a listing share one Local System line): each distinct line is read once per file.
        self.id_lines: dict[tuple, tuple | str] = {}
        self.local_lines: dict[str, tuple | None] = {}
        # blocks with an error: (reason, first line, last line, record ordinal); see _reject_bad_blocks
        self.bad_blocks: list[tuple[str, int, int, int]] = []

    # -- records -----------------------------------------------------------------------------------

    def _table(self, name: str) -> _Table:
        table = self.tables.get(name)
        if table is None:
            table = self.tables[name] = _Table(name)
        return table

    def _next_ordinal(self) -> int:
        self.ordinal += 1
        return self.ordinal - 1

    def _sync_reads(self) -> None:
        self.ctx.read(self.ordinal - self.reads_told)
        self.reads_told = self.ordinal

    def _append(self, table: _Table, row: list) -> None:
        table.rows.append(row)
        if len(table.rows) >= BATCH_ROWS:
            self.full = True

    def columnar_batches(self, done) -> Iterator[Batch]:
        """The tables the columnar reader made of a chunk (a ``meascom_columnar.ChunkRead``), as batches;
        its records and session carry on here."""
        self.ordinal += done.records
        self.rate_on, self.section, self.foreign = done.session
        self.seen_report = True
        self._sync_reads()
        for name, table in done.tables.items():
            for start in range(0, table.num_rows, BATCH_ROWS):
                yield Batch(name, table.slice(start, BATCH_ROWS))

    def _batches(self, at_least: int) -> Iterator[Batch]:
        self._sync_reads()
        for table in self.tables.values():
            if table.rows and len(table.rows) >= at_least:
                yield Batch(table.name, table.arrow(), skipped=table.name == UNPARSED_TABLE)
        self.full = False

    def _unparsed(self, entity: str | None, start: int, lines: list[str]) -> None:
        self._append(self._table(UNPARSED_TABLE), [self._next_ordinal(), None, entity, start, "".join(lines)])

    def _flush_orphan(self) -> None:
        self._unparsed(self.section if self.foreign else None, self.orphan_start, self.orphan)
        self.orphan = []

    def _finish(self, blk: _Block, last_line: int) -> None:
        """The block ends at ``last_line``: a row, a reject or a verbatim record."""
        if blk.table is None:  # SYSTEM
            self._unparsed("SYSTEM", blk.start, blk.lines)
            return
        if blk.error is None and blk.phase == _ID:
            blk.error = f"expected a {_LOCAL_EXPECTED} line after the identification lines"
        if blk.error is not None:
            reason = f"{blk.entity.upper()} block at line {blk.start} rejected: {blk.error}"
            self.bad_blocks.append((reason, blk.start, last_line, self._next_ordinal()))
            return
        if blk.entity == "userdef":
            return  # its records were added line by line
        row = blk.row
        if blk.resp:
            rate_on = blk.evidence > 0 if blk.evidence else blk.rate_on
            for i, us, count_i in blk.resp:
                row[i] = round(us * (row[count_i] or 0)) if rate_on else round(us)
        row[_ORDINAL] = self.ordinal
        self.ordinal += 1
        self._append(blk.table, row)

    # -- lines ---------------------------------------------------------------------------------------

    def _start(self, entity: str, toks: list[str], line: str, lineno: int) -> _Block:
        # USERDEF and PROCESS blocks both start with "Process": USERDEF names the program on that line
        if entity == "process" and (toks[1] == "Program" or toks[2:3] == ["Program"]):
            entity = "userdef"
        table = self._table(TABLES[entity.upper()]) if entity != "system" else None
        blk = _Block(entity, table, lineno, self.rate_on)
        if table is None:
            blk.lines.append(line)
        else:
            self._id_line(blk, line, lineno)
        return blk

    def _id_line(self, blk: _Block, line: str, lineno: int) -> None:
        key = (blk.entity, blk.id_line, line)
        found = self.id_lines.get(key)
        if found is None:
            found = self.id_lines[key] = _read_id_line(blk.entity, blk.id_line, " ".join(line.split()))
            if len(self.id_lines) > _LINE_CACHE_SIZE:
                self.id_lines.clear()
        if type(found) is str:
            blk.error = f"line {lineno}: {found}"
            return
        items, blk.id_line = found
        row = blk.row
        for i, value in items:
            row[i] = value

    def _userdef_line(self, blk: _Block, toks: list[str], line: str, lineno: int) -> None:
        """``NAME [VALUE [UNIT]] TYPEWORD INDEX`` or ``NAME [VALUE [UNIT]] Max N [#] Queue INDEX``."""
        ordinal = self._next_ordinal()
        problem = _userdef_problem(toks)
        if problem is None:
            kind_code, kind = USERDEF_TYPES[toks[-2].lower()]
            middle = toks[1:-2]
            max_value = None
            if "Max" in middle:
                k = middle.index("Max")
                max_value = int(middle[k + 1].replace(",", ""))
                middle = middle[:k]
            value = 0
            if middle:
                factor, per_delta, _evidence = CONVERSIONS[kind][middle[1] if len(middle) == 2 else ""]
                value = round(float(middle[0].replace(",", "")) * (factor * blk.delta_s if per_delta else factor))
            if -_MAX_INT64 < value < _MAX_INT64:
                row = blk.row.copy()
                index = blk.table.index
                row[_ORDINAL] = ordinal
                row[index["name"]] = toks[0].upper()
                row[index["type"]] = kind_code
                row[index["index"]] = int(toks[-1])
                row[index["max_value"]] = max_value
                row[index["counter_value"]] = value
                self._append(blk.table, row)
                return
            problem = "value out of range"
        self.ctx.reject(
            f"USERDEF counter at line {lineno} rejected: line {lineno}: {problem}, found '{' '.join(toks)}'",
            line,
            line=lineno,
            record_ordinal=ordinal,
        )

    def _command(self, toks: list[str]) -> None:
        self.rate_on, self.section, self.foreign = after_command(toks, self.rate_on, self.section, self.foreign)

    # -- the loop ------------------------------------------------------------------------------------

    def run(self, fh) -> Iterator[Batch]:
        """The whole file, line by line."""
        yield from self.feed(fh, 1)
        yield from self.close(self.lineno)

    def feed(self, lines, first_lineno: int) -> Iterator[Batch]:
        """Reads lines numbered from ``first_lineno`` on; a block or text still open after the last one stays
        open for the next call. The two fast paths (counter lines, identification lines) are inline and on
        local names because they are where the time goes; everything else, once or twice per block, takes
        the slow path below them."""
        blk = self.blk
        # blk is reading counter / identification lines, no error yet; its row, duration, table, caches
        counting, identifying, row, delta_s, table, labels, zero_lines = _fast_path_state(blk)
        starters = _STARTERS
        number_start = _NUMBER_START
        units = UNITS
        id_line = self._id_line
        local_lines = self.local_lines
        well_formed = _NUMBER.fullmatch
        max64 = float(_MAX_INT64)
        lineno = first_lineno - 1
        for lineno, line in enumerate(lines, first_lineno):
            if counting:
                zeros = zero_lines.get(line)
                if zeros is not None:
                    for i in zeros:
                        row[i] = 0
                    continue
            toks = line.split()
            if not toks:
                continue
            t0 = toks[0]
            if counting and t0 not in starters and "+" not in t0:
                # label [value [unit]] groups
                n = len(toks)
                i = 0
                label = "<label>"
                valued = False
                while i < n:
                    tok = toks[i]
                    info = labels.get(tok) or table.label(tok, row)
                    if info is None:
                        blk.error = f"line {lineno}: expected {label} <number> [unit], found '{tok}'"
                        counting = False
                        break
                    label = tok
                    i += 1
                    if i < n and toks[i][0] in number_start:
                        number = toks[i]
                        i += 1
                        unit = ""
                        if i < n and (toks[i] in units or toks[i][0].islower()):
                            unit = toks[i]
                            i += 1
                        conversion = info[1].get(unit)
                        try:
                            if conversion is None:
                                raise ValueError(unit)
                            factor, per_delta, evidence = conversion
                            if "," in number:  # thousands separators, in groups of three
                                if well_formed(number) is None:
                                    raise ValueError(number)
                                value = float(number.replace(",", ""))
                            else:
                                value = float(number)
                            value *= factor * delta_s if per_delta else factor
                        except ValueError:
                            found = f"{number} {unit or (toks[i] if i < n else '')}".rstrip()
                            blk.error = f"line {lineno}: expected {label} <number> [unit], found '{found}'"
                            counting = False
                            break
                        if not -max64 < value < max64:  # also refuses the nan and inf that float() reads
                            blk.error = f"line {lineno}: {label} {number} {unit} is out of range"
                            counting = False
                            break
                        if evidence:
                            blk.evidence = evidence
                        if info[2] is not None:
                            blk.resp.append((info[0], value, info[2]))
                        row[info[0]] = round(value)
                        valued = True
                    else:
                        row[info[0]] = 0
                if not valued and counting:
                    table.remember_zero_line(line, toks)
                continue
            if identifying and (t0 == "Local" or t0 not in starters) and "+" not in t0:
                if t0 == "Local":
                    found = local_lines.get(line, False)
                    if found is False:
                        found = local_lines[line] = _read_local_line(" ".join(toks))
                        if len(local_lines) > _LINE_CACHE_SIZE:
                            local_lines.clear()
                    if found is None:
                        blk.error = f"line {lineno}: expected {_LOCAL_EXPECTED}, found '{' '.join(toks)}'"
                    else:
                        row[_SYSTEM_NAME], start_us, delta = found
                        row[_FROM], row[_TO], row[_DELTA] = start_us, start_us + delta, delta
                        blk.delta_s = delta_s = delta / 1e6
                        blk.phase = _COUNTERS
                        counting = blk.entity in _GENERIC
                    identifying = False
                else:
                    id_line(blk, line, lineno)
                    identifying = blk.error is None
                continue

            # the slow path
            echo = _echo(toks) if "+" in t0 else None
            if echo is not None:
                if blk is not None:
                    self._finish(blk, lineno - 1)
                    blk = None
                if self.orphan:
                    self._flush_orphan()
                self._command(echo)
                self.seen_report = True
            elif self.foreign:
                if not self.orphan:
                    self.orphan_start = lineno
                self.orphan.append(line)
            elif starters.get(t0) and len(toks) > 1 and toks[1] == _TWO_WORD_STARTERS.get(t0, toks[1]):
                if blk is not None:
                    self._finish(blk, lineno - 1)
                if self.orphan:
                    self._flush_orphan()
                blk = self._start(starters[t0], toks, line, lineno)
                self.seen_report = True
            elif blk is None:
                if not self.orphan:
                    self.orphan_start = lineno
                self.orphan.append(line)
            elif blk.table is None:
                blk.lines.append(line)  # a SYSTEM block, kept verbatim
            elif blk.error is not None:
                pass  # skipping to the next block
            elif blk.entity == "userdef" and blk.phase == _COUNTERS and t0 != "Local":
                self._userdef_line(blk, toks, line, lineno)
            else:
                blk.error = f"line {lineno}: expected <label> <number> [unit], found '{' '.join(toks)}'"
            if self.full:
                yield from self._batches(BATCH_ROWS)
            counting, identifying, row, delta_s, table, labels, zero_lines = _fast_path_state(blk)
        self.blk = blk
        self.lineno = lineno

    def settle(self, last_line: int) -> None:
        """Ends the open block and text at ``last_line``, as the next line does when it is a command echo or
        a block start outside a foreign listing: the reader is then where the columnar reader can take over."""
        if self.blk is not None:
            self._finish(self.blk, last_line)
            self.blk = None
        if self.orphan:
            self._flush_orphan()

    def close(self, last_line: int) -> Iterator[Batch]:
        """The end of the file, after line ``last_line``."""
        self.settle(last_line)
        if not self.seen_report:
            raise FormatError(
                "no MEASCOM report found: expected a command echo ('13+ LIST CPU *') or an entity block "
                "('Cpu 2 ...' followed by 'Local System \\NAME From ... For ...')",
                line=1,
            )
        if self.bad_blocks:
            self._reject_bad_blocks()
        yield from self._batches(1)

    def _reject_bad_blocks(self) -> None:
        """Rejects each bad block with its text. The text is read back from the file now rather than kept
        for every block while reading: bad blocks are rare, and keeping lines costs time on every line."""
        bad = self.bad_blocks
        texts: list[list[str]] = [[] for _ in bad]
        k = 0
        with open(self.ctx.path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                while k < len(bad) and lineno > bad[k][2]:  # blocks come in file order, never overlap
                    k += 1
                if k == len(bad):
                    break
                if lineno >= bad[k][1]:
                    texts[k].append(line)
        for (reason, start, _last, ordinal), text in zip(bad, texts):
            self.ctx.reject(reason, "".join(text), line=start, record_ordinal=ordinal)


_GENERIC = frozenset(ID_LINES) - {"userdef"}  # entities whose counter lines are label/value groups
_COLUMN_TYPES = {name: t for schema in (HEADER_SCHEMA, *ENTITY_SCHEMAS.values()) for name, t in schema}


def _id_patterns(entity: str) -> list[list[tuple[re.Pattern, dict]]]:
    """Per identification line, regexes (one per part the line may start with) and group converters."""
    lines = []
    for parts in ID_LINES[entity]:
        converters: dict = {}
        fragments = []
        for part in parts:
            fragment = ""
            for piece in re.split(r"(\{\w+\})", part):
                if piece.startswith("{"):
                    name = piece[1:-1]
                    is_int = pa.types.is_integer(_COLUMN_TYPES[name])
                    converters[name] = int if is_int else str
                    fragment += rf"(?P<{name}>\d+)" if is_int else rf"(?P<{name}>[^\s()]+)"
                else:
                    fragment += re.escape(piece)
            fragments.append(fragment)
        starts = range(1) if not lines else range(len(fragments))  # a block's first part is mandatory
        patterns = [
            re.compile(fragments[i] + "".join(f"(?: {frag})?" for frag in fragments[i + 1 :])) for i in starts
        ]
        lines.append([(p, converters) for p in patterns])
    return lines


_ID_PATTERNS = {entity: _id_patterns(entity) for entity in ID_LINES}
# positions of the contract columns in a row (columns outside the contract are appended after them)
_SCHEMA_INDEX = {
    entity: {name: i for i, (name, _t) in enumerate(HEADER_SCHEMA + ENTITY_SCHEMAS["measure_" + entity])}
    for entity in ID_LINES
}
_HEADER_INDEX = {name: i for i, (name, _t) in enumerate(HEADER_SCHEMA)}
_ORDINAL, _SYSTEM_NAME = _HEADER_INDEX["record_ordinal"], _HEADER_INDEX["system_name"]
_FROM, _TO, _DELTA = _HEADER_INDEX["from_timestamp"], _HEADER_INDEX["to_timestamp"], _HEADER_INDEX["delta_time"]
_LOCAL_EXPECTED = "'Local System \\NAME From <d Mon yyyy>, <hh:mm:ss> For <n.n> Seconds|Minutes|Hours'"


def _read_id_line(entity: str, id_line: int, text: str) -> tuple[tuple, int] | str:
    """((column index, value) pairs, index of the next identification line), or what was expected."""
    lines = _ID_PATTERNS[entity]
    for n in range(id_line, len(lines)):
        for pattern, converters in lines[n]:
            m = pattern.fullmatch(text)
            if m:
                items = []
                for name, value in m.groupdict().items():
                    if value is not None:
                        value = converters[name](value)
                        if type(value) is int and value > _MAX_INT32:
                            return f"{name} {value} is out of range"
                        if name == "cpu_type_name" and value.isdigit():
                            name, value = "cpu_type", int(value)  # the writer prints an unnamed type as its code
                        items.append((_SCHEMA_INDEX[entity][name], value))
                return tuple(items), n + 1
    expected = " / ".join(" ".join(parts) for parts in ID_LINES[entity][id_line:]) or "'Local System ...'"
    return f"expected {expected}, found '{text}'"


def _read_local_line(text: str) -> tuple[str, int, int] | None:
    """(system name, interval start in µs since 1970, duration in µs) of a Local System line."""
    m = _LOCAL.fullmatch(text)
    if not m or m["month"].lower() not in _MONTHS:
        return None
    try:
        when = datetime(
            int(m["year"]), _MONTHS[m["month"].lower()], int(m["day"]), int(m["hour"]), int(m["minute"]), int(m["second"])
        )
    except ValueError:
        return None
    delta = round(float(m["duration"].replace(",", "")) * _DURATION_US[m["unit"].lower().rstrip("s")])
    if delta > _MAX_DELTA_US:
        return None
    return m["system"], (when - _EPOCH) // _ONE_US, delta


def _fast_path_state(blk: _Block | None) -> tuple:
    """(counting, identifying, row, delta_s, table, labels, zero_lines): what the fast paths of
    ``_Reader.feed`` keep on local names for ``blk``."""
    if blk is None or blk.error is not None or blk.table is None:
        return False, False, [], 0.0, None, None, {}
    table = blk.table
    counting = blk.phase == _COUNTERS and blk.entity in _GENERIC
    return counting, blk.phase == _ID, blk.row, blk.delta_s, table, table.labels, table.zero_lines


def after_command(
    toks: list[str], rate_on: bool, section: str | None, foreign: bool
) -> tuple[bool, str | None, bool]:
    """The session's (RATE ON, entity of the last LIST, that entity is not parsed here) after a command."""
    words = [t.upper() for t in toks]
    if "RATE" in words[:-1]:
        rate_on = words[words.index("RATE") + 1] != "OFF"
    if len(words) > 1 and words[0] in ("LIST", "LISTALL"):
        section = words[1]
        foreign = words[1] not in _PARSED_ENTITIES
    return rate_on, section, foreign


def _echo(toks: list[str]) -> list[str] | None:
    """The command of a MEASCOM prompt echo line (``13+ LIST CPU *``), else None."""
    t0 = toks[0]
    plus = t0.find("+")
    if plus < 1 or not t0[:plus].isdigit():
        return None
    rest = t0[plus + 1 :]
    return ([rest] if rest else []) + toks[1:]


def _userdef_problem(toks: list[str]) -> str | None:
    """What is wrong with a USERDEF counter line, or None."""
    name = toks[0]
    expected = f"expected {name} <number> [unit] <Accum|Busy|Queue|...> <index>"
    if len(toks) < 3 or not _USERDEF_NAME.fullmatch(name) or not toks[-1].isdigit() or int(toks[-1]) > _MAX_INT32:
        return expected
    kind = USERDEF_TYPES.get(toks[-2].lower())
    if kind is None:
        return expected
    middle = toks[1:-2]
    if "Max" in middle:
        k = middle.index("Max")
        tail = middle[k + 1 :]
        if (
            kind[1] != QUEUE
            or not tail
            or not tail[0].replace(",", "").isdigit()
            or int(tail[0].replace(",", "")) > _MAX_INT64
            or tail[1:] not in ([], ["#"])
        ):
            return f"expected {name} <number> [unit] Max <n> # Queue <index>"
        middle = middle[:k]
    if len(middle) > 2 or (middle and not _NUMBER.fullmatch(middle[0])):
        return expected
    if middle and (middle[1] if len(middle) == 2 else "") not in CONVERSIONS[kind[1]]:
        return f"expected {name} <number> [unit] with a unit a {toks[-2]} counter can have"
    return None


class MeascomReportParser:
    format = "measure.meascom"
    version = "1"
    priority = 40  # text, specific: needs a MEASCOM 'Local System ... From ... For' line
    tables = (*measure_tables.ENTITY_TABLES, measure_tables.UNPARSED)

    def sniff(self, head: bytes, name: str) -> bool:
        return b"\x00" not in head and _LOCAL_HEAD.search(head.decode("latin-1")) is not None

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        """Chunk by chunk: the columnar reader where it reproduces the state machine exactly, the state
        machine (which keeps its state from chunk to chunk) for the chunks it declines."""
        from ingest.formats.measure.meascom_columnar import read_chunk  # it builds on this module

        with open(path, encoding="utf-8", errors="replace") as fh, _cyclic_gc_paused():
            reader = _Reader(ctx)
            lineno = 1  # of the chunk's first line
            clean = True  # the chunk starts where the reader's state is simple: no block or text open
            for text, follows in _chunks(fh):
                done = None
                # the columnar reader needs whole blocks: a clean start, and an end before an echo, a
                # block start or the end of the file (not a plain line end in the middle of a listing)
                if clean and follows is not None:
                    reader.settle(lineno - 1)
                    done = read_chunk(text, reader.ordinal, reader.rate_on, reader.section, reader.foreign)
                if done is None:
                    yield from reader.feed(io.StringIO(text, newline="\n"), lineno)
                else:
                    yield from reader.columnar_batches(done)
                lineno += text.count("\n") + (not text.endswith("\n"))
                clean = follows == "echo" or (follows == "start" and not reader.foreign)
            yield from reader.close(lineno - 1)


def parse_line_by_line(path: Path, ctx: ParseContext) -> Iterator[Batch]:
    """The reference: the whole file through the state machine (what the columnar reader must match)."""
    with open(path, encoding="utf-8", errors="replace") as fh, _cyclic_gc_paused():
        yield from _Reader(ctx).run(fh)


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


@contextmanager
def _cyclic_gc_paused():
    """The parse makes no reference cycles but keeps hundreds of thousands of small tuples alive (rows,
    line caches); the cyclic collector would rescan them, and everything else in the process, again and
    again: a quarter of the parse time. Reference counting still frees everything."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


PARSER = MeascomReportParser()
