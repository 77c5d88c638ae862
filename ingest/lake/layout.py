"""Where things are in a lake, and the schemas of its manifest and rejects (the same columns as DuckDB's
``raw.ingest_files`` and ``raw.rejects``).

A raw table's rows are partitioned by system and day, from ``RawTable.placement`` (the system column and
the time column that place a row): ``raw/measure_cpu/system=%5CPROD1/day=2026-01-05/<part>.parquet``.
Partition values are escaped as Spark (Hive) escapes them, so Spark reads ``\\PROD1`` back; a row without
a system or a time goes to Hive's NULL partition.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from ingest.home import Below

PARTITION_COLUMNS = ("system", "day")
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
# the characters Spark's catalog escapes in a partition value (ExternalCatalogUtils.escapePathName)
_ESCAPED = set('"#%\'*/:=?\\{[]^') | {chr(c) for c in range(0x20)} | {"\x7f"}

MANIFEST_SCHEMA = pa.schema([
    ("file_id", pa.int64()),
    ("sha256", pa.string()),
    ("path", pa.string()),
    ("file_name", pa.string()),
    ("size_bytes", pa.int64()),
    ("format", pa.string()),
    ("parser_version", pa.string()),
    ("records_read", pa.int64()),
    ("records_loaded", pa.int64()),  # records read = records loaded + rows rejected + rows skipped
    ("rows_loaded", pa.int64()),
    ("rows_rejected", pa.int64()),
    ("rows_skipped", pa.int64()),
    ("status", pa.string()),  # loaded | loaded_with_rejects | rejected | failed
    ("error", pa.string()),
    ("ingested_at", pa.timestamp("us")),
    ("rejects_by_rule", pa.string()),  # as raw.ingest_files (ingest.warehouse.database.rejects_by_rule)
])

REJECTS_SCHEMA = pa.schema([
    ("file_id", pa.int64()),
    ("path", pa.string()),
    ("byte_offset", pa.int64()),
    ("line_number", pa.int64()),
    ("record_ordinal", pa.int64()),
    ("reason", pa.string()),
    ("raw_bytes", pa.binary()),
    ("rejected_at", pa.timestamp("us")),
])


FILE_DAYS_SCHEMA = pa.schema([
    ("source_file_id", pa.int64()),
    ("system_name", pa.string()),
    ("day", pa.date32()),
])


def escape_partition_value(value: str) -> str:
    return "".join(f"%{ord(ch):02X}" if ch in _ESCAPED else ch for ch in value)


FILES_PER_JOB = 1 << 20


def file_id_of(job_started_ms: int, index: int) -> int:
    """A file's id in the lake: the job's start (ms since 1970) times 2^20, plus the file's position in the
    job's listing. Ids grow with ingestion as the DuckDB path's sequence does, so staging's "the copy
    ingested first" (``first_copy``: by source_file_id, then record) picks the same copy on both paths."""
    if not 0 <= index < FILES_PER_JOB:
        raise ValueError(f"a job takes at most {FILES_PER_JOB} files; split the listing")
    return job_started_ms * FILES_PER_JOB + index


@dataclass(frozen=True)
class Lake:
    root: Path  # a path every executor sees (local, NFS); s3a:// and hdfs:// lakes: docs/scaling_out.md

    @classmethod
    def locate(cls, home_root: Path, uri: str | None = None) -> "Lake":
        """``uri`` (``--lake``), else ``$PERFDB_LAKE``, else ``<home>/lake``; always absolute (Spark's table
        locations must be)."""
        return cls(Path(uri or os.environ.get("PERFDB_LAKE") or home_root / "lake").resolve())

    raw = Below("root", "raw")
    manifest_dir = Below("raw", "ingest_files")
    rejects_dir = Below("raw", "rejects")
    # one file per loaded file: the (system, day) pairs of its rows (the DuckDB path's raw.ingest_file_days)
    file_days_dir = Below("raw", "ingest_file_days")
    # one file per loaded file that holds copies of another file's rows (the DuckDB path's raw.key_conflicts)
    key_conflicts_dir = Below("raw", "key_conflicts")

    @property
    def manifest_dirs(self) -> tuple[Path, ...]:
        """The lake's tables beside the raw data, one Parquet file per loaded file each."""
        return self.manifest_dir, self.rejects_dir, self.file_days_dir, self.key_conflicts_dir

    # one empty file per sha256 being or been loaded: the lock that makes a file load once
    claims_dir = Below("root", "_claims")
    staging_dir = Below("root", "_staging")
    # Spark's warehouse: the tables dbt builds, <schema>.db/<table>/
    warehouse = Below("root", "warehouse")

    def table_dir(self, table: str) -> Path:
        return self.raw / table

    def partition_dir(self, table: str, system: str | None, day: str | None) -> Path:
        parts = [f"{name}={NULL_PARTITION if value is None else escape_partition_value(value)}"
                 for name, value in zip(PARTITION_COLUMNS, (system, day))]
        return self.table_dir(table).joinpath(*parts)
