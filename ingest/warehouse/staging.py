"""How a file's parsed batches reach the raw tables: held in memory or spilled to Parquet until the
file's transaction, then appended to ``raw.<table>`` with the file's id.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq


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


class StagedBatches:
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


class TableWriter:
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
