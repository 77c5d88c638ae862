"""Command-output ingest benchmark: a log of 100,000 ``netstat -s`` captures, on one core, beside DuckDB's read_csv.

    .venv/bin/python bench/bench_commands_ingest.py                     # 100,000 captures (~200 MB)
    .venv/bin/python bench/bench_commands_ingest.py --captures 20000    # a quicker look

What it does, in one run on one machine:

1. writes one host's ``netstat -s`` captures, one a minute, each after its ``# captured:`` line, into
   one log (``perfdb generate commands --netstat-s-log N``: the real net-tools layout, counters growing
   with a daily load curve);
2. pins the process to one CPU (``os.sched_setaffinity``; DuckDB's threads share it), times the parser
   alone (``netstat.linux_s`` into Arrow batches), then ingests the log into a fresh warehouse through
   the real path (``ingest.warehouse.ingest_file``: sniff, parse, one transaction, manifest);
3. exports the loaded rows to CSV and loads that CSV with DuckDB's own ``read_csv`` into a persistent
   table on the same single CPU, the yardstick;
4. prints MB/s and rows/s of both, and the target: the log ingests at 30 MB/s or more.

Inputs go under a temporary directory (``--workdir`` to choose it, ``--keep`` to keep it). Not a test:
nothing here runs in ``make test``. The machine's other load shows in the figures: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import duckdb  # noqa: E402

from ingest import warehouse  # noqa: E402
from ingest.formats import registry  # noqa: E402
from ingest.formats.base import ParseContext  # noqa: E402
from ingest.generate.commands import netstat_s_log  # noqa: E402
from ingest.warehouse import Home  # noqa: E402

TARGET_MB_S = 30.0


def _one_cpu() -> int:
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def parse_only(log: Path) -> dict:
    """The parser alone: text to Arrow batches, nothing written."""
    parser = registry.by_format("netstat.linux_s")
    ctx = ParseContext(log)
    start = time.perf_counter()
    rows = sum(batch.rows.num_rows for batch in parser.parse(log, ctx))
    seconds = time.perf_counter() - start
    size = log.stat().st_size
    return {"bytes": size, "rows": rows, "seconds": seconds, "mb_per_s": size / 1e6 / seconds,
            "rows_per_s": rows / seconds}


def ingest(log: Path, home: Home) -> dict:
    con = warehouse.connect(home)
    try:
        start = time.perf_counter()
        result = warehouse.ingest_file(con, log)
        seconds = time.perf_counter() - start
    finally:
        con.close()
    if result.status != "loaded":
        raise SystemExit(f"ingest of {log} ended {result.status}: {result.error or result.messages[:3]}")
    size = log.stat().st_size
    return {"bytes": size, "rows": result.rows_loaded, "seconds": seconds,
            "mb_per_s": size / 1e6 / seconds, "rows_per_s": result.rows_loaded / seconds}


def duckdb_read_csv(home: Home, workdir: Path) -> dict:
    """The same rows as CSV, loaded by DuckDB's read_csv into a persistent table on one thread."""
    csv = workdir / "command_counters.csv"
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        con.execute("set enable_progress_bar = false")
        con.execute(f"copy raw.command_counters to '{csv}' (header)")
    target = workdir / "read_csv.duckdb"
    with duckdb.connect(str(target)) as con:
        con.execute("set threads = 1")
        con.execute("set enable_progress_bar = false")
        start = time.perf_counter()
        rows = con.execute(f"create table command_counters as select * from read_csv('{csv}')").fetchall()[0][0]
        seconds = time.perf_counter() - start
    size = csv.stat().st_size
    return {"bytes": size, "rows": rows, "seconds": seconds,
            "mb_per_s": size / 1e6 / seconds, "rows_per_s": rows / seconds}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--captures", type=int, default=100_000, help="netstat -s captures in the log (default %(default)s)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workdir", help="where inputs go (default: a temporary directory)")
    p.add_argument("--keep", action="store_true", help="keep the work directory")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="perfdb_bench_commands_"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        log = netstat_s_log(workdir / "web01_netstat-s.log", args.captures, args.seed)
        cpu = _one_cpu()
        home = Home(workdir / "home").create()
        parsed = parse_only(log)
        ours = ingest(log, home)
        yardstick = duckdb_read_csv(home, workdir)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    figures = {"captures": args.captures, "cpu": cpu, "parser_only": parsed, "perfdb_ingest": ours,
               "duckdb_read_csv": yardstick,
               "target_mb_per_s": TARGET_MB_S, "meets_target": ours["mb_per_s"] >= TARGET_MB_S,
               "load_average": os.getloadavg()[0]}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"netstat -s log: {args.captures} captures, {ours['bytes'] / 1e6:.1f} MB, {ours['rows']:,} counter rows "
              f"(one CPU: #{cpu}; load average {figures['load_average']:.1f})")
        for name, f in (("parser alone (text to Arrow)", parsed), ("perfdb ingest (parse + load)", ours),
                        ("DuckDB read_csv of the same rows", yardstick)):
            print(f"  {name:<34} {f['mb_per_s']:7.1f} MB/s  {f['rows_per_s'] / 1e6:5.2f} M rows/s  "
                  f"{f['seconds']:6.1f} s for {f['bytes'] / 1e6:.0f} MB")
        verdict = "meets" if figures["meets_target"] else "MISSES"
        print(f"  target: >= {TARGET_MB_S:.0f} MB/s of log: {verdict}")
    return 0 if figures["meets_target"] else 1


if __name__ == "__main__":
    sys.exit(main())
