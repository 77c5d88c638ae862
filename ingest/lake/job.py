"""``perfdb ingest --target spark``: the input files parsed by Spark tasks into the lake.

The driver lists the files and hands their names to Spark; each task loads the files it owns with the
DuckDB path's own code (``database.identify``, ``loading.parse_file``: the same parsers, rejects and
accounting, records read = loaded + rejected + skipped) and writes them with ``writer.write_file``. Only
each file's result (counts, status, messages) comes back to the driver, never its contents.

A file loads once: a task claims its identity (``database.identify``: the sha256 of its bytes) by creating
``<lake>/_claims/<sha256>`` exclusively (atomic on a local or NFS lake), so the same bytes twice, in one job or in two concurrent jobs, load once; the
others are reported as duplicates. A file that failed (a parser bug) gives its claim back and may be
loaded again; a rejected file keeps it, as on the DuckDB path.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ingest.formats.base import FormatError, ParseContext, Reject
from ingest.lake.layout import Lake, file_id_of
from ingest.lake.writer import write_file
from ingest.warehouse.database import FileResult, identify
from ingest.warehouse.loading import HELD_BYTES, iter_input_files, parse_file, text_source, unreadable
from ingest.warehouse.staging import StagedBatches


@dataclass
class JobStats:
    tasks: int  # Spark tasks that ran the parsing
    result_bytes: int  # what the tasks sent back to the driver, in all


def spark_session(master: str, app: str = "perfdb"):
    """A Spark session for ``master``; a local one listens on the loopback only."""
    from pyspark.sql import SparkSession

    # the tasks' Python is this one (with perfdb's dependencies), not whatever `python3` is on PATH
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.master(master).appName(app)
               .config("spark.ui.enabled", "false")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.pyspark.python", sys.executable))
    if master.startswith("local"):
        builder = builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
    return builder.getOrCreate()


def ingest(lake: Lake, paths: list[Path], *, master: str = "local[*]", format_name: str | None = None,
           options: dict | None = None, spark=None) -> tuple[list[FileResult], JobStats]:
    """Every file named or below a folder named, loaded by Spark tasks; results in the order listed."""
    files = [str(p.absolute()) for p in iter_input_files(paths)]  # a link's own name: its target may be gone
    if not files:
        return [], JobStats(0, 0)
    lake.root.mkdir(parents=True, exist_ok=True)
    spark = spark or spark_session(master, "perfdb-ingest")
    sc = spark.sparkContext
    if not sc.master.startswith("local"):
        sc.addPyFile(str(_package_zip()))  # executors of a cluster get the parsers as a zip
    group = f"perfdb-ingest-{uuid.uuid4().hex}"
    sc.setJobGroup(group, f"perfdb ingest of {len(files)} files")
    slices = min(len(files), max(2, sc.defaultParallelism * 4))
    root, opts, started_ms = str(lake.root), dict(options or {}), int(time.time() * 1000)
    collected = (sc.parallelize(list(enumerate(files)), slices)
                 .mapPartitions(lambda part: _load_partition(root, part, started_ms, format_name, opts))
                 .collect())
    tracker = sc.statusTracker()
    tasks = sum(stage.numTasks for job in tracker.getJobIdsForGroup(group)
                for stage in map(tracker.getStageInfo, tracker.getJobInfo(job).stageIds) if stage is not None)
    results = [_result(fields) for _, fields in sorted(collected, key=lambda item: item[0])]
    return results, JobStats(tasks, sum(len(repr(fields)) for _, fields in collected))


def _load_partition(root: str, part, started_ms: int, format_name, options):
    """Runs in a Spark task: the files of one partition, each loaded on its own."""
    lake = Lake(Path(root))
    with tempfile.TemporaryDirectory(prefix="perfdb-spark-ingest-") as tmp:
        for index, path in part:
            result = load_file(lake, Path(path), Path(tmp), file_id_of(started_ms, index), format_name, options)
            yield index, {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(result).items()}


def load_file(lake: Lake, path: Path, tmp: Path, file_id: int, format_name: str | None, options: dict) -> FileResult:
    """One file into the lake, all or nothing; never raises for bad input (the result says what happened)."""
    problem = unreadable(path)  # vanished, or a link that leads nowhere or into a loop: as on the DuckDB path
    if problem is not None:
        return FileResult(path, "failed", error=problem, messages=[f"{path}: {problem}"])
    sha, size, head, parser = identify(path, format_name)
    duplicate = FileResult(path, "duplicate", messages=[f"{path}: already ingested (same sha256), nothing added"])
    lake.claims_dir.mkdir(parents=True, exist_ok=True)
    claim = lake.claims_dir / sha
    try:
        os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return duplicate
    head, source = text_source(path, head, tmp / f"{sha}.text")
    ctx = ParseContext(path=source, options=dict(options))
    staged = StagedBatches(tmp / sha, budget=HELD_BYTES)
    try:
        result = parse_file(path, size, parser, ctx, staged, source=source)
        rejects = ctx.rejects
    except FormatError as e:  # the file itself is the rejected record, as on the DuckDB path
        staged.remove()
        message = f"{e} (at {e.position()})"
        result = FileResult(path, "rejected", format=parser.format if parser else None, error=message,
                            records_read=1, rows_rejected=1, messages=[f"{path}: {message}"])
        rejects = [Reject(message, head[:4096], e.offset, e.line)]
    except Exception as e:  # a parser bug: recorded, and the claim given back so that a fixed parser may retry
        staged.remove()
        message = f"{type(e).__name__}: {e}"
        result = FileResult(path, "failed", format=parser.format if parser else None, error=message,
                            messages=[f"{path}: {message}"])
        write_file(lake, sha, file_id, [], [], path, size, result, parser)
        claim.unlink()
        return result
    finally:
        if source != path:
            shutil.rmtree(source.parent, ignore_errors=True)
    write_file(lake, sha, file_id, [(table, part) for table, part, _ in staged.parts], rejects, path, size, result, parser)
    staged.remove()
    return result


def _result(fields: dict) -> FileResult:
    return FileResult(**{**fields, "path": Path(fields["path"])})


def _package_zip() -> Path:
    """The ``ingest`` package as a zip for the executors of a cluster (they need no perfdb install, only
    its dependencies: pyarrow, duckdb, pyyaml, jsonschema)."""
    package = Path(__file__).resolve().parents[1]
    target = Path(tempfile.mkdtemp(prefix="perfdb-pyfiles-")) / "ingest.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in package.rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts:
                zf.write(f, f.relative_to(package.parent))
    return target
