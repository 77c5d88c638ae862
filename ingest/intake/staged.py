"""A file's parsed batches, staged until its target writes them: held in memory, or spilled to Parquet.

The one budget of a run (``HELD_BYTES``) bounds what is held; the rest waits in Parquet parts. The DuckDB
loader appends the parts in the file's transaction (``ingest.warehouse.staging``), a Spark task lays them
into the lake (``ingest.lake.writer``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ingest import raw_tables
from ingest.formats.base import RawTable
from ingest.intake import plausibility

# Batches a run holds in memory: those of a group's files together, the file being parsed included; the
# rest is spilled to Parquet. The peak memory of an ingest depends on this, not on the size of the files.
HELD_BYTES = 128 * 1024 * 1024


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
        self.parts: list[tuple[RawTable, pa.Table | Path, pa.Schema]] = []  # (raw table, batch or part file, schema)
        self.held_bytes = 0  # in memory
        self.spilled_bytes = 0  # in Parquet parts
        self._writers: dict[str, tuple[pq.ParquetWriter, pa.Schema]] = {}

    def add(self, table: RawTable, rows: pa.Table) -> None:
        rows = raw_tables.conform(table, rows)
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

    def _write(self, table: RawTable, rows: pa.Table) -> None:
        open_writer = self._writers.get(table.name)
        if open_writer is None or open_writer[1] != rows.schema:  # a column appeared: a new part
            if open_writer is not None:
                open_writer[0].close()
            path = self.directory / f"{len(self.parts):05d}.parquet"
            open_writer = self._writers[table.name] = (pq.ParquetWriter(path, rows.schema, compression="none"), rows.schema)
            self.parts.append((table, path, rows.schema))
        open_writer[0].write_table(rows)
        self.spilled_bytes += rows.nbytes

    def drop_records(self, rejected: dict) -> int:
        """Rows of records rejected after they were staged (a record whose later rows were implausible)
        taken out again; returns how many. Rare, so a spilled part is simply read and written anew."""
        self.close()
        dropped = 0
        for k, (table, part, schema) in enumerate(self.parts):
            if not table.per_record:
                continue
            rows = pq.read_table(part) if isinstance(part, Path) else part
            kept = plausibility.drop_records(rows, rejected)
            if kept.num_rows == rows.num_rows:
                continue
            dropped += rows.num_rows - kept.num_rows
            if isinstance(part, Path):
                pq.write_table(kept, part, compression="none")
            else:
                self.parts[k] = (table, kept, schema)
                self.held_bytes += kept.nbytes - rows.nbytes
        return dropped

    def close(self) -> None:
        for writer, _ in self._writers.values():
            writer.close()
        self._writers = {}

    def remove(self) -> None:
        self.close()
        self.parts = []
        shutil.rmtree(self.directory, ignore_errors=True)
