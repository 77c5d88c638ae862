"""One parsed file into the lake: its raw rows partitioned by system and day, its rejects, its manifest row.

The file's (system, day) pairs go to ``raw/ingest_file_days/<sha256>.parquet`` (what a sliced check and
a build read to know which days a file touched). Every Parquet file a source file produces is named after its sha256 (``<sha>-<n>.parquet``), written to
``<lake>/_staging/<sha>/`` first and then renamed into place, the manifest row last: a reader that sees
the manifest row sees all of the file's rows, and a retry of the same bytes writes the same names again.
Timestamps are written as microseconds (Spark refuses nanosecond Parquet timestamps).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ingest.formats.base import SOURCE_FILE_ID, RawTable, Reject
from ingest.intake.result import FileResult, rejects_by_rule
from ingest.lake.layout import FILE_DAYS_SCHEMA, MANIFEST_SCHEMA, REJECTS_SCHEMA, Lake

Placement = tuple[str | None, str | None]  # (system, day as yyyy-mm-dd)


def write_file(lake: Lake, sha: str, file_id: int, parts: list[tuple[RawTable, pa.Table | Path]],
               rejects: list[Reject], path: Path, size: int, result: FileResult, parser) -> None:
    """The file's rows, rejects and manifest row, in that order, each Parquet file renamed into place."""
    staging = lake.staging_dir / sha
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    moves: list[tuple[Path, Path]] = []
    placed = [(table, _read(part)) for table, part in parts]
    default = _first_placement(placed)
    days: set[Placement] = set()
    for k, (table, rows) in enumerate(placed):
        rows = _stored(rows, file_id)
        for (system, day), piece in _by_partition(table, rows, default):
            name = f"{sha[:32]}-{k:04d}.parquet"
            tmp = staging / f"{len(moves):05d}.parquet"
            pq.write_table(piece, tmp, coerce_timestamps="us", allow_truncated_timestamps=False)
            moves.append((tmp, lake.partition_dir(table.name, system, day) / name))
            if table.placement is not None and system is not None and day is not None:
                days.add((system, day))
    if days:
        tmp = staging / "file_days.parquet"
        pq.write_table(file_days_table(file_id, days), tmp)
        moves.append((tmp, lake.file_days_dir / f"{sha}.parquet"))
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    if rejects:
        tmp = staging / "rejects.parquet"
        pq.write_table(rejects_table(file_id, path, rejects, now), tmp)
        moves.append((tmp, lake.rejects_dir / f"{sha}.parquet"))
    tmp = staging / "manifest.parquet"
    pq.write_table(manifest_row(file_id, sha, path, size, result, parser, now, rejects), tmp)
    moves.append((tmp, lake.manifest_dir / f"{sha}.parquet"))
    for src, dst in moves:
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
    shutil.rmtree(staging, ignore_errors=True)


def manifest_row(file_id: int, sha: str, path: Path, size: int, result: FileResult, parser, now: dt.datetime,
                 rejects=()) -> pa.Table:
    row = {
        "file_id": file_id, "sha256": sha, "path": str(path), "file_name": path.name, "size_bytes": size,
        "format": parser.format if parser else None, "parser_version": parser.version if parser else None,
        "records_read": result.records_read, "records_loaded": result.records_loaded,
        "rows_loaded": result.rows_loaded, "rows_rejected": result.rows_rejected, "rows_skipped": result.rows_skipped,
        "status": result.status, "error": result.error, "ingested_at": now,
        "rejects_by_rule": rejects_by_rule(list(rejects)),
    }
    return pa.Table.from_pylist([row], schema=MANIFEST_SCHEMA)


def file_days_table(file_id: int, days: set[Placement]) -> pa.Table:
    """The (system, day) pairs of a file's rows, as the DuckDB path's ``raw.ingest_file_days`` holds them."""
    ordered = sorted(days)
    return pa.table({"source_file_id": pa.array([file_id] * len(ordered), pa.int64()),
                     "system_name": pa.array([system for system, _ in ordered], pa.string()),
                     "day": pc.cast(pa.array([day for _, day in ordered], pa.string()), pa.date32())},
                    schema=FILE_DAYS_SCHEMA)


def rejects_table(file_id: int, path: Path, rejects: list[Reject], now: dt.datetime) -> pa.Table:
    return pa.Table.from_pylist([
        {"file_id": file_id, "path": str(path), "byte_offset": r.offset, "line_number": r.line,
         "record_ordinal": r.record_ordinal, "reason": r.reason, "raw_bytes": r.raw, "rejected_at": now}
        for r in rejects
    ], schema=REJECTS_SCHEMA)


def _read(part: pa.Table | Path) -> pa.Table:
    return pq.read_table(part) if isinstance(part, Path) else part


def _stored(rows: pa.Table, file_id: int) -> pa.Table:
    """As the table stores it: ``source_file_id`` first, column names in lower case."""
    rows = rows.add_column(0, SOURCE_FILE_ID.name, pa.array([file_id] * rows.num_rows, SOURCE_FILE_ID.type))
    return rows.rename_columns([name.lower() for name in rows.column_names])


def _keys(table: RawTable, rows: pa.Table) -> tuple[pa.Array, pa.Array] | None:
    """Each row's (system, day) as text, from the table's placement columns; None for a table without one."""
    if table.placement is None:
        return None
    system_column, time_column = table.placement
    system = pc.cast(rows.column(system_column), pa.string())
    day = pc.cast(pc.cast(rows.column(time_column), pa.date32()), pa.string())
    return system, day


def _first_placement(placed: list[tuple[RawTable, pa.Table]]) -> Placement:
    """Where a table without placement of its own goes (command values follow their captures): the first
    placed row of the file; Hive's NULL partition when the file has none."""
    for table, rows in placed:
        keys = _keys(table, rows)
        if keys is not None and rows.num_rows:
            return keys[0][0].as_py(), keys[1][0].as_py()
    return None, None


def _by_partition(table: RawTable, rows: pa.Table, default: Placement):
    keys = _keys(table, rows)
    if keys is None:
        yield default, rows
        return
    pairs = pa.table({"system": keys[0], "day": keys[1]})
    for pair in pairs.group_by(["system", "day"]).aggregate([]).to_pylist():
        mask = pc.and_(_matches(pairs.column("system"), pair["system"]), _matches(pairs.column("day"), pair["day"]))
        yield (pair["system"], pair["day"]), rows.filter(mask)


def _matches(values: pa.ChunkedArray, value) -> pa.ChunkedArray:
    return pc.is_null(values) if value is None else pc.fill_null(pc.equal(values, value), False)
