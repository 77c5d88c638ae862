"""The lake, as a DuckDB file that the checks validate and ``publish`` serves.

dbt-spark writes every table as Parquet under the lake's warehouse (``<lake>/warehouse/<schema>.db/<table>/``).
``copy_built`` reads the seeds, intermediate and mart tables from there, and the raw tables, the manifest
and the rejects from the lake's raw layer, into a fresh ``warehouse/perfdb_spark.duckdb`` (renamed into
place when complete): the same relations the DuckDB path's database has, so the same suites run and
readers find what they find after a DuckDB build.
``SparkHome`` is the home whose built database is that file: ``quality.runner.validate_warehouse`` and
``warehouse.serving.publish`` take it as they take a ``Home``, so the Spark path is checked and published
by the same code, and a failing check leaves ``serving.duckdb`` as it was.

Spark writes its session-time-zone timestamps as UTC instants; they are stored as plain timestamps here
(the session time zone is UTC), as the DuckDB path stores them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest import raw_tables
from ingest.home import Home
from ingest.lake.layout import Lake
from ingest.warehouse.database import MANIFEST_DDL

BUILT_SCHEMAS = ("seeds", "intermediate", "marts")


@dataclass(frozen=True)
class SparkHome(Home):
    """A home whose built database is the copy of what Spark built."""

    @property
    def db_path(self) -> Path:
        return self.warehouse_dir / "perfdb_spark.duckdb"


def built_tables(lake: Lake) -> list[tuple[str, str, Path]]:
    """(schema, table, folder) of every table dbt built on Spark, in a stable order."""
    found = []
    for schema in BUILT_SCHEMAS:
        for folder in sorted((lake.warehouse / f"{schema}.db").glob("*")):
            if folder.is_dir() and any(folder.glob("*.parquet")):
                found.append((schema, folder.name, folder))
    return found


def copy_built(home: SparkHome, lake: Lake) -> Path:
    """A fresh ``home.db_path`` holding the Spark-built tables, the manifest (with each file's days) and the
    rejects, and the check history of the copy it replaces: what the last passing check saw is where the
    next check's slice starts (``quality/slice.py``)."""
    tmp = home.db_path.with_name(home.db_path.name + ".new")
    tmp.unlink(missing_ok=True)
    con = duckdb.connect(str(tmp))
    try:
        con.execute("set TimeZone = 'UTC'")
        con.execute(MANIFEST_DDL)  # the manifest tables, filled from the lake below
        raw_tables.ensure_raw_tables(con)  # every declared raw table, filled from the lake where it has files
        manifest = {folder.name for folder in lake.manifest_dirs}
        for folder in sorted(lake.raw.glob("*")) if lake.raw.is_dir() else ():
            if any(folder.rglob("*.parquet")):
                if folder.name in manifest:
                    con.execute(f"insert into raw.{folder.name} by name select * from {_parquet(f'{folder}/*.parquet')}")
                else:
                    _append_raw(con, folder)
        for schema, table, folder in built_tables(lake):
            _copy(con, schema, table, f"{folder}/*.parquet")
        if home.db_path.exists():
            _keep_check_history(con, home.db_path)
        con.execute("checkpoint")
    finally:
        con.close()
    os.replace(tmp, home.db_path)
    return home.db_path


def _keep_check_history(con: duckdb.DuckDBPyConnection, previous: Path) -> None:
    con.execute(f"attach '{str(previous).replace(chr(39), chr(39) * 2)}' as previous (read_only)")
    try:
        for (table,) in con.execute("select table_name from duckdb_tables() where database_name = 'previous' "
                                    "and schema_name = 'audit' and table_name like 'validation%'").fetchall():
            con.execute("create schema if not exists audit")
            con.execute(f"create table audit.{table} as select * from previous.audit.{table}")
    finally:
        con.execute("detach previous")


def _parquet(files: str) -> str:
    return f"read_parquet('{files.replace(chr(39), chr(39) * 2)}')"


def _append_raw(con: duckdb.DuckDBPyConnection, folder: Path) -> None:
    """A raw table's Parquet files appended to ``raw.<table>`` by column name; the partition columns (system,
    day) are not read: they repeat the placement columns."""
    source = "read_parquet('{}', hive_partitioning = false, union_by_name = true)".format(
        f"{folder}/**/*.parquet".replace("'", "''"))
    have = raw_tables.existing_columns(con).get(folder.name, set())
    for name, kind in con.execute(f"select column_name, column_type from (describe select * from {source})").fetchall():
        if name not in have:  # an open table's columns beyond its declaration, as files brought them
            con.execute(f'alter table raw.{folder.name} add column "{name}" {kind}')
    con.execute(f"insert into raw.{folder.name} by name select * from {source}")


def _copy(con: duckdb.DuckDBPyConnection, schema: str, table: str, files: str) -> None:
    con.execute(f"create schema if not exists {schema}")
    source = _parquet(files)
    columns = con.execute(f"select column_name, column_type from (describe select * from {source})").fetchall()
    # quoted: a Spark column may be named by a DuckDB keyword (this SQL runs on DuckDB only)
    select = ", ".join(
        f'cast("{name}" as timestamp) as "{name}"' if kind == "TIMESTAMP WITH TIME ZONE" else f'"{name}"'
        for name, kind in columns
    )
    con.execute(f"create table {schema}.{table} as select {select} from {source}")
