r"""The line-by-line reader of MEASCOM ``LIST`` report text: the state machine ``meascom_report`` falls back
on for every chunk its columnar fast path declines, and the reference that fast path is tested against.

Input: lines of report text, in as many calls to ``LineReader.feed`` as there are chunks (a block or text
still open at the end of one stays open for the next), e.g.::

    13+ LIST CPU *
    Cpu 2 NSR-W Init Lock Pgs 144 Mem Pages 8192
    Memory MB 128 PCBs 1800 Pg Size 16384 Bytes
    Local System \TAHITI From 7 Feb 1997, 12:03:32 For 43.6 Seconds
    Cpu-Busy-Time 3.51 % Swaps

Output: ``Batch``es of the raw MEASURE tables (``meascom_report`` describes the rows), rejects for the
bad blocks and USERDEF lines with their line numbers, and ``raw.measure_unparsed`` for the text kept
verbatim. ``parse_line_by_line`` reads a whole file this way alone. The line each record starts on is
kept (``RecordLines``) and told the loader through ``ParseContext.place``: the tables have no line
column, and a record the loader finds implausible is rejected with its line all the same.
"""

from __future__ import annotations

import gc
from array import array
from bisect import bisect_right
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import numpy as np
import pyarrow as pa

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext
from ingest.formats.measure.meascom_grammar import (
    GENERIC,
    LINE_CACHE_SIZE,
    LOCAL_EXPECTED,
    MAX_INT64,
    NUMBER,
    NUMBER_START,
    SOURCE_FORM,
    STARTERS,
    TWO_WORD_STARTERS,
    UNPARSED_TABLE,
    after_command,
    block_entity,
    command_of_echo,
    read_id_line,
    read_local_line,
    userdef_problem,
)
from ingest.formats.measure.meascom_labels import (
    CONVERSIONS,
    ENTITY_SCHEMAS,
    HEADER_SCHEMA,
    TABLES,
    UNITS,
    UNPARSED_SCHEMA,
    USERDEF_TYPES,
    label_info,
)

_ID, _COUNTERS = 0, 1  # phases of a block: identification lines, then (after Local System) counter lines
_HEADER_INDEX = {name: i for i, (name, _t) in enumerate(HEADER_SCHEMA)}
_ORDINAL, _SYSTEM_NAME = _HEADER_INDEX["record_ordinal"], _HEADER_INDEX["system_name"]
_FROM, _TO, _DELTA = _HEADER_INDEX["from_timestamp"], _HEADER_INDEX["to_timestamp"], _HEADER_INDEX["delta_time"]


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
            if len(self.zero_lines) >= LINE_CACHE_SIZE:
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


class RecordLines:
    """The line each record of a file starts on, by record ordinal. Lines grow from record to record (but
    for a USERDEF block rejected after its counter lines: its ordinal comes after theirs, its start line
    before), so they are kept as steps from one to the next, in parts (a chunk's records), each in the
    narrowest integer type that holds its steps: a byte per record as a rule, where a line number each would
    take 8 (a file of USERDEF counters is a record every 40 bytes or so, millions in a large file)."""

    def __init__(self):
        self._firsts: list[int] = []  # per part: its first ordinal,
        self._bases: list[int] = []  # the line of the record before it (0 for the first part),
        self._steps: list[np.ndarray] = []  # and the steps, one per record
        self._count = 0  # records in the parts
        self._last = 0  # line of the last of them
        self._pending = array("q")  # lines added one by one since the last part
        self._decoded: tuple[int, np.ndarray] = (-1, np.empty(0, np.int64))  # the last part looked up, its lines
        # add(line): the next record starts at ``line``. The array's own append: the state machine calls it
        # for every record, and a method around it would cost a Python call each time
        self.add = self._pending.append

    def extend(self, lines: np.ndarray) -> None:
        """The next records start at ``lines``."""
        self.seal()
        self._part(lines)

    def seal(self) -> None:
        """The lines added one by one become a part."""
        if self._pending:
            self._part(np.array(self._pending, np.int64))
            del self._pending[:]  # the same array: ``add`` is its append

    def _part(self, lines: np.ndarray) -> None:
        if len(lines) == 0:
            return
        steps = np.diff(lines, prepend=self._last)
        narrow = np.result_type(np.min_scalar_type(steps.min()), np.min_scalar_type(steps.max()))
        self._firsts.append(self._count)
        self._bases.append(self._last)
        self._steps.append(steps.astype(narrow))
        self._count += len(lines)
        self._last = int(lines[-1])

    def place(self, ordinal: int) -> tuple[None, int]:
        """(byte offset, line) of record ``ordinal``, as ``ParseContext.place`` tells them: the line only
        (the text is read as characters, not bytes)."""
        self.seal()
        k = bisect_right(self._firsts, ordinal) - 1
        if self._decoded[0] != k:  # the loader asks in ordinal order, as a rule: a part is decoded once
            self._decoded = (k, self._bases[k] + np.cumsum(self._steps[k], dtype=np.int64))
        return None, int(self._decoded[1][ordinal - self._firsts[k]])


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


class LineReader:
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
        self.record_lines = RecordLines()
        ctx.place = self.record_lines.place

    # -- records -----------------------------------------------------------------------------------

    def _table(self, name: str) -> _Table:
        table = self.tables.get(name)
        if table is None:
            table = self.tables[name] = _Table(name)
        return table

    def _next_ordinal(self, line: int) -> int:
        """The ordinal of the next record, which starts at ``line``."""
        self.record_lines.add(line)
        self.ordinal += 1
        return self.ordinal - 1

    def _sync_reads(self) -> None:
        self.ctx.read(self.ordinal - self.reads_told)
        self.reads_told = self.ordinal

    def _append(self, table: _Table, row: list) -> None:
        table.rows.append(row)
        if len(table.rows) >= BATCH_ROWS:
            self.full = True

    def columnar_batches(self, done, first_line: int) -> Iterator[Batch]:
        """The tables the columnar reader made of a chunk (a ``meascom_columnar.ChunkRead``) starting at line
        ``first_line``, as batches; its records, their lines and the session carry on here."""
        self.ordinal += done.records
        self.record_lines.extend(done.record_lines + first_line)
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
        self._append(self._table(UNPARSED_TABLE), [self._next_ordinal(start), None, entity, start, "".join(lines)])

    def _flush_orphan(self) -> None:
        self._unparsed(self.section if self.foreign else None, self.orphan_start, self.orphan)
        self.orphan = []

    def _finish(self, blk: _Block, last_line: int) -> None:
        """The block ends at ``last_line``: a row, a reject or a verbatim record."""
        if blk.table is None:  # SYSTEM
            self._unparsed("SYSTEM", blk.start, blk.lines)
            return
        if blk.error is None and blk.phase == _ID:
            blk.error = f"expected a {LOCAL_EXPECTED} line after the identification lines"
        if blk.error is not None:
            reason = f"{blk.entity.upper()} block at line {blk.start} rejected: {blk.error}"
            self.bad_blocks.append((reason, blk.start, last_line, self._next_ordinal(blk.start)))
            return
        if blk.entity == "userdef":
            return  # its records were added line by line
        row = blk.row
        if blk.resp:
            rate_on = blk.evidence > 0 if blk.evidence else blk.rate_on
            for i, us, count_i in blk.resp:
                row[i] = round(us * (row[count_i] or 0)) if rate_on else round(us)
        row[_ORDINAL] = self._next_ordinal(blk.start)
        self._append(blk.table, row)

    # -- lines ---------------------------------------------------------------------------------------

    def _start(self, toks: list[str], line: str, lineno: int) -> _Block:
        entity = block_entity(toks)
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
            found = self.id_lines[key] = read_id_line(blk.entity, blk.id_line, " ".join(line.split()))
            if len(self.id_lines) > LINE_CACHE_SIZE:
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
        ordinal = self._next_ordinal(lineno)
        problem = userdef_problem(toks)
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
            if -MAX_INT64 < value < MAX_INT64:
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
        starters = STARTERS
        number_start = NUMBER_START
        units = UNITS
        id_line = self._id_line
        local_lines = self.local_lines
        well_formed = NUMBER.fullmatch
        max64 = float(MAX_INT64)
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
                        found = local_lines[line] = read_local_line(" ".join(toks))
                        if len(local_lines) > LINE_CACHE_SIZE:
                            local_lines.clear()
                    if found is None:
                        blk.error = f"line {lineno}: expected {LOCAL_EXPECTED}, found '{' '.join(toks)}'"
                    else:
                        row[_SYSTEM_NAME], start_us, delta = found
                        row[_FROM], row[_TO], row[_DELTA] = start_us, start_us + delta, delta
                        blk.delta_s = delta_s = delta / 1e6
                        blk.phase = _COUNTERS
                        counting = blk.entity in GENERIC
                    identifying = False
                else:
                    id_line(blk, line, lineno)
                    identifying = blk.error is None
                continue

            # the slow path
            echo = command_of_echo(toks) if "+" in t0 else None
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
            elif starters.get(t0) and len(toks) > 1 and toks[1] == TWO_WORD_STARTERS.get(t0, toks[1]):
                if blk is not None:
                    self._finish(blk, lineno - 1)
                if self.orphan:
                    self._flush_orphan()
                blk = self._start(toks, line, lineno)
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
        self.record_lines.seal()  # a part per chunk: the lines added one by one stay few

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


def _fast_path_state(blk: _Block | None) -> tuple:
    """(counting, identifying, row, delta_s, table, labels, zero_lines): what the fast paths of
    ``LineReader.feed`` keep on local names for ``blk``."""
    if blk is None or blk.error is not None or blk.table is None:
        return False, False, [], 0.0, None, None, {}
    table = blk.table
    counting = blk.phase == _COUNTERS and blk.entity in GENERIC
    return counting, blk.phase == _ID, blk.row, blk.delta_s, table, table.labels, table.zero_lines


def parse_line_by_line(path: Path, ctx: ParseContext) -> Iterator[Batch]:
    """The reference: the whole file through the state machine (what the columnar reader must match)."""
    with open(path, encoding="utf-8", errors="replace") as fh, cyclic_gc_paused():
        yield from LineReader(ctx).run(fh)


@contextmanager
def cyclic_gc_paused():
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
