"""The writable database, ``warehouse/perfdb.duckdb``: opening it, its manifest and its rejects.

Every file ingest reads gets one row in ``raw.ingest_files`` (keyed by sha256, so the same bytes never
load twice; ``identify``) and each bad record one row in ``raw.rejects``; rows that another file holds
too are counted in ``raw.key_conflicts`` (``copies``); ``remove_files`` takes a file back out.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa

from ingest import raw_tables
from ingest.faults import translate
from ingest.formats.base import Parser, Reject
from ingest.home import Home
from ingest.intake.identity import identify
from ingest.intake.result import FileResult, rejects_by_rule
from ingest.memory import memory_limit
from ingest.warehouse.lock import duckdb_busy

# perfdb's own tables in schema raw, beside the declared raw tables: the manifest, rejects and days
MANIFEST_TABLES = ("ingest_files", "rejects", "ingest_file_days", "removed_file_days", "key_conflicts")

MANIFEST_DDL = """
create schema if not exists raw;
create schema if not exists audit;
create sequence if not exists raw.ingest_file_id_seq start 1;
create table if not exists raw.ingest_files (
    file_id bigint primary key,
    sha256 varchar not null unique,   -- the file's identity (identify): its bytes' sha256, or with its name's time
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
    status varchar not null,          -- loaded | loaded_with_rejects | rejected | failed | purged
    error varchar,
    ingested_at timestamp not null default current_timestamp,
    rejects_by_rule varchar,          -- JSON {rule: rejects}, e.g. {"beyond_rate": 1, "unreadable": 2}; NULL: none
);
-- a warehouse made before the manifest counted rejects by rule
alter table raw.ingest_files add column if not exists rejects_by_rule varchar;
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
-- the (system, day) pairs each file's rows fall in (RawTable.placement): what a build after it rebuilds
create table if not exists raw.ingest_file_days (
    source_file_id bigint not null,
    system_name varchar not null,
    day date not null
);
-- the days of removed files: the next build rebuilds them (dbt's audit.builds says which it has seen)
create table if not exists raw.removed_file_days (
    source_file_id bigint not null,
    system_name varchar not null,
    day date not null,
    removed_at timestamp not null default current_timestamp
);
-- copies of the same measurements in two files (ingest/intake/copies.py): per later file, earlier file,
-- raw table and system, the rows whose natural key both hold, alike (duplicate) or not (conflicting)
create table if not exists raw.key_conflicts (
    file_id bigint not null,          -- the file loaded later
    other_file_id bigint not null,    -- the file loaded earlier: the copy staging keeps (first_copy)
    table_name varchar not null,
    system_name varchar not null,
    first_day date not null,
    last_day date not null,
    duplicate_rows bigint not null,   -- the same key, every value both rows hold the same
    conflicting_rows bigint not null, -- the same key, a value both rows hold differs
    example varchar,                  -- the natural key of one conflicting row, as JSON
    detected_at timestamp not null default current_timestamp
);
"""


def writer_config() -> dict:
    # ingest streams, so a bounded buffer pool keeps the peak memory of a large file flat
    return {"memory_limit": memory_limit()}


def connect(home: Home) -> duckdb.DuckDBPyConnection:
    """The read-write connection of ingest and remove: the home is created, the manifest exists."""
    home.create()
    try:
        con = duckdb.connect(str(home.db_path), config=writer_config())
    except duckdb.IOException as e:  # DuckDB's own lock: a process outside perfdb's lock holds the file
        raise duckdb_busy(e, home.db_path) or e
    con.execute(MANIFEST_DDL)
    raw_tables.ensure_raw_tables(con)  # every raw table exists before its first file: staging always compiles
    return con


def close(con: duckdb.DuckDBPyConnection, doing: str) -> None:
    """Close the writer's connection; its checkpoint writes, so a full disc shows here too (as a fault)."""
    try:
        con.close()
    except Exception as e:
        raise translate(e, doing) or e


def first_row(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> tuple | None:
    """First row or None. fetchall, not fetchone: DuckDB 2 refuses new work on a connection whose
    previous result was not read to the end."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


def next_file_id(con: duckdb.DuckDBPyConnection) -> int:
    return first_row(con, "select nextval('raw.ingest_file_id_seq')")[0]


def record_file(con, file_id: int, sha: str, path: Path, size: int, result: FileResult, parser: Parser | None,
                rejects: list[Reject]) -> None:
    """A file's rejects and its manifest row, inside the caller's transaction."""
    if rejects:
        table = pa.table(
            {
                "file_id": pa.array([file_id] * len(rejects), pa.int64()),
                "path": pa.array([str(path)] * len(rejects), pa.string()),
                "byte_offset": pa.array([r.offset for r in rejects], pa.int64()),
                "line_number": pa.array([r.line for r in rejects], pa.int64()),
                "record_ordinal": pa.array([r.record_ordinal for r in rejects], pa.int64()),
                "reason": pa.array([r.reason for r in rejects], pa.string()),
                "raw_bytes": pa.array([r.raw for r in rejects], pa.binary()),
            }
        )
        con.register("_perfdb_rejects", table)
        con.execute("insert into raw.rejects by name select * from _perfdb_rejects")
        con.unregister("_perfdb_rejects")
    con.execute(
        """insert into raw.ingest_files (file_id, sha256, path, file_name, size_bytes, format, parser_version,
               records_read, records_loaded, rows_loaded, rows_rejected, rows_skipped, status, error, rejects_by_rule)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            file_id, sha, str(path), path.name, size,
            parser.format if parser else None, parser.version if parser else None,
            result.records_read, result.records_loaded, result.rows_loaded, result.rows_rejected, result.rows_skipped,
            result.status, result.error, rejects_by_rule(rejects),
        ],
    )


def record_file_days(con, file_id: int, tables) -> None:
    """The (system, day) pairs of a file's rows, inside the caller's transaction, after its rows: read back
    from the raw tables it wrote (their ``placement`` columns), so that one query per table does it."""
    selects = [
        f"select distinct source_file_id, cast({system} as varchar), cast({time} as date) from raw.{table.name} "
        f"where source_file_id = {int(file_id)} and {system} is not null and {time} is not null"
        for table in {t.name: t for t in tables}.values() if table.placement
        for system, time in [table.placement]
    ]
    if selects:
        con.execute("insert into raw.ingest_file_days (source_file_id, system_name, day) "
                    + " union ".join(selects))


def raw_data_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The raw tables holding files' rows (every one with source_file_id), perfdb's own tables left out."""
    return [r[0] for r in con.execute(
        "select table_name from duckdb_columns() where schema_name = 'raw' and column_name = 'source_file_id' "
        "and database_name = current_database() and table_name not in (select unnest(?)) order by 1", [list(MANIFEST_TABLES)]
    ).fetchall()]


def remove_files(con: duckdb.DuckDBPyConnection, *, file_ids=(), paths=()) -> list[dict]:
    """Un-ingest files: every raw row they loaded, their rejects and their manifest rows, in one
    transaction. A path names a file by its identity (``identify``) while it exists, else by the path the
    manifest recorded. Returns one dict per file removed (file_id, path, rows); its days are kept in
    ``raw.removed_file_days``, so that the next ``perfdb build`` rebuilds them without it; its copies in
    ``raw.key_conflicts`` go (a conflict is resolved by removing either copy)."""
    wanted = set(int(i) for i in file_ids)
    for path in map(Path, paths):
        if path.is_file():
            rows = con.execute("select file_id from raw.ingest_files where sha256 = ?", [identify(path)[0]]).fetchall()
        else:
            rows = con.execute(
                "select file_id from raw.ingest_files where path in (?, ?)", [str(path), str(path.resolve())]
            ).fetchall()
        wanted.update(r[0] for r in rows)
    if not wanted:
        return []
    con.begin()
    try:
        removed = delete_files(con, sorted(wanted))
        con.commit()
    except Exception:
        con.rollback()
        raise
    return removed


def delete_files(con: duckdb.DuckDBPyConnection, ids: list[int]) -> list[dict]:
    """``remove_files`` inside the caller's transaction: the files' raw rows, rejects and manifest rows
    deleted, their days kept for the next build. Returns one dict per file (file_id, path, rows)."""
    tables = raw_data_tables(con)
    removed = {i: 0 for i in ids}
    # the file's days are rebuilt by the next build (a purged file's rows are gone already: none of it)
    con.execute(
        "insert into raw.removed_file_days (source_file_id, system_name, day) "
        "select source_file_id, system_name, day from raw.ingest_file_days where source_file_id in (select unnest(?)) "
        "and source_file_id not in (select file_id from raw.ingest_files where status = 'purged')",
        [ids],
    )
    con.execute("delete from raw.ingest_file_days where source_file_id in (select unnest(?))", [ids])
    for table in tables:
        for file_id, n in con.execute(
            f'select source_file_id, count(*) from raw."{table}" where source_file_id in (select unnest(?)) group by 1',
            [ids],
        ).fetchall():
            removed[file_id] += n
        con.execute(f'delete from raw."{table}" where source_file_id in (select unnest(?))', [ids])
    con.execute("delete from raw.rejects where file_id in (select unnest(?))", [ids])
    # a copy removed resolves its conflicts: the other file's rows are the only ones left
    con.execute("delete from raw.key_conflicts where file_id in (select unnest(?)) or other_file_id in (select unnest(?))",
                [ids, ids])
    manifest = con.execute(
        "delete from raw.ingest_files where file_id in (select unnest(?)) returning file_id, path", [ids]
    ).fetchall()
    return [{"file_id": i, "path": path, "rows": removed[i]} for i, path in sorted(manifest)]
