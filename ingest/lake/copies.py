"""Copies of the same measurements in two files of the lake, found when the Spark job that loaded the later
one has finished: the rule of ``ingest.intake.copies`` (a duplicate when every value both rows hold is
the same, a conflict when one differs), run by the same code on the same SQL.

The tasks write their files independently, so two copies loaded in one job cannot see each other while they
load. The driver therefore compares, once the job is done, each file the job loaded with the files loaded
before it (smaller ids: earlier jobs, and earlier files of this job's listing), in id order, as the DuckDB
path does file by file. It reads only what a comparison needs: the manifest and the file days, then for a
file that shares a (system, day) with another, the partitions of those days of the tables it wrote, as
views over their Parquet files in an in-memory DuckDB. A file of new days, the common case, reads no rows.

What it finds goes to ``<lake>/raw/key_conflicts/<sha256>.parquet``, written for every file compared (most
hold no row; the file marks the comparison done), read as ``raw.key_conflicts`` on Spark, in the checked
copy and in ``marts.rpt_key_conflicts``, and on the file's result: a conflicting copy makes the ingest fail
and ``perfdb check`` fail, as on DuckDB. Two jobs running at once each compare their files with what had
landed when they finished: a copy in each of them, the later-numbered file's job finishing first, goes
unseen (one job a night, as the nightly run starts it, has no such pair).
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from ingest.formats import registry
from ingest.formats.base import RawTable
from ingest.formats.duck_types import duck_type
from ingest.lake.layout import Lake
from ingest.intake import copies
from ingest.warehouse.database import MANIFEST_DDL


def find(lake: Lake) -> dict[int, list[copies.Copies]]:
    """file id -> the copies of its rows in earlier files, for every loaded file not compared yet; each file's
    copies written to the lake, none or some, which marks it compared: a driver killed before it compared
    the job's files leaves them to the next job's."""
    con = duckdb.connect()
    try:
        con.execute("set TimeZone = 'UTC'")
        con.execute(MANIFEST_DDL)
        for table, folder in (("ingest_files", lake.manifest_dir), ("ingest_file_days", lake.file_days_dir)):
            if any(folder.glob("*.parquet")):
                con.execute(f"insert into raw.{table} by name select * from {_parquet([folder / '*.parquet'])}")
        compared = {p.stem for p in lake.key_conflicts_dir.glob("*.parquet")}
        loaded = [(file_id, sha) for file_id, sha in con.execute(
            "select file_id, sha256 from raw.ingest_files where status in ('loaded', 'loaded_with_rejects') "
            "order by file_id").fetchall() if sha not in compared]
        comparable = [t for t in registry.raw_tables().values() if copies.comparable(t)]
        found = {}
        for file_id, sha in loaded:
            days = con.execute(
                "select distinct mine.system_name, cast(mine.day as varchar) from raw.ingest_file_days as mine "
                "inner join raw.ingest_file_days as others on others.system_name = mine.system_name "
                "and others.day = mine.day where mine.source_file_id = ? and others.source_file_id < ?",
                [file_id, file_id]).fetchall()
            tables = [t for t in comparable if days and _view(con, lake, t, sha, days)]
            found[file_id] = copies.find(con, file_id, tables) if tables else []
            _write(con, lake, file_id, sha)
        return found
    finally:
        con.close()


def _view(con: duckdb.DuckDBPyConnection, lake: Lake, table: RawTable, sha: str, days) -> bool:
    """``raw.<table>`` as a view over the table's Parquet files of ``days``, when the file ``sha`` wrote
    rows there; its declared columns, NULL where no file holds one (an optional item)."""
    files = [part for system, day in days for part in lake.partition_dir(table.name, system, day).glob("*.parquet")]
    if not any(part.name.startswith(sha[:32]) for part in files):  # the writer's part names (lake.writer)
        return False
    present = {name for part in files for name in pq.read_schema(part).names}
    columns = ", ".join(
        f'"{c.name}"' if c.name in present else f'cast(null as {duck_type(c.type)}) as "{c.name}"'
        for c in table.stored_columns)
    con.execute(f'create or replace view raw."{table.name}" as select {columns} from {_parquet(files)}')
    return True


def _write(con: duckdb.DuckDBPyConnection, lake: Lake, file_id: int, sha: str) -> None:
    """The file's rows of ``raw.key_conflicts`` (none, mostly) as ``<sha256>.parquet``, renamed into place."""
    rows = con.sql(f"select * from raw.key_conflicts where file_id = {int(file_id)}").to_arrow_table()
    lake.staging_dir.mkdir(parents=True, exist_ok=True)
    tmp = lake.staging_dir / f"{sha}-copies-{uuid.uuid4().hex}.parquet"  # two jobs may compare one file at once
    pq.write_table(rows, tmp, coerce_timestamps="us", allow_truncated_timestamps=True)
    lake.key_conflicts_dir.mkdir(parents=True, exist_ok=True)
    os.replace(tmp, lake.key_conflicts_dir / f"{sha}.parquet")


def _parquet(files: list[Path]) -> str:
    listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
    return f"read_parquet([{listed}], hive_partitioning = false, union_by_name = true)"
