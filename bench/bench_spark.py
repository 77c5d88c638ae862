"""The Spark target beside the DuckDB path: ingest throughput and build time on this machine.

    .venv/bin/python bench/bench_spark.py                # two weeks of one 16-CPU system, all three forms
    .venv/bin/python bench/bench_spark.py --days 365     # one year: the build comparison of the issue
    .venv/bin/python bench/bench_spark.py --days 4 --period day   # a quick run: 12 daily files
    .venv/bin/python bench/bench_spark.py --days 365 --forms csv --processes 20 --discs 4 --no-local1 \
        --workdir DIR --keep   # one year with few entities, DuckDB and local[2] only; DIR's inputs are reused

What it does, each step in its own child process (one Spark driver per process, fresh JVM each time):

1. generates one system (16 CPUs, 100 processes, 20 discs, 4 lines) for ``--days`` days as weekly (or,
   with ``--period day``, daily) CSV, binary and MEASCOM files (``perfdb generate measure``);
2. ingests them on the DuckDB path (``perfdb ingest``), then with ``--target spark`` on ``local[1]`` and
   on ``local[2]`` into fresh lakes, and prints files/s and MB/s of each (wall time, JVM start included);
3. times ``perfdb build`` and ``perfdb build --target spark`` (``local[2]``) on what was ingested.

The parallel fraction p follows from the two Spark ingest times (Amdahl: t2 = t1 (1 - p + p/2)); what
it predicts for 20 nodes (Amdahl: 1 / (1 - p + p/n)) is printed and discussed in bench/README.md. The load
average is printed before and after: on a shared machine the figures are upper bounds. Inputs go under a temporary directory
(``--workdir``, ``--keep``). Not a test: nothing here runs in ``make test``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PERFDB = [sys.executable, "-m", "ingest.cli"]


def _timed(args: list[str]) -> float:
    t = time.perf_counter()
    proc = subprocess.run([*PERFDB, *args], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"perfdb {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--days", type=int, default=14)
    p.add_argument("--workdir", type=Path)
    p.add_argument("--keep", action="store_true")
    p.add_argument("--period", choices=("day", "week"), default="week")
    p.add_argument("--forms", default="csv,binary,meascom", help="MEASURE forms generated (default %(default)s)")
    p.add_argument("--processes", type=int, default=100)
    p.add_argument("--discs", type=int, default=20)
    p.add_argument("--no-local1", action="store_true",
                   help="skip the local[1] ingest (and so p): for the long build comparison")
    args = p.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="perfdb-bench-spark-"))
    try:
        inputs = work / "inputs"
        if not (inputs / "landing").is_dir():  # a kept --workdir's inputs are reused: generating a year is slow
            # the days end a week before today (ingest rejects timestamps after the file was written), from a Monday
            start = dt.date.today() - dt.timedelta(days=args.days + 7)
            start -= dt.timedelta(days=start.weekday())
            _timed(["--home", str(inputs), "generate", "measure", "--start", start.isoformat(), "--days", str(args.days), "--cpus", "16",
                    "--processes", str(args.processes), "--discs", str(args.discs), "--lines", "4",
                    "--forms", args.forms, "--period", args.period])
        files = [f for f in (inputs / "landing").rglob("*") if f.is_file()]
        size_mb = sum(f.stat().st_size for f in files) / 2**20
        print(f"{len(files)} files, {size_mb:.1f} MB ({args.days} days of one 16-CPU system, "
              f"{args.processes} processes, {args.discs} discs, {args.forms}); "
              f"load average {os.getloadavg()[0]:.1f}")
        runs = {
            "duckdb": ["ingest", str(inputs / "landing")],
            "spark local[1]": ["ingest", "--target", "spark", "--spark-master", "local[1]", "--lake", str(work / "lake1"),
                               str(inputs / "landing")],
            "spark local[2]": ["ingest", "--target", "spark", "--spark-master", "local[2]", str(inputs / "landing")],
        }
        if args.no_local1:
            del runs["spark local[1]"]
        shutil.rmtree(work / "lake1", ignore_errors=True)
        times = {}
        for name, cmd in runs.items():
            home = work / name.replace(" ", "_").replace("[", "").replace("]", "")
            shutil.rmtree(home, ignore_errors=True)  # a reused --workdir starts from fresh homes and lakes
            times[name] = _timed(["--home", str(home), *cmd])
            print(f"ingest {name:15s} {times[name]:7.1f} s  {len(files) / times[name]:6.2f} files/s  {size_mb / times[name]:6.2f} MB/s")
        if not args.no_local1:
            t1, t2 = times["spark local[1]"], times["spark local[2]"]
            parallel = max(0.0, min(1.0, 2 * (1 - t2 / t1)))
            print(f"parallel fraction of the Spark ingest (Amdahl, local[1] vs local[2]): {parallel:.2f}")
            for nodes, cores in ((20, 1), (20, 16)):
                n = nodes * cores
                print(f"  predicted speed-up over one core on {nodes} nodes x {cores} cores (n = {n}): "
                      f"{1 / (1 - parallel + parallel / n):.1f}x")
        duck_home, spark_home = work / "duckdb", work / "spark_local2"
        print(f"build duckdb            {_timed(['--home', str(duck_home), 'build']):7.1f} s")
        print(f"build spark local[2]    {_timed(['--home', str(spark_home), 'build', '--target', 'spark', '--spark-master', 'local[2]']):7.1f} s")
        print(f"load average {os.getloadavg()[0]:.1f}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
