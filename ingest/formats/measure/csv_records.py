"""MEASURE structured records exported as delimited text (one file per entity, a header row of DDL names).

Sample (the first row is CPU 2 of \\TAHITI from the Expand manual's Example 20-5, in raw units; columns
come in any order and any case, the separator may be ``,`` ``;`` ``|`` or tab, timestamps may be Julian
microsecond integers or ISO text, unknown columns such as ``site-rack`` are kept):

    CPU-BUSY-TIME,system-name,cpu-num,from-timestamp,to-timestamp,delta-time,site-rack,cpu-qtime,cpu-qlen-max,mem-qlen-max,dispatches,intr-busy-time,ending-free-mem,memory-pages,pcbs,loadid,error,os-version
    1530360,\\TAHITI,2,211722077012000000,211722077055600000,43600000,R12,1744000,23,5,3876,444720,4856,8192,1800,DT0381,0,G06
    2092800,\\TAHITI,3,1997-02-07 12:03:32,1997-02-07 12:04:15.600000,43600000,R12,872000,11,0,2943,305200,5012,8192,1800,DT0381,0,G06

The entity (raw table) is recognised from the header: the table whose contract columns the header names
most (``cpu-busy-time`` + ``cpu-qtime`` -> measure_cpu, ``name`` + ``type`` + ``value`` -> measure_userdef,
...); only a tie is settled by the file name. ``from-timestamp``, ``to-timestamp`` and ``delta-time`` must
be present, and so must the entity's required counters (``Column(required=True)``: those the marts divide
or condense; a file whose ``cpu-busy-time`` was renamed is refused, naming it, rather than loaded with CPU
busy NULL). Columns beyond the contract are welcome.

Output: batches into ``raw.measure_<entity>`` with the columns of docs/measure_raw_contract.md
(``source_form`` = ``csv``; ``record_ordinal`` = 0-based data line after the header) followed by the
unknown columns (integer or floating point if every value of the first batch is numeric, else text).
Integers are parsed vectorised (pyarrow.csv streaming reader, all columns read as text, then
pyarrow.compute); an empty cell is NULL. Bad input: a row with the wrong number of fields, a non-numeric
counter or an unreadable timestamp is rejected with its line number ("line 7: cpu-busy-time: expected an
integer, found 'abc'"), and so is a line longer than ``LINE_LIMIT`` (stepped past: ``long_lines``); the
other rows load.

Writer API (used by the generator; keep stable):

    write_csv(path, table: str, records: Iterable[dict], *, julian_timestamps=False) -> int
        records keyed by contract columns (raw units, timestamps as datetime); the header uses the
        DDL-style hyphenated names (``counter_value`` is written as the ZMS item ``value``); returns the
        number of records written.
"""

from __future__ import annotations

import codecs
import csv
import functools
import re
from datetime import datetime
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pv

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext
from ingest.formats.long_lines import ShortLines
from ingest.formats.measure import julian, normalize
from ingest.formats.measure import tables as measure_tables
from ingest.formats.measure.ddl import snake

SEPARATORS = (",", ";", "|", "\t")
REQUIRED = ("from_timestamp", "to_timestamp", "delta_time")
BLOCK_BYTES = 4 << 20
# the longest record line read: a MEASURE record is some dozens of items of at most a few dozen characters
# each, a few KB; a longer line (a run-on of records that lost their newlines, binary garbage) is rejected
# with its line number and the lines after it are read (pyarrow needs a row inside one block: a line
# longer than BLOCK_BYTES would otherwise fail the whole file)
LINE_LIMIT = 1 << 20
_INT = re.compile(r"^[+-]?\d{1,18}$").pattern
_I32_MIN, _I32_MAX = -(2**31), 2**31 - 1

# The reader's text encoding: UTF-8 with a byte that is not UTF-8 read as U+FFFD. pyarrow's own UTF-8 check
# rejects the whole file at the first such byte (and cannot hand a row holding one to the handler of rows
# with the wrong number of fields); this way the row is rejected, with its line, and the rest loads.
UTF8_REPLACING = "perfdb-utf-8-replacing"
NOT_UTF8 = "\ufffd"


def _utf8_replacing(name: str) -> codecs.CodecInfo | None:
    if name.replace("_", "-") != UTF8_REPLACING:
        return None
    utf8 = codecs.lookup("utf-8")
    return codecs.CodecInfo(utf8.encode, functools.partial(utf8.decode, errors="replace"), name=UTF8_REPLACING,
                            incrementalencoder=utf8.incrementalencoder,
                            incrementaldecoder=functools.partial(utf8.incrementaldecoder, errors="replace"))


codecs.register(_utf8_replacing)


def _may_hold(a: pa.Array, text: str) -> bool:
    """Whether the text column's bytes hold ``text`` anywhere (its whole buffer searched at C speed: a slice's
    neighbours may answer yes, never a wrong no)."""
    data = a.buffers()[2]
    return data is not None and memoryview(data).tobytes().find(text.encode()) >= 0


def _header(text: str) -> tuple[int, str, list[str]] | None:
    """(1-based line of the header, separator, raw names) of the first non-blank line."""
    for number, line in enumerate(text.splitlines(), 1):
        line = line.lstrip("\ufeff").strip()
        if not line:
            continue
        counts = {sep: line.count(sep) for sep in SEPARATORS}
        sep = max(counts, key=counts.get)
        if not counts[sep]:
            return None
        return number, sep, [name.strip().strip('"').strip() for name in next(csv.reader([line], delimiter=sep))]
    return None


def _derived(names: set[str]) -> set[str]:
    """Contract columns that ``normalize`` can build from these item columns."""
    out = set(names)
    for name in names:
        for suffix, base_len in (("_volume", 7), ("_group", 6), ("_letter", 7)):
            if name.endswith(suffix):
                out.add(name[:-base_len])
        if m := re.fullmatch(r"c\d*_(hits|misses)", name):
            out.add("cache_" + m.group(1))
    if out & {"value", "time_value", "count_value", "counts_count_value"}:
        out.add("counter_value")
    return out


def required_counters(table: str) -> list[str]:
    """The counters a record of ``table`` must carry (``Column(required=True)`` in ``measure.tables``)."""
    return [c.name for c in measure_tables.table_for(table).columns if c.required]


def identify_table(names: Iterable[str], file_name: str) -> str | None:
    """The raw table whose entity columns this header names most; the file name settles ties."""
    have = _derived(set(names))
    scores = {}
    for table, entity in normalize.ENTITY_COLUMNS.items():
        matched = len(have & set(entity))
        if matched:
            scores[table] = (matched, matched / len(entity))
    if not scores:
        return None
    best = max(scores.values())
    tied = [t for t, s in scores.items() if s == best]
    if len(tied) == 1:
        return tied[0]
    tokens = {re.sub(r"\d+$", "", t) for t in re.split(r"[^a-z0-9]+", file_name.lower())}
    named = [t for t in tied if t.removeprefix("measure_") in tokens]
    return named[0] if len(named) == 1 else None


def _strip(a: pa.Array) -> pa.Array:
    t = pc.utf8_trim_whitespace(a)
    return pc.if_else(pc.equal(t, ""), pa.scalar(None, pa.string()), t)


def _ints(a: pa.Array) -> tuple[pa.Array, np.ndarray | None]:
    """Text -> int64; the mask marks cells that are not integers (None when all are)."""
    try:
        return pc.cast(a, pa.int64()), None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        t = _strip(a)
        ok = pc.fill_null(pc.match_substring_regex(t, _INT), True)
        clean = pc.if_else(ok, pc.utf8_ltrim(t, characters="+"), pa.scalar(None, pa.string()))
        return pc.cast(clean, pa.int64()), ~ok.to_numpy(zero_copy_only=False)


def _floats(a: pa.Array) -> tuple[pa.Array, np.ndarray | None]:
    try:
        return pc.cast(_strip(a), pa.float64()), None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        ok = pc.fill_null(pc.match_substring_regex(_strip(a), r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"), True)
        return pc.cast(pc.if_else(ok, _strip(a), pa.scalar(None, pa.string())), pa.float64()), ~ok.to_numpy(
            zero_copy_only=False
        )


def _timestamps(a: pa.Array) -> tuple[pa.Array, np.ndarray | None]:
    """Julian µs integers or ISO text -> timestamp[us]; the mask marks unreadable cells."""
    t = _strip(a)
    digits = pc.fill_null(pc.match_substring_regex(t, r"^\d{1,18}$"), False)
    jul = julian.to_timestamps(pc.cast(pc.if_else(digits, t, pa.scalar(None, pa.string())), pa.int64()))
    iso = pc.if_else(digits, pa.scalar(None, pa.string()), t)
    bad = None
    try:
        iso_ts = pc.cast(iso, pa.timestamp("us"))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):  # find the unreadable ones, one by one (rare)
        values, bad = [], np.zeros(len(iso), dtype=bool)
        for i, v in enumerate(iso.to_pylist()):
            try:
                values.append(None if v is None else datetime.fromisoformat(v))
            except ValueError:
                values.append(None)
                bad[i] = True
        iso_ts = pa.array(values, pa.timestamp("us"))
    out = pc.coalesce(jul, iso_ts)
    if bad is None:
        return out, None
    return out, bad


class CsvRecordsParser:
    format = "measure.csv"
    version = "1"
    priority = 40
    tables = measure_tables.ENTITY_TABLES

    def sniff(self, head: bytes, name: str) -> bool:
        if b"\x00" in head:
            return False
        found = _header(head.decode("utf-8", errors="replace"))
        if found is None:
            return False
        names = {snake(n) for n in found[2]}
        return all(r in names for r in REQUIRED)

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        with path.open("rb") as f:
            head = f.read(1 << 16)
        if not head.strip():
            raise FormatError("empty file: expected a header line of MEASURE item names", line=1)
        found = _header(head.decode("utf-8", errors="replace"))
        if found is None:
            raise FormatError("expected a header line of MEASURE item names separated by , ; | or tab", line=1)
        header_line, sep, raw_names = found
        names = [snake(n) for n in raw_names]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise FormatError(f"header names the same item twice: {', '.join(dupes)}", line=header_line)
        missing = [r.replace("_", "-") for r in REQUIRED if r not in names]
        if missing:
            raise FormatError(f"header lacks {', '.join(missing)}: every MEASURE record needs them", line=header_line)
        table = identify_table(names, path.name)
        if table is None:
            raise FormatError(
                "cannot tell the MEASURE entity from the header (it names no entity items, or names those of "
                "several entities equally); name the file after its entity, e.g. cpu.csv",
                line=header_line,
            )
        lacking = [_csv_name(table, c) for c in required_counters(table) if c not in _derived(set(names))]
        if lacking:
            raise FormatError(
                f"header lacks {', '.join(lacking)}: a {table.removeprefix('measure_').upper()} record needs "
                "them (the marts divide or condense them; a renamed column would leave them NULL). Columns "
                "beyond the contract are welcome",
                line=header_line,
            )
        if len(head) < (1 << 16) and not b"".join(head.splitlines()[header_line:]).strip():
            return  # a header and no records: an export of an interval where nothing was measured
        yield from _Reader(path, ctx, table, header_line, sep, raw_names, names).batches()


class _Reader:
    """One file's streaming state: line bookkeeping and the column types fixed by the first batch."""

    def __init__(self, path, ctx, table, header_line, sep, raw_names, names):
        self.path, self.ctx, self.table = path, ctx, table
        self.header_line, self.sep = header_line, sep
        self.raw_names = dict(zip(names, raw_names))
        self.names = names
        self.contract = normalize.contract_columns(table)
        self.unknown_types: dict[str, pa.DataType] = {}
        self.invalid: list[tuple[int, str, int, int]] = []  # (line, text, expected, actual)
        self.cursor = header_line + 1  # next physical line a valid row can be on
        self.lines: ShortLines | None = None
        ctx.place = lambda ordinal: (None, ordinal + header_line + 1)  # record_ordinal: the data line's

    def _on_invalid(self, row) -> str:
        self.invalid.append((row.number, row.text, row.expected_columns, row.actual_columns))
        return "skip"

    def batches(self) -> Iterator[Batch]:
        try:
            yield from self._batches()
        finally:
            if self.lines is not None:
                self.lines.close()

    def _batches(self) -> Iterator[Batch]:
        try:
            reader = self._open()
        except pa.ArrowInvalid as e:
            raise FormatError(f"cannot read the rows after the header: {e}", line=self.header_line + 1) from None
        while True:
            try:
                rb = reader.read_next_batch()
            except StopIteration:
                break
            except pa.ArrowInvalid as e:
                raise FormatError(f"unreadable text near line {self.cursor}: {e}", line=self.cursor) from None
            for start in range(0, rb.num_rows, BATCH_ROWS):
                batch = self._convert(rb.slice(start, BATCH_ROWS))
                if batch is not None:
                    yield batch
        self._reject_invalid(upto=None)
        self._reject_long_lines()

    def _reject_long_lines(self) -> None:
        for long in self.lines.long:
            self.ctx.read()
            self.ctx.reject(
                f"line {long.line}: a line of {long.size:,} bytes, longer than the {LINE_LIMIT:,} a record may have "
                "(stepped past; the first bytes are kept)",
                long.head, line=long.line, record_ordinal=long.line - self.header_line - 1,
            )

    def _open(self) -> pv.CSVStreamingReader:
        # a long line reaches pyarrow as the separators of an empty row: a blank line, no record
        self.lines = ShortLines(self.path, LINE_LIMIT, (self.sep * (len(self.names) - 1) + "\n").encode())
        return pv.open_csv(
            self.lines,
            # one thread: pyarrow then knows the physical line of a malformed row
            read_options=pv.ReadOptions(
                column_names=list(self.raw_names.values()),
                skip_rows=self.header_line,
                block_size=BLOCK_BYTES,
                use_threads=False,
                encoding=UTF8_REPLACING,
            ),
            parse_options=pv.ParseOptions(
                delimiter=self.sep, invalid_row_handler=self._on_invalid, ignore_empty_lines=False
            ),
            convert_options=pv.ConvertOptions(
                column_types={raw: pa.string() for raw in self.raw_names.values()},
                strings_can_be_null=True,
                null_values=[""],
            ),
        )

    def _lines_of(self, n: int) -> np.ndarray:
        pending = sorted(line for line, *_ in self.invalid if line >= self.cursor)
        lines = np.arange(self.cursor, self.cursor + n + len(pending), dtype=np.int64)
        lines = lines[~np.isin(lines, pending)][:n]
        if n:
            self.cursor = int(lines[-1]) + 1
        return lines

    def _reject_invalid(self, upto: int | None) -> None:
        keep = []
        for line, text, expected, actual in self.invalid:
            if upto is not None and line >= upto:
                keep.append((line, text, expected, actual))
                continue
            self.ctx.read()
            self.ctx.reject(
                f"line {line}: expected {expected} fields separated by {self.sep!r}, found {actual}",
                text,
                line=line,
                record_ordinal=line - self.header_line - 1,
            )
        self.invalid = keep

    def _convert(self, rb: pa.RecordBatch) -> Batch | None:
        n = rb.num_rows
        lines = self._lines_of(n)
        cells = {name: rb.column(i) for i, name in enumerate(self.names)}
        # a blank line reads as a row of nulls: not a record
        blank = np.ones(n, dtype=bool)
        for a in cells.values():
            blank &= a.is_null().to_numpy(zero_copy_only=False)
        if blank.all():
            return None
        bad = np.zeros(n, dtype=bool)
        reasons: dict[int, str] = {}
        columns: dict[str, pa.Array] = {}
        for name, a in cells.items():
            values, mask, expected = self._column(name, a)
            if name in REQUIRED:
                empty = values.is_null().to_numpy(zero_copy_only=False) & ~blank
                mask = empty if mask is None else (mask | empty)
                expected = f"{expected} (the item is required)"
            if mask is not None and mask.any():
                for i in np.flatnonzero(mask & ~bad & ~blank):
                    found = a[int(i)].as_py()
                    reasons[int(i)] = (
                        f"line {lines[i]}: {self.raw_names[name]}: expected {expected}, "
                        f"found {'nothing' if found is None else repr(found)}"
                    )
                bad |= mask & ~blank
            columns[name] = values
        for i in sorted(reasons):
            line = int(lines[i])
            self.ctx.reject(reasons[i], self._row_text(rb, i), line=line, record_ordinal=line - self.header_line - 1)
        self._reject_invalid(upto=self.cursor)
        records = ~blank
        self.ctx.read(int(records.sum()))
        keep = records & ~bad
        if not keep.all():
            idx = pa.array(np.flatnonzero(keep))
            columns = {k: v.take(idx) for k, v in columns.items()}
            lines = lines[keep]
        if not len(lines):
            return None
        rows = normalize.to_contract(
            self.table, columns, source_form="csv", record_ordinal=lines - self.header_line - 1
        )
        return Batch(self.table, rows)

    def _column(self, name: str, a: pa.Array) -> tuple[pa.Array, np.ndarray | None, str]:
        """Convert one column: (values, mask of bad cells or None, what was expected)."""
        values, mask, expected = self._convert_column(name, a)
        if _may_hold(a, NOT_UTF8):  # a byte that is not UTF-8 (read as U+FFFD): whatever the column, no value
            damaged = pc.fill_null(pc.match_substring(a, NOT_UTF8), False).to_numpy(zero_copy_only=False)
            mask = damaged if mask is None else (mask | damaged)
            expected = f"{expected} in UTF-8 (a byte that is not UTF-8 text is shown as \ufffd)"
        return values, mask, expected

    def _convert_column(self, name: str, a: pa.Array) -> tuple[pa.Array, np.ndarray | None, str]:
        typ = self.contract.get(name)
        if name in ("from_timestamp", "to_timestamp"):
            values, mask = _timestamps(a)
            return values, mask, "a Julian timestamp (µs) or an ISO date and time"
        if typ is not None and pa.types.is_integer(typ):
            values, mask = _ints(a)
            if typ == pa.int32():
                out = pc.fill_null(pc.or_(pc.less(values, _I32_MIN), pc.greater(values, _I32_MAX)), False)
                out = out.to_numpy(zero_copy_only=False)
                if out.any():
                    mask = out if mask is None else (mask | out)
                    values = pc.if_else(pa.array(out), pa.scalar(None, pa.int64()), values)
            return values, mask, "an integer"
        if typ is not None:
            return a, None, "text"
        if name not in self.unknown_types:  # the first batch decides an unknown column's type
            ints, int_bad = _ints(a)
            if int_bad is None or not int_bad.any():
                self.unknown_types[name] = pa.int64()
            else:
                floats, float_bad = _floats(a)
                self.unknown_types[name] = pa.float64() if float_bad is None or not float_bad.any() else pa.string()
        kind = self.unknown_types[name]
        if kind == pa.int64():
            values, mask = _ints(a)
            return values, mask, "an integer (as in the first rows)"
        if kind == pa.float64():
            values, mask = _floats(a)
            return values, mask, "a number (as in the first rows)"
        return a, None, "text"

    def _row_text(self, rb: pa.RecordBatch, i: int) -> str:
        values = (rb.column(k)[i].as_py() for k in range(rb.num_columns))
        return self.sep.join("" if v is None else str(v) for v in values)


PARSER = CsvRecordsParser()


def _csv_name(table: str, column: str) -> str:
    if table == "measure_userdef" and column == "counter_value":
        return "value"
    return column.replace("_", "-")


def write_csv(path: Path, table: str, records: Iterable[dict], *, julian_timestamps: bool = False) -> int:
    """Write contract-keyed records as a delimited export with DDL-style names; returns the record count."""
    order = list(normalize.contract_columns(table))
    written = 0
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        columns: list[str] | None = None
        for record in records:
            if columns is None:
                columns = [c for c in order if c in record and c not in ("record_ordinal", "source_form")]
                columns += [c for c in record if c not in order]
                writer.writerow([_csv_name(table, c) for c in columns])
            writer.writerow([_cell(record.get(c), julian_timestamps) for c in columns])
            written += 1
    return written


def _cell(value, julian_timestamps: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return str(julian.from_datetime(value)) if julian_timestamps else value.isoformat(sep=" ")
    return str(value)
