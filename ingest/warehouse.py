"""The DuckDB warehouse: home layout, raw schema, manifest, rejects, all-or-nothing files, publish.

Two files, because DuckDB allows one read-write process or many read-only ones, never both:
``warehouse/perfdb.duckdb`` is written by ingest and dbt; ``warehouse/serving.duckdb`` is a copy that
readers (Superset, reports, ``perfdb sql``) open read-only. ``publish`` replaces it with an atomic
rename, so a reader sees either the old file or the new one, never half of either.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from ingest.formats import registry
from ingest.formats.base import BATCH_ROWS, FormatError, ParseContext, Parser

MANIFEST_DDL = """
create schema if not exists raw;
create schema if not exists audit;
create sequence if not exists raw.ingest_file_id_seq start 1;
create table if not exists raw.ingest_files (
    file_id bigint primary key,
    sha256 varchar not null unique,
    path varchar not null,
    file_name varchar not null,
    size_bytes bigint not null,
    format varchar,
    parser_version varchar,
    records_read bigint not null,
    records_loaded bigint not null,   -- records read = records loaded + rows rejected + rows skipped
    rows_loaded bigint not null,
    rows_rejected bigint not null,
    rows_skipped bigint not null,
    status varchar not null,          -- loaded | loaded_with_rejects | rejected | failed
    error varchar,
    ingested_at timestamp not null default current_timestamp,
);
create table if not exists raw.rejects (
    file_id bigint not null,
    path varchar not null,
    byte_offset bigint,
    line_number bigint,
    record_ordinal bigint,
    reason varchar not null,
    raw_bytes blob,
    rejected_at timestamp not null default current_timestamp,
);
"""


@dataclass(frozen=True)
class Home:
    """``--home`` holds everything a perfdb installation writes."""

    root: Path

    @property
    def landing(self) -> Path:
        return self.root / "landing"

    @property
    def warehouse_dir(self) -> Path:
        return self.root / "warehouse"

    @property
    def db_path(self) -> Path:
        return self.warehouse_dir / "perfdb.duckdb"

    @property
    def serving_path(self) -> Path:
        return self.warehouse_dir / "serving.duckdb"

    @property
    def reports_dir(self) -> Path:
        return self.root / "reports"

    @classmethod
    def from_args(cls, args) -> "Home":
        """``--home``, else ``$PERFDB_HOME``, else ``./perfdb_home``."""
        root = getattr(args, "home", None) or os.environ.get("PERFDB_HOME") or "perfdb_home"
        return cls(Path(root).resolve()).create()

    def create(self) -> "Home":
        for d in (self.landing, self.warehouse_dir, self.reports_dir):
            d.mkdir(parents=True, exist_ok=True)
        return self


@dataclass
class FileResult:
    path: Path
    status: str  # loaded | loaded_with_rejects | rejected | failed | duplicate
    format: str | None = None
    records_read: int = 0
    records_loaded: int = 0  # equals rows_loaded unless a parser's record spans several rows (Batch.records)
    rows_loaded: int = 0
    rows_rejected: int = 0
    rows_skipped: int = 0
    error: str | None = None
    messages: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status in ("loaded", "duplicate")


def _one(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> tuple | None:
    """First row or None. fetchall, not fetchone: DuckDB 2 refuses new work on a connection whose
    previous result was not read to the end."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


def sha256_of(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def _writer_config() -> dict:
    # DuckDB's default memory limit is 80 % of RAM; ingest streams, so a bounded buffer pool keeps the
    # peak memory of a large file flat (DuckDB spills and evicts instead of caching everything).
    return {"memory_limit": os.environ.get("PERFDB_MEMORY_LIMIT", "512MB")}


def connect(home: Home) -> duckdb.DuckDBPyConnection:
    home.create()
    con = duckdb.connect(str(home.db_path), config=_writer_config())
    con.execute(MANIFEST_DDL)
    return con


def connect_serving(home: Home) -> duckdb.DuckDBPyConnection:
    """Read-only, no file or network access: what every reader of the published warehouse uses."""
    if not home.serving_path.exists():
        raise FileNotFoundError(
            f"{home.serving_path} does not exist yet: run `perfdb run` (or ingest, build, publish) first"
        )
    return duckdb.connect(
        str(home.serving_path),
        read_only=True,
        config={"enable_external_access": False},
    )


def _duck_type(arrow_type: pa.DataType) -> str:
    # Only needed for columns added to an existing table (a CSV header with a new column).
    if pa.types.is_null(arrow_type) or pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return "varchar"
    if pa.types.is_boolean(arrow_type):
        return "boolean"
    if pa.types.is_integer(arrow_type):
        return "bigint"
    if pa.types.is_floating(arrow_type):
        return "double"
    if pa.types.is_timestamp(arrow_type):
        return "timestamp"
    if pa.types.is_date(arrow_type):
        return "date"
    if pa.types.is_binary(arrow_type) or pa.types.is_large_binary(arrow_type):
        return "blob"
    return "varchar"


class _StagedBatches:
    """A file's batches, held until its transaction: in memory up to ``budget`` bytes, then as Parquet
    parts in ``directory``.

    DuckDB holds every row inserted in an open transaction in memory until the commit, so inserting a
    large file batch by batch inside its one transaction would grow with the file. Spilled batches are
    inserted part by part with ``insert ... select from read_parquet``, which stays within DuckDB's
    buffer-pool limit; small files skip the Parquet round trip."""

    def __init__(self, directory: Path, budget: int):
        self.directory = directory
        self.budget = budget
        self.parts: list[tuple[str, pa.Table | Path, pa.Schema]] = []  # (raw table, batch or part file, schema)
        self.held_bytes = 0  # in memory
        self.spilled_bytes = 0  # in Parquet parts
        self._writers: dict[str, tuple[pq.ParquetWriter, pa.Schema]] = {}

    def add(self, table: str, rows: pa.Table) -> None:
        # all-null columns have Arrow type null, which DuckDB cannot store: make them text
        for i, f in enumerate(rows.schema):
            if pa.types.is_null(f.type):
                rows = rows.set_column(i, f.name, rows.column(i).cast(pa.string()))
        if self.spilled_bytes:
            self._write(table, rows)
            return
        self.parts.append((table, rows, rows.schema))
        self.held_bytes += rows.nbytes
        if self.held_bytes > self.budget:
            held, self.parts, self.held_bytes = self.parts, [], 0
            self.directory.mkdir(exist_ok=True)
            for held_table, held_rows, _ in held:
                self._write(held_table, held_rows)

    def _write(self, table: str, rows: pa.Table) -> None:
        open_writer = self._writers.get(table)
        if open_writer is None or open_writer[1] != rows.schema:  # a column appeared: a new part
            if open_writer is not None:
                open_writer[0].close()
            path = self.directory / f"{len(self.parts):05d}.parquet"
            open_writer = self._writers[table] = (pq.ParquetWriter(path, rows.schema, compression="none"), rows.schema)
            self.parts.append((table, path, rows.schema))
        open_writer[0].write_table(rows)
        self.spilled_bytes += rows.nbytes

    def close(self) -> None:
        for writer, _ in self._writers.values():
            writer.close()
        self._writers = {}

    def remove(self) -> None:
        self.close()
        self.parts = []
        shutil.rmtree(self.directory, ignore_errors=True)


class _TableWriter:
    """Appends staged batches or Parquet parts to raw tables, creating them or adding columns as needed."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self.columns: dict[str, set[str]] = {}
        for table, column in con.execute(
            "select table_name, column_name from duckdb_columns() where schema_name = 'raw' and database_name = current_database()"
        ).fetchall():
            self.columns.setdefault(table, set()).add(column)

    def append(self, table: str, part: pa.Table | Path, schema: pa.Schema, file_id: int) -> None:
        if isinstance(part, Path):
            self._append(table, f"read_parquet('{_sql_string(part)}')", schema, file_id)
            return
        # not unregistered on error: the transaction is aborted by then, and the next register replaces it
        self.con.register("_perfdb_batch", part)
        self._append(table, "_perfdb_batch", schema, file_id)
        self.con.unregister("_perfdb_batch")

    def _append(self, table: str, relation: str, schema: pa.Schema, file_id: int) -> None:
        source = f"select *, {int(file_id)}::bigint as source_file_id from {relation}"
        existing = self.columns.get(table)
        if existing is None:
            self.con.execute(f'create table raw."{table}" as {source}')
            self.columns[table] = set(schema.names) | {"source_file_id"}
            return
        for f in schema:
            if f.name not in existing:
                self.con.execute(f'alter table raw."{table}" add column "{f.name}" {_duck_type(f.type)}')
                existing.add(f.name)
        self.con.execute(f'insert into raw."{table}" by name {source}')


def _sql_string(path: Path) -> str:
    return str(path).replace("'", "''")


def _write_rejects(con: duckdb.DuckDBPyConnection, file_id: int, path: Path, ctx: ParseContext) -> None:
    if not ctx.rejects:
        return
    table = pa.table(
        {
            "file_id": pa.array([file_id] * len(ctx.rejects), pa.int64()),
            "path": pa.array([str(path)] * len(ctx.rejects), pa.string()),
            "byte_offset": pa.array([r.offset for r in ctx.rejects], pa.int64()),
            "line_number": pa.array([r.line for r in ctx.rejects], pa.int64()),
            "record_ordinal": pa.array([r.record_ordinal for r in ctx.rejects], pa.int64()),
            "reason": pa.array([r.reason for r in ctx.rejects], pa.string()),
            "raw_bytes": pa.array([r.raw for r in ctx.rejects], pa.binary()),
        }
    )
    con.register("_perfdb_rejects", table)
    con.execute("insert into raw.rejects by name select * from _perfdb_rejects")
    con.unregister("_perfdb_rejects")


def _manifest(con, file_id, sha, path, size, result: FileResult, parser: Parser | None) -> None:
    con.execute(
        """insert into raw.ingest_files (file_id, sha256, path, file_name, size_bytes, format, parser_version,
               records_read, records_loaded, rows_loaded, rows_rejected, rows_skipped, status, error)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            file_id, sha, str(path), path.name, size,
            parser.format if parser else None, parser.version if parser else None,
            result.records_read, result.records_loaded, result.rows_loaded, result.rows_rejected, result.rows_skipped,
            result.status, result.error,
        ],
    )


def describe_reject(path: Path, r) -> str:
    where = f"line {r.line}" if r.line is not None else (f"offset {r.offset}" if r.offset is not None else "?")
    return f"{path}: {where}: {r.reason}"


# Batches a run holds in memory: those of a group's files together, the file being parsed included; the
# rest is spilled to Parquet. The peak memory of an ingest depends on this, not on the size of the files.
HELD_BYTES = 128 * 1024 * 1024


@dataclass
class _ParsedFile:
    """A file parsed and accounted for, its batches staged, waiting for its group's transaction."""

    path: Path
    sha: str
    size: int
    parser: Parser
    ctx: ParseContext
    result: FileResult
    staged: _StagedBatches
    retry: bool  # a failed earlier attempt: its manifest row and rejects are replaced


@dataclass
class _Failure:
    """A file that cannot load: recorded (manifest row, reject) once the files before it are committed."""

    path: Path
    sha: str
    size: int
    parser: Parser | None
    status: str  # rejected | failed
    message: str
    offset: int | None = None
    line: int | None = None
    head: bytes = b""

    def record(self, con) -> FileResult:
        """The manifest row (replacing a failed earlier attempt's) and, for a rejected file, its reject."""
        result = FileResult(self.path, self.status, format=self.parser.format if self.parser else None, error=self.message)
        result.rows_rejected = 1 if self.status == "rejected" else 0
        result.records_read = result.rows_rejected
        result.messages = [f"{self.path}: {self.message}"]
        con.begin()
        con.execute("delete from raw.ingest_files where sha256 = ?", [self.sha])
        file_id = _one(con, "select nextval('raw.ingest_file_id_seq')")[0]
        if self.status == "rejected":
            ctx = ParseContext(path=self.path)
            # the whole file is the rejected record; keep its first bytes for diagnosis
            ctx.reject(self.message, self.head[:4096], offset=self.offset, line=self.line)
            _write_rejects(con, file_id, self.path, ctx)
        _manifest(con, file_id, self.sha, self.path, self.size, result, self.parser)
        con.commit()
        return result


class _Group:
    """Parsed files that commit together.

    Each file is still all-or-nothing: it is parsed, checked and accounted for completely before any of it
    is written, and its rows, rejects and manifest row are in one transaction. Committing many small files
    in one transaction is for speed: DuckDB writes an append of a full row group (122,880 rows) or more
    straight into the database file, compressed, while smaller appends go through the write-ahead log and
    are compressed again at the next checkpoint. Per file, that commit cost more than the parse."""

    COMMIT_BYTES = 512 * 1024 * 1024  # commit once the files hold this much, in memory and spilled

    def __init__(self):
        self.files: list[_ParsedFile] = []
        self.shas: set[str] = set()

    def add(self, parsed: _ParsedFile) -> None:
        self.files.append(parsed)
        self.shas.add(parsed.sha)

    @property
    def held_bytes(self) -> int:
        return sum(f.staged.held_bytes for f in self.files)

    @property
    def full(self) -> bool:
        return sum(f.staged.held_bytes + f.staged.spilled_bytes for f in self.files) >= self.COMMIT_BYTES


def ingest_file(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    *,
    format_name: str | None = None,
    options: dict | None = None,
) -> FileResult:
    """Load one file in one transaction. Never raises for bad input: the result says what happened."""
    return next(ingest_files(con, [path], format_name=format_name, options=options))


def ingest_files(
    con: duckdb.DuckDBPyConnection,
    paths: list[Path],
    *,
    format_name: str | None = None,
    options: dict | None = None,
) -> Iterator[FileResult]:
    """Load files, each all-or-nothing, small ones several to a transaction (``_Group``). Yields each file's
    result in the order given, once it is committed. Never raises for bad input."""
    with tempfile.TemporaryDirectory(prefix="perfdb-ingest-", dir=_staging_dir(con)) as staging:
        group = _Group()
        for k, path in enumerate(paths):
            staged = _StagedBatches(Path(staging) / f"{k:06d}", budget=max(0, HELD_BYTES - group.held_bytes))
            outcome = _parse_file(con, Path(path), staged, format_name, options, group.shas)
            if isinstance(outcome, _ParsedFile):
                group.add(outcome)
                if group.full:
                    yield from _commit(con, group.files)
                    group = _Group()
                continue
            # a duplicate or a file that cannot load: the files before it are committed first, so that
            # results and file ids keep the order given
            yield from _commit(con, group.files)
            group = _Group()
            yield outcome.record(con) if isinstance(outcome, _Failure) else outcome
        yield from _commit(con, group.files)


def _parse_file(con, path: Path, staged: _StagedBatches, format_name, options, pending: set[str]):
    """The file parsed into ``staged``: a ``_ParsedFile``, a ``_Failure``, or a duplicate's ``FileResult``."""
    sha, size = sha256_of(path)
    previous = _one(con, "select status from raw.ingest_files where sha256 = ?", [sha])
    if sha in pending or (previous and previous[0] != "failed"):
        return FileResult(path, "duplicate", messages=[f"{path}: already ingested (same sha256), nothing added"])

    with path.open("rb") as f:
        head = f.read(registry.SNIFF_BYTES)
    parser = registry.by_format(format_name) if format_name else registry.sniff(head, path.name)
    ctx = ParseContext(path=path, options=dict(options or {}))
    result = FileResult(path, "loaded", format=parser.format if parser else None)
    try:
        if size == 0:
            raise FormatError("empty file: expected at least one record")
        if parser is None:
            known = ", ".join(p.format for p in registry.all_parsers())
            raise FormatError(f"unrecognised format: the content matches none of the known formats ({known})")
        try:
            for batch in parser.parse(path, ctx):
                n = batch.rows.num_rows
                if n == 0:
                    continue
                if n > BATCH_ROWS * 4:
                    raise RuntimeError(f"parser {parser.format} yielded a batch of {n} rows; stream smaller batches")
                staged.add(batch.table, batch.rows)
                if batch.skipped:
                    result.rows_skipped += n
                else:
                    result.rows_loaded += n
                    result.records_loaded += n if batch.records is None else batch.records
        finally:
            staged.close()
        result.records_read = ctx.records_read
        result.rows_rejected = len(ctx.rejects)
        accounted = result.records_loaded + result.rows_rejected + result.rows_skipped
        if accounted != result.records_read:
            raise RuntimeError(
                f"accounting mismatch: {result.records_read} records read but {result.records_loaded} loaded + "
                f"{result.rows_rejected} rejected + {result.rows_skipped} skipped = {accounted}"
            )
    except FormatError as e:
        staged.remove()
        return _Failure(path, sha, size, parser, "rejected", f"{e} (at {e.position()})", e.offset, e.line, head)
    except Exception as e:  # a parser bug must not take the batch down: keep the file's story, go on
        staged.remove()
        return _Failure(path, sha, size, parser, "failed", f"{type(e).__name__}: {e}")
    if result.rows_rejected:
        # nothing of the file kept but its rejects: the file is rejected, not loaded with 0 records
        result.status = "loaded_with_rejects" if result.records_loaded or result.rows_skipped else "rejected"
        result.messages = [describe_reject(path, r) for r in ctx.rejects]
    return _ParsedFile(path, sha, size, parser, ctx, result, staged, retry=previous is not None)


def _commit(con, files: list[_ParsedFile]) -> Iterator[FileResult]:
    """One transaction for ``files``. If it fails (a disc error, a column type a file contradicts), each
    file is tried again on its own, so that only the file at fault fails."""
    if not files:
        return
    try:
        con.begin()
        writer = _TableWriter(con)
        for parsed in files:
            _write(con, writer, parsed)
        con.commit()
    except Exception as e:
        con.rollback()
        if len(files) > 1:
            for parsed in files:
                yield from _commit(con, [parsed])
            return
        parsed = files[0]
        parsed.staged.remove()
        yield _Failure(parsed.path, parsed.sha, parsed.size, parsed.parser, "failed", f"{type(e).__name__}: {e}").record(con)
        return
    for parsed in files:
        parsed.staged.remove()
        yield parsed.result


def _write(con, writer: _TableWriter, parsed: _ParsedFile) -> None:
    if parsed.retry:  # a failed earlier attempt is retried; its manifest row is replaced
        con.execute("delete from raw.rejects where file_id in (select file_id from raw.ingest_files where sha256 = ?)", [parsed.sha])
        con.execute("delete from raw.ingest_files where sha256 = ?", [parsed.sha])
    file_id = _one(con, "select nextval('raw.ingest_file_id_seq')")[0]
    for table, part, schema in parsed.staged.parts:
        writer.append(table, part, schema, file_id)
    _write_rejects(con, file_id, parsed.path, parsed.ctx)
    _manifest(con, file_id, parsed.sha, parsed.path, parsed.size, parsed.result, parsed.parser)


def _staging_dir(con: duckdb.DuckDBPyConnection) -> str | None:
    """Beside the database file (same disc as the data it will hold); the system's temp dir for :memory:."""
    row = _one(con, "select path from duckdb_databases() where database_name = current_database()")
    return str(Path(row[0]).parent) if row and row[0] else None


def remove_files(con: duckdb.DuckDBPyConnection, *, file_ids=(), paths=()) -> list[dict]:
    """Un-ingest files: every raw row they loaded, their rejects and their manifest rows, in one
    transaction. A path names a file by its content (sha256) while it exists, else by the path the
    manifest recorded. Returns one dict per file removed (file_id, path, rows); run ``perfdb build``
    afterwards so that the models forget it too."""
    wanted = set(int(i) for i in file_ids)
    for path in map(Path, paths):
        if path.is_file():
            rows = con.execute("select file_id from raw.ingest_files where sha256 = ?", [sha256_of(path)[0]]).fetchall()
        else:
            rows = con.execute(
                "select file_id from raw.ingest_files where path in (?, ?)", [str(path), str(path.resolve())]
            ).fetchall()
        wanted.update(r[0] for r in rows)
    if not wanted:
        return []
    ids = sorted(wanted)
    tables = [r[0] for r in con.execute(
        "select table_name from duckdb_columns() where schema_name = 'raw' and column_name = 'source_file_id' "
        "and database_name = current_database() order by 1"
    ).fetchall()]
    removed = {i: 0 for i in ids}
    con.begin()
    try:
        for table in tables:
            for file_id, n in con.execute(
                f'select source_file_id, count(*) from raw."{table}" where source_file_id in (select unnest(?)) group by 1',
                [ids],
            ).fetchall():
                removed[file_id] += n
            con.execute(f'delete from raw."{table}" where source_file_id in (select unnest(?))', [ids])
        con.execute("delete from raw.rejects where file_id in (select unnest(?))", [ids])
        manifest = con.execute(
            "delete from raw.ingest_files where file_id in (select unnest(?)) returning file_id, path", [ids]
        ).fetchall()
        con.commit()
    except Exception:
        con.rollback()
        raise
    return [{"file_id": i, "path": path, "rows": removed[i]} for i, path in sorted(manifest)]


def iter_input_files(paths: list[Path]) -> list[Path]:
    """Files named, and every file below directories named, in a stable order; hidden files skipped."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(
                sorted(f for f in p.rglob("*") if f.is_file() and not any(part.startswith(".") for part in f.relative_to(p).parts))
            )
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    return out


def publish(home: Home) -> Path:
    """Copy the built database next to the serving file, then rename it over in one step."""
    if not home.db_path.exists():
        raise FileNotFoundError(f"{home.db_path} does not exist: nothing to publish (run ingest and build first)")
    con = duckdb.connect(str(home.db_path), config=_writer_config())
    con.execute("checkpoint")
    con.close()
    tmp = home.serving_path.with_name(home.serving_path.name + ".new")
    shutil.copyfile(home.db_path, tmp)
    with tmp.open("rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, home.serving_path)
    return home.serving_path
