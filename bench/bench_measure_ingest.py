"""MEASURE ingest benchmark: the three input forms against DuckDB's own CSV reader, peak memory, build time.

    .venv/bin/python bench/bench_measure_ingest.py                      # ~300 MB of CSV, all three forms
    .venv/bin/python bench/bench_measure_ingest.py --size-mb 2048       # the 2 GiB peak-memory check
    .venv/bin/python bench/bench_measure_ingest.py --build-year         # also: perfdb build on one year

What it does, in one run on one machine:

1. generates one system (16 CPUs, 500 processes, 100 discs, 16 lines; ``perfdb generate measure``) for as
   many days as it takes to reach ``--size-mb`` of CSV, in weekly files, as CSV, binary records and
   MEASCOM text (the same hours in every form);
2. ingests each form into a fresh warehouse through the real path (``ingest.warehouse.loading.ingest_files``, as
   ``perfdb ingest`` does: each file all or nothing, small files sharing a transaction), each form in its
   own child process so that its peak RSS (``resource.getrusage``) is its own;
3. loads the CSV files with DuckDB's ``read_csv`` into one table per entity, the yardstick;
4. prints rows/s, MB/s, CPU seconds and peak RSS per form, and the targets: CSV and binary ingest at least
   half of DuckDB's CSV row rate, text at least 20 MB per CPU-second, peak RSS under 1 GiB (meaningful
   for a 2 GiB input);
5. with ``--build-year``: generates one year of hourly data (16 CPUs, 500 processes, 100 discs) as binary
   records, ingests it and times ``perfdb build`` (dbt) on it; target under 2 minutes.

Inputs go under a temporary directory (``--workdir`` to choose it, ``--keep`` to keep it). Not a test:
nothing here runs in ``make test``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ingest.generate._measure_inventory import SystemSpec  # noqa: E402
from ingest.generate._measure_model import TABLES  # noqa: E402
from ingest.generate.measure import CSV_NAMES, FORMS, generate  # noqa: E402

BENCH_SYSTEM = dict(name="\\BENCH", cpus=16, processes=500, discs=100, lines=16, seed=2026)
START = dt.date(2026, 1, 5)
DAYS_PER_YEAR = 365
MIB = 1024 * 1024


def _spec(days: int) -> SystemSpec:
    return SystemSpec(start=START, days=days, **BENCH_SYSTEM)


def _size(paths) -> int:
    return sum(p.stat().st_size for p in paths)


def _peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def _cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# -- children: each measurement in its own process ----------------------------------------------------


def child_ingest(input_dir: Path, home_dir: Path) -> dict:
    from ingest.home import Home
    from ingest.intake.listing import iter_input_files
    from ingest.warehouse import database, loading

    files = iter_input_files([input_dir])
    con = database.connect(Home(home_dir).create())
    cpu0, t0 = _cpu_seconds(), time.perf_counter()
    results = list(loading.ingest_files(con, files))
    seconds, cpu = time.perf_counter() - t0, _cpu_seconds() - cpu0
    con.close()
    bad = [m for r in results if not r.ok for m in r.messages]
    return {
        "files": len(files), "bytes": _size(files), "rows": sum(r.rows_loaded for r in results),
        "seconds": seconds, "cpu_seconds": cpu, "peak_rss": _peak_rss_bytes(), "problems": bad[:5],
    }


def child_duckdb_csv(input_dir: Path, db_path: Path) -> dict:
    import duckdb

    con = duckdb.connect(str(db_path))
    files_by_table = {t: sorted(str(p) for p in input_dir.rglob(CSV_NAMES[t])) for t in TABLES}
    all_files = [Path(f) for fs in files_by_table.values() for f in fs]
    cpu0, t0 = _cpu_seconds(), time.perf_counter()
    rows = 0
    for table, files in files_by_table.items():
        if files:
            con.execute(f"create table {table} as select * from read_csv(?, header = true, union_by_name = true)", [files])
            rows += con.execute(f"select count(*) from {table}").fetchall()[0][0]
    seconds, cpu = time.perf_counter() - t0, _cpu_seconds() - cpu0
    con.close()
    return {"files": len(all_files), "bytes": _size(all_files), "rows": rows, "seconds": seconds,
            "cpu_seconds": cpu, "peak_rss": _peak_rss_bytes(), "problems": []}


def _run_child(*args: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the run ------------------------------------------------------------------------------------------------


def _days_for(size_bytes: int, work: Path) -> int:
    """Days of the bench system that make about ``size_bytes`` of CSV (measured on one generated week)."""
    probe = work / "probe"
    files = generate(_spec(7), probe, ["csv"], period="week")
    per_day = _size(files) / 7
    shutil.rmtree(probe)
    return max(1, math.ceil(size_bytes / per_day))


def _line(name: str, r: dict, base: dict | None) -> str:
    mb = r["bytes"] / 1e6
    rows_s = r["rows"] / r["seconds"]
    if base:  # row rate relative to DuckDB's, by wall time and by CPU time (a loaded machine skews the first)
        ratio = (f"{rows_s / (base['rows'] / base['seconds']):>7.2f} "
                 f"{r['rows'] / r['cpu_seconds'] / (base['rows'] / base['cpu_seconds']):>7.2f}")
    else:
        ratio = f"{'-':>7} {'-':>7}"
    return (f"{name:<16} {r['files']:>6} {mb:>9.1f} {r['rows']:>11,} {r['seconds']:>8.1f} {r['cpu_seconds']:>8.1f} "
            f"{rows_s:>11,.0f} {mb / r['seconds']:>8.1f} {mb / r['cpu_seconds']:>8.1f} "
            f"{r['peak_rss'] / MIB:>9.0f} {ratio}")


_HEADER = (f"{'form':<16} {'files':>6} {'MB':>9} {'rows':>11} {'wall s':>8} {'cpu s':>8} {'rows/s':>11} "
           f"{'MB/s':>8} {'MB/cpu-s':>8} {'peak MiB':>9} {'x duckdb':>7} {'(cpu)':>7}")


def bench_forms(work: Path, size_mb: float) -> bool:
    days = _days_for(int(size_mb * 1e6), work)
    spec = _spec(days)
    print(f"generating {spec.name}: {spec.cpus} CPUs, {spec.processes} processes, {spec.discs} discs, "
          f"{spec.lines} lines, {days} days from {spec.start} in {', '.join(FORMS)} ...", flush=True)
    t0 = time.perf_counter()
    data = work / "data"
    generate(spec, data, FORMS, period="week")
    print(f"  generated in {time.perf_counter() - t0:.0f} s", flush=True)

    results = {form: _run_child("ingest", str(data / form), str(work / f"home_{form}")) for form in FORMS}
    duck = _run_child("duckdb-csv", str(data / "csv"), str(work / "duckdb_csv.duckdb"))

    print()
    print(_HEADER)
    for form in FORMS:
        print(_line(f"perfdb {form}", results[form], duck))
    print(_line("duckdb read_csv", duck, None))
    for form, r in results.items():
        for problem in r["problems"]:
            print(f"  {form}: {problem}")

    duck_rate = duck["rows"] / duck["seconds"]
    checks = [
        ("csv ingest >= 0.5 x duckdb read_csv rows/s", results["csv"]["rows"] / results["csv"]["seconds"] >= 0.5 * duck_rate),
        ("binary ingest >= 0.5 x duckdb read_csv rows/s", results["binary"]["rows"] / results["binary"]["seconds"] >= 0.5 * duck_rate),
        ("meascom text >= 20 MB per cpu-second", results["meascom"]["bytes"] / 1e6 / results["meascom"]["cpu_seconds"] >= 20),
        *((f"{form} peak RSS < 1 GiB", results[form]["peak_rss"] < 1024 * MIB) for form in FORMS),
        ("same rows in every form", len({r["rows"] for r in results.values()}) == 1),
    ]
    print()
    for name, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return all(ok for _, ok in checks)


def _repeat_into(target: Path, sources: list[Path], size_bytes: int, *, skip_header: bool) -> Path:
    """One file of at least ``size_bytes``: ``sources`` one after the other, again and again (a CSV's
    header only once). Repeated records are still records to parse and load; staging de-duplicates them."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        written, first = 0, True
        while written < size_bytes:
            for src in sources:
                with src.open("rb") as f:
                    if skip_header and not first:
                        f.readline()
                    first = False
                    while chunk := f.read(1 << 24):
                        out.write(chunk)
                        written += len(chunk)
    return target


def bench_large_files(work: Path, size_mib: float) -> bool:
    """The peak-memory target on single large files: one file per form of ``size_mib`` (a generated week of
    the bench system's process records, or for MEASCOM its daily reports, repeated), each ingested alone."""
    week = work / "week"
    print(f"\ngenerating one week of {BENCH_SYSTEM['name']} in {', '.join(FORMS)}, repeated into one "
          f"{size_mib:,.0f} MiB file per form ...", flush=True)
    generate(_spec(7), week, FORMS, period="week")
    size = int(size_mib * MIB)
    large = work / "large"
    inputs = {
        "csv": _repeat_into(large / "csv" / "process.csv", sorted(week.rglob("process.csv")), size, skip_header=True),
        "binary": _repeat_into(large / "binary" / "zmsproc", sorted(week.rglob("zmsproc")), size, skip_header=False),
        "meascom": _repeat_into(large / "meascom" / "meascom-week.txt", sorted(week.rglob("meascom-*.txt")), size,
                                skip_header=False),
    }
    results = {form: _run_child("ingest", str(path.parent), str(work / f"large_home_{form}")) for form, path in inputs.items()}
    print()
    print(_HEADER.replace("form            ", "one large file  ", 1))
    for form, r in results.items():
        print(_line(f"perfdb {form}", r, None))
    checks = [(f"{form} peak RSS < 1 GiB on {r['bytes'] / MIB:,.0f} MiB", r["peak_rss"] < 1024 * MIB) for form, r in results.items()]
    checks += [(f"{form} loaded every record", r["rows"] > 0 and not r["problems"]) for form, r in results.items()]
    print()
    for name, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    return all(ok for _, ok in checks)


def bench_build_year(work: Path) -> bool:
    from ingest import dbt_runner
    from ingest.home import Home

    spec = _spec(DAYS_PER_YEAR)
    home = Home(work / "year_home").create()
    print(f"\ngenerating one year for {spec.name} ({spec.cpus} CPUs, {spec.processes} processes, "
          f"{spec.discs} discs) as binary records ...", flush=True)
    t0 = time.perf_counter()
    generate(spec, home.landing, ["binary"], period="week")
    print(f"  generated in {time.perf_counter() - t0:.0f} s", flush=True)
    ingest = _run_child("ingest", str(home.landing), str(home.root))
    print(f"  ingest: {ingest['rows']:,} rows from {ingest['bytes'] / 1e6:.0f} MB in {ingest['seconds']:.0f} s "
          f"(peak {ingest['peak_rss'] / MIB:.0f} MiB)")
    t0 = time.perf_counter()
    rc = dbt_runner.build(home, quiet=True)
    seconds = time.perf_counter() - t0
    ok = rc == 0 and seconds < 120
    print(f"  perfdb build: exit {rc} in {seconds:.0f} s")
    print(f"  {'PASS' if ok else 'FAIL'}  perfdb build on one year < 2 minutes")
    return ok


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size-mb", type=float, default=300, help="CSV input size to generate (default %(default)s)")
    p.add_argument("--workdir", help="where inputs and warehouses go (default: a new temporary directory)")
    p.add_argument("--keep", action="store_true", help="keep the generated inputs and warehouses")
    p.add_argument("--large-file-mib", type=float, help="also ingest one file of this many MiB per form (peak memory)")
    p.add_argument("--build-year", action="store_true", help="also time perfdb build on one generated year")
    p.add_argument("--skip-forms", action="store_true", help="only the --large-file-mib and --build-year parts")
    p.add_argument("--child", nargs=3, metavar=("KIND", "INPUT", "TARGET"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    if args.child:
        kind, input_dir, target = args.child
        run = child_ingest if kind == "ingest" else child_duckdb_csv
        print(json.dumps(run(Path(input_dir), Path(target))))
        return 0

    work = Path(args.workdir or tempfile.mkdtemp(prefix="perfdb_bench_"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"work directory: {work}  (python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.1f})")
    try:
        ok = True
        if not args.skip_forms:
            ok &= bench_forms(work, args.size_mb)
        if args.large_file_mib:
            ok &= bench_large_files(work, args.large_file_mib)
        if args.build_year:
            ok &= bench_build_year(work)
    finally:
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
