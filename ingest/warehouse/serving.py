"""The published warehouse: ``serving.duckdb``, the copy every reader opens read-only.

``serving.duckdb`` is a symbolic link to one of two slots, ``serving-a.duckdb`` and ``serving-b.duckdb``.
``publish`` brings the slot readers do not use up to date with ``perfdb.duckdb``, then points the link at
it with an atomic rename, so a reader sees either the old warehouse or the new one, never half of either
(a reader that opened the old slot keeps reading it). Bringing a slot up to date costs what changed, not
the history: a raw table's rows travel by file (the files loaded or removed since the slot was last
published, and files whose row counts differ, e.g. after retention purged some of their days); every
other table (dbt's models, seeds, the manifest, the audit of checks) and every view is rewritten whole.
A slot that cannot be opened for writing (a reader from two publishes ago still holds it) or does not
exist yet is replaced by a full copy of the warehouse file, as every publish was before.

Readers connect without file or network access, so SQL typed into Superset or ``perfdb sql`` cannot read
the server's files.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ingest import faults
from ingest.home import Home
from ingest.warehouse import lock
from ingest.warehouse.database import writer_config

SLOTS = ("serving-a.duckdb", "serving-b.duckdb")
# Writing a row through DuckDB (compressed again, then checkpointed) costs far more than copying its
# bytes. Measured on a loaded 2-core machine: 76 rebuilt model tables of a 40 MB warehouse took 6-10 s
# to sync against 0.6-0.8 s to copy the file; one week of raw rows (64 000, 3.4 % of an 85 MB raw-only
# warehouse) took 4.7-8 s against 1.1-1.9 s. So a slot is synced only when the rows to rewrite are at most
# this share of the warehouse's rows (one day of a long history), else the file is copied.
SYNC_SHARE = 0.01
BUILT = "built"  # the alias of perfdb.duckdb, attached read-only while a slot is brought up to date


@dataclass
class Published:
    path: Path  # the serving link
    slot: Path  # the file it now points at
    mode: str  # "sync" (what changed) | "copy" (the whole file)
    rows_to_rewrite: int | None = None  # the estimate the choice was made on (None: no slot to sync)
    rows_total: int | None = None
    files_added: int = 0
    files_removed: int = 0
    tables_rewritten: list[str] = field(default_factory=list)


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


def publish(home: Home) -> Path:
    """Bring the slot readers do not use up to date, then point ``serving.duckdb`` at it in one step."""
    return publish_slot(home).path


def publish_slot(home: Home) -> Published:
    if not home.db_path.exists():
        raise FileNotFoundError(f"{home.db_path} does not exist: nothing to publish (run ingest and build first)")
    try:
        con = duckdb.connect(str(home.db_path), config=writer_config())
    except duckdb.IOException as e:
        raise lock.duckdb_busy(e, home.db_path) or e
    con.execute("checkpoint")
    con.close()
    link = home.serving_path
    try:
        return _publish_into_slot(home, link)
    except Exception as e:  # the old serving.duckdb link stays as it was
        raise faults.translate(e, f"publishing {link}") or e


def _publish_into_slot(home: Home, link: Path) -> Published:
    active = os.readlink(link) if link.is_symlink() else None
    slot = link.with_name(SLOTS[1] if active == SLOTS[0] else SLOTS[0])
    result = estimate = None
    if slot.exists():
        try:
            result, estimate = _sync(home.db_path, slot)
        except duckdb.Error:
            slot.unlink()  # held by a reader, or unreadable: an open reader keeps its file, we start afresh
    if result is None:
        _copy(home.db_path, slot)
        result = Published(link, slot, "copy", *(estimate or (None, None)))
    result.path = link
    with slot.open("rb+") as f:
        os.fsync(f.fileno())
    tmp = link.with_name(link.name + lock.HALF_MADE)
    tmp.unlink(missing_ok=True)
    os.symlink(slot.name, tmp)  # relative: the warehouse directory may be mounted elsewhere (Superset's)
    faults.reached("publish_link")
    os.replace(tmp, link)
    _fsync_dir(link.parent)
    return result


def _copy(source: Path, target: Path) -> None:
    tmp = target.with_name(target.name + lock.HALF_MADE)
    try:
        shutil.copyfile(source, tmp)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a full disc leaves no half copy behind
        raise
    faults.reached("publish_copy")
    os.replace(tmp, target)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'  # raw columns such as `index` and `type` are SQL keywords


def _relations(con: duckdb.DuckDBPyConnection, database: str) -> tuple[dict, dict]:
    """Tables (with their column names and types) and views (with their SQL) of one attached database."""
    tables: dict[tuple[str, str], tuple] = {}
    for schema, table, column, dtype in con.execute(
        "select schema_name, table_name, column_name, data_type from duckdb_columns() "
        "where database_name = ? and not internal order by schema_name, table_name, column_index",
        [database],
    ).fetchall():
        tables.setdefault((schema, table), []).append((column, dtype))
    views = {
        (schema, view): sql
        for schema, view, sql in con.execute(
            "select schema_name, view_name, sql from duckdb_views() where database_name = ? and not internal",
            [database],
        ).fetchall()
    }
    return {k: tuple(v) for k, v in tables.items() if k not in views}, views


def _file_counts(con: duckdb.DuckDBPyConnection, relation: str) -> dict[int, int]:
    return dict(con.execute(f"select source_file_id, count(*) from {relation} group by source_file_id").fetchall())


def _manifest(con: duckdb.DuckDBPyConnection, database: str) -> dict[int, tuple]:
    """Each file's manifest row: a file whose row changed (re-sent, purged) travels again."""
    return {row[0]: row[1:] for row in con.execute(
        f"select file_id, sha256, status, rows_loaded from {_q(database)}.raw.ingest_files"
    ).fetchall()}


def _count(con: duckdb.DuckDBPyConnection, relation: str) -> int:
    return con.execute(f"select count(*) from {relation}").fetchone()[0]


def _sync_by_file(con: duckdb.DuckDBPyConnection, name: str, source: str, fresh: list[int], stale: list[int]) -> tuple[int, int]:
    """Rows of ``stale`` files out, rows of ``fresh`` files in (file ids grow, so both scans skip most row
    groups). If the tables still differ in size (rows purged without a manifest change), every file whose
    row count differs travels again; rows without a file are rewritten. Returns (files in, files out)."""
    for pass_ in ("manifest", "counts"):
        if pass_ == "counts":
            want, have = _file_counts(con, source), _file_counts(con, name)
            stale = sorted(f for f, n in have.items() if want.get(f) != n and f is not None)
            fresh = sorted(f for f, n in want.items() if have.get(f) != n and f is not None)
            con.execute(f"delete from {name} where source_file_id is null")
            con.execute(f"insert into {name} select * from {source} where source_file_id is null")
        if stale:
            con.execute(f"delete from {name} where source_file_id in (select unnest(?))", [stale])
        if fresh:
            con.execute(f"insert into {name} select * from {source} where source_file_id in (select unnest(?))", [fresh])
        if _count(con, name) == _count(con, source):
            break
    return len(fresh), len(set(stale) - set(fresh))


def _sizes(con: duckdb.DuckDBPyConnection, database: str) -> dict[tuple[str, str], int]:
    return {(s, t): n for s, t, n in con.execute(
        "select schema_name, table_name, estimated_size from duckdb_tables() where database_name = ?", [database]
    ).fetchall()}


def _sync(built: Path, slot: Path) -> tuple[Published | None, tuple[int, int]]:
    """Brings ``slot`` (a former copy of the warehouse) up to date with ``built``, in one transaction; None
    (nothing changed in the slot) when copying the file is cheaper. Returns it with (rows to rewrite, rows)."""
    con = duckdb.connect(str(slot), config=writer_config())
    try:
        current = con.execute("select current_database()").fetchone()[0]
        con.execute(f"attach '{built}' as {BUILT} (read_only)")
        con.execute("use " + _q(current))  # unqualified names (and the views' SQL) mean the slot
        want_tables, want_views = _relations(con, BUILT)
        have_tables, have_views = _relations(con, current)
        result = Published(slot, slot, "sync")
        by_file = ("raw", "ingest_files") in want_tables and have_tables.get(("raw", "ingest_files")) == want_tables[("raw", "ingest_files")]
        if by_file:
            want_files, have_files = _manifest(con, BUILT), _manifest(con, current)
            fresh = sorted(f for f, row in want_files.items() if have_files.get(f) != row)
            stale = sorted(f for f, row in have_files.items() if want_files.get(f) != row)
        by_file_tables = {
            key for key, columns in want_tables.items()
            if by_file and key[0] == "raw" and columns[0][0] == "source_file_id" and have_tables.get(key) == columns
        }
        sizes = _sizes(con, BUILT)
        estimate = (
            sum(n for key, n in sizes.items() if key in want_tables and key not in by_file_tables)
            + (sum(want_files[f][2] or 0 for f in fresh) if by_file else 0),
            sum(sizes.values()),
        )
        if estimate[0] > SYNC_SHARE * estimate[1]:
            return None, estimate
        result.rows_to_rewrite, result.rows_total = estimate
        con.begin()
        for schema, view in have_views:
            con.execute(f"drop view if exists {_q(schema)}.{_q(view)}")
        for key in set(have_tables) - set(want_tables):
            con.execute(f"drop table {_q(key[0])}.{_q(key[1])}")
        for schema in sorted({s for s, _ in (*want_tables, *want_views)}):
            con.execute(f"create schema if not exists {_q(schema)}")
        for (schema, table), columns in sorted(want_tables.items()):
            name = f"{_q(schema)}.{_q(table)}"
            source = f"{BUILT}.{name}"
            if (schema, table) in by_file_tables:
                added, removed = _sync_by_file(con, name, source, fresh, stale)
                result.files_added, result.files_removed = (max(result.files_added, added),
                                                            max(result.files_removed, removed))
                continue
            con.execute(f"create or replace table {name} as select * from {source}")
            result.tables_rewritten.append(f"{schema}.{table}")
        for sql in want_views.values():
            con.execute(sql)
        con.commit()
        con.execute("checkpoint")
    finally:
        con.close()
    return result, estimate
