"""``perfdb ingest --target spark``: the input files parsed by Spark tasks into the lake.

The driver lists the files (``intake.listing``) and hands their names to Spark; each task reads the files
it owns with the intake the DuckDB loader uses (``intake.read.read_file``: the same parsers, rejects and
accounting, records read = loaded + rejected + skipped) and writes them with ``writer.write_file``. Only
each file's result (counts, status, messages) comes back to the driver, never its contents.

Once the tasks are done, the driver compares the files loaded with those loaded before them (``copies``):
a copy of another file's measurements with other values fails the file's ingest, as on DuckDB.

A file loads once: a task claims its identity (``intake.identity``: the sha256 of its bytes) by creating
``<lake>/_claims/<sha256>`` exclusively (atomic on a local or NFS lake), so the same bytes twice, in one job
or in two concurrent jobs, load once; the others are reported as duplicates (``_Claim``). A file that failed
(a parser bug, or bytes that changed while they were read) gives its claim back and may be loaded again; a
rejected file keeps it, as on the DuckDB path.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ingest.faults import WarehouseFault
from ingest.intake.listing import iter_input_files
from ingest.intake.read import read_file
from ingest.intake.result import FileResult, failed
from ingest.intake.staged import HELD_BYTES, StagedBatches
from ingest.lake import copies as lake_copies
from ingest.lake.layout import Lake, file_id_of
from ingest.lake.writer import write_file
from ingest.intake import copies


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
    ordered = sorted(collected, key=lambda item: item[0])
    results = [_result(fields) for _, fields in ordered]
    found = lake_copies.find(lake)  # the job's files with the earlier ones: copies, duplicates or conflicts
    for (index, _), result in zip(ordered, results):
        copies.tell(result, found.get(file_id_of(started_ms, index), []))
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
    claim = _Claim(lake, path)
    try:
        read = read_file(path, StagedBatches(tmp / str(file_id), budget=HELD_BYTES), format_name=format_name,
                         options=options, admit=claim.take)
    except WarehouseFault as fault:  # no room on this executor's disc: the file fails, the other tasks go on
        claim.give_back()
        return failed(path, str(fault))
    if read.sha is not None:
        parts = [(table, part) for table, part, _ in read.staged.parts] if read.staged else []
        write_file(lake, read.sha, file_id, parts, read.rejects, path, read.size, read.result, read.parser)
    if read.staged:
        read.staged.remove()
    if read.result.status == "failed":  # given back after its manifest row, so that a fixed parser may retry
        claim.give_back()
    return read.result


class _Claim:
    """A file's claim on its identity in the lake, ``<lake>/_claims/<sha256>``, created exclusively: the
    intake's ``admit`` for the lake."""

    def __init__(self, lake: Lake, path: Path):
        self.lake, self.path = lake, path
        self.held: Path | None = None  # the claim taken for ``path``

    def take(self, sha: str) -> FileResult | None:
        """None once claimed; a duplicate's result when another file or task holds the claim already."""
        self.lake.claims_dir.mkdir(parents=True, exist_ok=True)
        claim = self.lake.claims_dir / sha
        try:
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return FileResult(self.path, "duplicate", messages=[f"{self.path}: already ingested (same sha256), nothing added"])
        self.held = claim
        return None

    def give_back(self) -> None:
        if self.held is not None:
            self.held.unlink()
            self.held = None


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
