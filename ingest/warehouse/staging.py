"""How a file's staged batches (``ingest.intake.staged``: in memory or spilled to Parquet) reach the raw
tables in the file's transaction: appended to ``raw.<table>`` with the file's id.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa

from ingest import raw_tables
from ingest.formats.base import RawTable


class TableWriter:
    """Appends staged batches or Parquet parts to raw tables, creating a table from its declaration or adding
    the extra columns of an open one as needed (``raw_tables.make_room``)."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self.columns = raw_tables.existing_columns(con)

    def append(self, table: RawTable, part: pa.Table | Path, schema: pa.Schema, file_id: int) -> None:
        raw_tables.make_room(self.con, table, self.columns, schema)
        if isinstance(part, Path):
            self._append(table.name, f"read_parquet('{_sql_string(part)}')", file_id)
            return
        # not unregistered on error: the transaction is aborted by then, and the next register replaces it
        self.con.register("_perfdb_batch", part)
        self._append(table.name, "_perfdb_batch", file_id)
        self.con.unregister("_perfdb_batch")

    def _append(self, table: str, relation: str, file_id: int) -> None:
        source = f"select *, {int(file_id)}::bigint as source_file_id from {relation}"
        self.con.execute(f'insert into raw."{table}" by name {source}')


def _sql_string(path: Path) -> str:
    return str(path).replace("'", "''")
