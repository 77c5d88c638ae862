"""The contract every parser follows.

A parser is a module-level object named ``PARSER`` in any module under ``ingest.formats``; the
registry (``ingest.formats.registry``) finds it, so adding a format never edits a shared file.

    class MyParser:
        format = "family.form"        # stored in raw.ingest_files.format
        version = "1"                 # bump when output for the same bytes changes
        priority = 50                 # lower sniffs first (binary before text, specific before generic)
        tables = (MY_TABLE, ...)      # the RawTables it writes (declared once, see below)
        def sniff(self, head: bytes, name: str) -> bool: ...
        def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]: ...
        def name_identity(self, head: bytes, name: str) -> str | None: ...   # optional, see below

``parse`` streams: it yields ``Batch`` objects of a bounded size (``BATCH_ROWS``) so memory does not
grow with the file. Every batch carries a ``record_ordinal`` column (the record's position in the
file, 0-based); the loader adds ``source_file_id``. A record the parser cannot read goes to
``ctx.reject(...)`` with its position and the raw bytes, and parsing goes on. A problem that makes
the whole file unreadable raises ``FormatError``: the file is rejected and nothing of it is kept.

Raw tables are declared once, by the code that writes them, as ``RawTable`` objects: name, columns with
Arrow types and descriptions, natural key, and the dbt source (``SourceFamily``) they belong to. The
warehouse creates every declared table from that declaration (before the first file arrives, so staging
always compiles) and casts every batch to it (``ingest.raw_tables``); the dbt sources YAML and the column
tables of ``docs/<family>_raw_contract.md`` are generated from it (``python -m ingest.formats.contract``).
A parser whose input names tables nobody can list in advance (a MEASURE record that a user's DDL adds)
also has ``declare_table(name) -> RawTable``, called for a batch whose table is not in ``tables``.

Identity: a file loads once, and the manifest knows it by the sha256 of its bytes. A parser whose records
may take their time from the file's name (an idle host's command captures are the same bytes every time)
also has ``name_identity(head, name)``: what the name gives the records (host and time) when the content
gives none, else None; the loader makes it part of the file's identity (``database.identify``).

Accounting: the parser calls ``ctx.read()`` once per record it sees. The loader checks
records read = records loaded + rows rejected + rows skipped (skipped = rows of ``Batch(skipped=True)``,
the verbatim catch-all tables) and refuses to commit a file where that does not hold. A loaded batch
counts one record per row unless it says otherwise in ``records``: a parser whose record spreads over
several rows or tables (one command capture = one capture row + its counter rows) sets ``records`` to
the records the batch completes and 0 on the batches that only carry their detail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import pyarrow as pa

BATCH_ROWS = 65_536
SNIFF_BYTES = 64 * 1024  # what a parser's sniff() sees of a file
UTF8_BOM = b"\xef\xbb\xbf"  # what a Windows editor puts before a text: no part of the data, never sniffed

# Columns that say where and in which form a record arrived, not what it measured: two copies of one
# measurement (another export of the same day, another form of it) may differ in them and still be the same
# (``ingest.intake.copies``)
PROVENANCE_COLUMNS = frozenset({"record_ordinal", "byte_offset", "line_number", "source_form", "source_format"})


class FormatError(Exception):
    """The file cannot be read at all (wrong form, unreadable header). Names where and what."""

    def __init__(self, message: str, *, offset: int | None = None, line: int | None = None):
        super().__init__(message)
        self.offset = offset
        self.line = line

    def position(self) -> str:
        if self.line is not None:
            return f"line {self.line}"
        if self.offset is not None:
            return f"offset {self.offset}"
        return "start of file"


@dataclass(frozen=True)
class Column:
    """One column of a raw table, with what plausibility at ingest (``ingest.intake.plausibility``) holds it to.

    ``cumulative``: a counter that counts up from a start (events, bytes, busy time), so a negative value is
    not a measurement; ``optional``: a natural-key column a record may leave NULL (every other natural-key
    column must have a value); ``positive``: a value of 0 or less is not a measurement (an interval's
    length); ``maximum``: the largest value a measurement can have (an absolute bound, in the column's unit);
    ``max_per_s``: the most the counter can grow per second of its record's interval (``RawTable.interval``),
    e.g. a busy time in µs at most 2e6 (two halves of a device busy at once), a count at most 1e9;
    ``verbatim``: text kept as printed (a line, a note), where control characters are no fault: every other
    text column is a label, and a control character in it rejects the record; ``required``: a counter the
    marts divide or condense: an export that lacks it is refused, and ``perfdb check`` fails a system-day
    where it is NULL in every record."""

    name: str  # snake_case with its unit (_us, _s, _pct, _bytes, _per_s, _count)
    type: pa.DataType
    description: str = ""
    cumulative: bool = False
    optional: bool = False
    positive: bool = False
    maximum: float | None = None
    max_per_s: float | None = None
    verbatim: bool = False
    required: bool = False


@dataclass(frozen=True)
class SourceFamily:
    """A dbt source: the raw tables of one kind of input, documented on one page."""

    name: str  # dbt source name and folder under dbt_project/models/staging/
    description: str
    docs: str  # the contract page, e.g. "docs/smf_raw_contract.md"


# the column the loader puts first in every raw table
SOURCE_FILE_ID = Column("source_file_id", pa.int64(),
                        "The file the row came from: raw.ingest_files.file_id (added by the loader).")


@dataclass(frozen=True)
class RawTable:
    """One table of schema ``raw``: the single declaration the loader, dbt and the docs follow.

    ``columns`` excludes ``source_file_id`` (the loader adds it to every row). ``open``: files may carry
    further columns (a MEASURE CSV export with items beyond the contract); they are added as they come,
    after the declared ones. A batch column that is not declared in a closed table is a parser bug.
    ``placement``: the system column and the time column that place a row in a (system, day): what a file
    touched, hence what a nightly build rebuilds, and the partitions of the Parquet lake. A table without
    one (command values, placed by their capture) follows the rows of its file's other tables.
    ``per_record``: every row belongs to the record its ``record_ordinal`` names, so a record rejected at
    ingest takes all its rows with it; False for rows that several records of a file share (a file's counter
    labels, numbered by the first capture that printed them)."""

    name: str
    family: SourceFamily
    description: str
    columns: tuple[Column, ...]
    natural_key: tuple[str, ...] = ()
    open: bool = False
    placement: tuple[str, str] | None = None
    per_record: bool = True
    interval: str | None = None  # the column holding each record's interval length in µs (``Column.max_per_s``)

    def __post_init__(self):
        names = [c.name for c in self.columns]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice or SOURCE_FILE_ID.name in names:
            raise ValueError(f"raw.{self.name}: columns declared twice or reserved: {', '.join(twice) or SOURCE_FILE_ID.name}")
        unknown = [k for k in (*self.natural_key, *(self.placement or ()), *([self.interval] if self.interval else []))
                   if k not in names and k != SOURCE_FILE_ID.name]
        if unknown:
            raise ValueError(f"raw.{self.name}: natural key or placement names undeclared columns {', '.join(unknown)}")

    @property
    def schema(self) -> pa.Schema:
        return pa.schema([pa.field(c.name, c.type) for c in self.columns])

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def stored_columns(self) -> tuple[Column, ...]:
        """The columns of the table in the warehouse: ``source_file_id``, then the declared ones."""
        return (SOURCE_FILE_ID, *self.columns)


@dataclass
class Batch:
    table: str  # raw table name without schema, e.g. "measure_cpu"
    rows: pa.Table  # must contain an int64 "record_ordinal" column
    skipped: bool = False  # catch-all rows: kept verbatim, counted as skipped rather than loaded
    records: int | None = None  # records this loaded batch completes; None: one per row


@dataclass
class Reject:
    reason: str
    raw: bytes
    offset: int | None = None
    line: int | None = None
    record_ordinal: int | None = None
    rule: str = "unreadable"  # what the manifest counts it as: a plausibility rule, or unreadable input


@dataclass
class ParseContext:
    path: Path
    options: dict[str, Any] = field(default_factory=dict)
    records_read: int = 0
    rejects: list[Reject] = field(default_factory=list)
    # where a record is in the file, by its ordinal: (byte offset, line), either None. Set by a parser whose
    # tables carry no line or offset column, so that a record the loader rejects (plausibility) is placed
    place: Callable[[int], tuple[int | None, int | None]] | None = None

    def read(self, n: int = 1) -> None:
        self.records_read += n

    def reject(
        self,
        reason: str,
        raw: bytes | str,
        *,
        offset: int | None = None,
        line: int | None = None,
        record_ordinal: int | None = None,
    ) -> None:
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "replace")
        self.rejects.append(Reject(reason, raw, offset, line, record_ordinal))


class Parser(Protocol):
    format: str
    version: str
    priority: int
    tables: tuple[RawTable, ...]

    def sniff(self, head: bytes, name: str) -> bool: ...

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]: ...


def table_of(parser: Parser, name: str) -> RawTable:
    """The declaration of ``raw.<name>``, which a batch of ``parser`` is written to."""
    for table in parser.tables:
        if table.name == name:
            return table
    declare = getattr(parser, "declare_table", None)
    if declare is None:
        raise ValueError(f"parser {parser.format} wrote raw.{name}, which it does not declare "
                         f"(it declares {', '.join(t.name for t in parser.tables)})")
    return declare(name)
