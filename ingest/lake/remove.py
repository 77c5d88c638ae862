"""``perfdb remove --target spark``: files taken back out of the lake, as ``perfdb remove`` takes them out of
the DuckDB warehouse (``ingest.warehouse.database.remove_files``): to load a corrected file, or to resolve a
conflict between two copies of the same measurements by removing the wrong one.

A file's pieces are named after its sha256 (``lake.writer``): its raw rows ``<sha[:32]>-<n>.parquet`` in the
partitions of the tables it wrote, its rejects, days, copies and manifest row ``<sha>.parquet``, and its
claim ``_claims/<sha>``. They go in that order, the manifest row and the claim last: a removal cut short
leaves the file listed, and removing it again finishes the job. The copies other files record of it go
too (a conflict is resolved by removing either copy). Spark builds rebuild every day from the lake, so no
removed days need keeping for the next build.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import duckdb
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ingest.intake.identity import identify
from ingest.lake.layout import Lake


def remove_files(lake: Lake, *, file_ids=(), paths=()) -> list[dict]:
    """Un-ingest files from the lake; one dict per file removed (file_id, path, rows)."""
    if not any(lake.manifest_dir.glob("*.parquet")):
        return []
    con = duckdb.connect()
    manifest = f"read_parquet('{str(lake.manifest_dir).replace(chr(39), chr(39) * 2)}/*.parquet')"
    wanted: dict[int, tuple[str, str]] = {}
    ids = set(map(int, file_ids))
    # a path names a file by its identity while it exists, else by the path the manifest recorded
    named = [(identify(p)[0], None) if p.is_file() else (None, p) for p in map(Path, paths)]
    for file_id, sha, path in con.execute(f"select file_id, sha256, path from {manifest}").fetchall():
        if file_id in ids or any(
                sha == s if s is not None else path in (str(p), str(p.resolve())) for s, p in named):
            wanted[file_id] = (sha, path)
    removed = []
    for file_id, (sha, path) in sorted(wanted.items()):
        parts = list(lake.raw.glob(f"*/*/*/{sha[:32]}-*.parquet"))
        rows = sum(pq.read_metadata(part).num_rows for part in parts)
        for part in parts:
            part.unlink()
        _forget_copies_of(lake, file_id)
        for folder in (lake.rejects_dir, lake.file_days_dir, lake.key_conflicts_dir, lake.manifest_dir):
            (folder / f"{sha}.parquet").unlink(missing_ok=True)
        (lake.claims_dir / sha).unlink(missing_ok=True)
        removed.append({"file_id": file_id, "path": path, "rows": rows})
    return removed


def _forget_copies_of(lake: Lake, file_id: int) -> None:
    """The rows other files' copies record of ``file_id`` taken out of their ``key_conflicts`` files."""
    for part in lake.key_conflicts_dir.glob("*.parquet"):
        rows = pq.read_table(part)
        kept = rows.filter(pc.not_equal(rows.column("other_file_id"), file_id))
        if kept.num_rows < rows.num_rows:
            tmp = lake.staging_dir / f"{part.stem}-copies-{uuid.uuid4().hex}.parquet"
            lake.staging_dir.mkdir(parents=True, exist_ok=True)
            pq.write_table(kept, tmp)
            os.replace(tmp, part)
