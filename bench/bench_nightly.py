"""Nightly load benchmark: what adding one day costs after 30, 365 and 730 days of history.

    .venv/bin/python bench/bench_nightly.py                          # 4 systems; 30, 365 and 730 days
    .venv/bin/python bench/bench_nightly.py --systems 1 --days 7,30  # a quick run
    .venv/bin/python bench/bench_nightly.py --days 90 --check-all    # perfdb check --all instead of a night

For every history length it:

1. builds the site's history once (``--systems`` generated NonStop systems of 16 CPUs, 200 processes,
   40 discs and 4 lines, ``perfdb generate measure`` in weekly CSV files, and as many z/OS images,
   ``perfdb generate smf`` in weekly dumps: SMF 70.1, 72.3, 30 and 119, generated once per systems and
   days and linked into the home): ``perfdb ingest``, ``perfdb build --full-refresh`` (both timed: the
   full refresh of the history), a passing check mark recorded without validating the history (a first
   check validates every row, which a 730-day history does not fit in memory for), ``perfdb publish``,
   then one warm-up night (``perfdb run``: its check validates that day only), so that the warehouse is
   in its nightly steady state (a passing check to slice from, both serving slots published). That home
   is kept under ``--cache`` and reused by later runs with the same systems, history and code (the key
   includes a hash of the code that writes the warehouse: ``ingest/``, ``quality/``, ``dbt_project/``);
2. copies the cached home to a scratch directory (not timed), generates the next day (daily CSV files)
   into ``landing/<day>/`` and times the night there: ``perfdb ingest landing/<day>`` (the nightly DAG's
   ingest), ``perfdb build``, ``perfdb check``, ``perfdb publish``,
   each in its own child process, whose peak RSS includes its own children (dbt runs as a subprocess:
   ``resource.getrusage(RUSAGE_CHILDREN)`` of a wrapper process that runs only that step);
3. prints each history's setup (ingest and full-refresh build: seconds and peak RSS), each night step's
   seconds and peak RSS, the rows the check read and the warehouse size, then the ratio of the longest
   history's night to the shortest's.

With ``--check-all`` it times ``perfdb check --all`` on a copy of each history (after its warm-up night)
instead of a night: seconds, peak RSS and the rows the check read.

Targets: the ratio at most 1.5 (a night costs what the new day costs, not what the history costs) and
every step's peak RSS under 1 GiB. Exits 1 when a target is missed. Not a test: nothing here runs in
``make test``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from quality.audit import AUDIT_DDL  # noqa: E402  (the repository, not bench/, holds the package)

PERFDB = [sys.executable, "-m", "ingest.cli"]
# Every history ends on this Monday (the warm-up night's day) and the timed night is the day after: a
# Monday at least a week back, as ingest rejects a measurement later than its file's modification time.
TODAY = dt.date.today()
LAST_DAY = TODAY - dt.timedelta(days=7 + TODAY.weekday())
SYSTEM = dict(cpus=16, processes=200, discs=40, lines=4)
SMF_SYSTEMS = ("SYSA", "SYSB", "SYSC", "SYSD", "SYSE", "SYSF", "SYSG", "SYSH")  # a z/OS image beside each system
STEPS = ("ingest", "build", "check", "publish")
RATIO_TARGET = 1.5
RSS_TARGET = 1024 ** 3
CODE_DIRS = ("ingest", "quality", "dbt_project")


def code_hash() -> str:
    """The code that writes the warehouse: a cached history built by other code is not reused."""
    h = hashlib.sha256()
    for top in CODE_DIRS:
        for path in sorted((REPO / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".sql", ".yml", ".csv"):
                h.update(path.relative_to(REPO).as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:12]


def perfdb(home: Path, *args: str, capture: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run([*PERFDB, "--home", str(home), *args], cwd=REPO, check=True, text=True,
                          stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=subprocess.PIPE)


def generate(home: Path, systems: int, start: dt.date, days: int, period: str, out: Path | None = None) -> None:
    """Per system, a NonStop system's MEASURE files and a z/OS image's SMF dumps (70.1 and 72.3, which the
    MSU and workload models read, with the SMF 30 and 119 records of the same days), in weekly files for a
    history (``period`` week) or one file a day for a night."""
    for n in range(1, systems + 1):
        perfdb(home, "generate", "measure", "--system", f"\\NIGHT{n}", "--start", start.isoformat(),
               "--days", str(days), "--seed", str(100 + n), "--period", period,
               *(f"--{k}={v}" for k, v in SYSTEM.items()), *(["--out", str(out)] if out else []))
    perfdb(home, "generate", "smf", "--systems", ",".join(SMF_SYSTEMS[:systems]), "--start", start.isoformat(),
           "--days", str(days), "--seed", "100", "--days-per-file", "7" if period == "week" else "1",
           *(["--out", str(out)] if out else []))


def copy_home(source: Path, target: Path) -> None:
    """A copy of a home whose landing files are hard links: the warehouse is written, landing/ only read."""
    def link_or_copy(src: str, dst: str) -> None:
        if Path(src).relative_to(source).parts[0] == "landing":
            os.link(src, dst)
        else:
            shutil.copy2(src, dst)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True, copy_function=link_or_copy)


def start(days: int) -> dt.date:
    return LAST_DAY - dt.timedelta(days=days)


def landing(cache: Path, systems: int, days: int) -> Path:
    """The history's files, generated once per systems, days and start (not per code: only generate writes them)."""
    data = cache / f"data-{systems}sys-smf-{days}d-from-{start(days)}"
    if not (data / "ready").exists():
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        print(f"generating {days} days of {systems} systems under {data} (once)", flush=True)
        generate(data, systems, start(days), days, "week")
        (data / "ready").write_text("")
    return data


def mark_checked(home: Path) -> None:
    """A passing check mark at the end of the history, recorded without validating it, so that the next
    check validates only what is loaded after it (``quality/slice.py``)."""
    con = duckdb.connect(str(home / "warehouse" / "perfdb.duckdb"))
    try:
        con.execute(AUDIT_DDL)
        con.execute("""
            insert into audit.validation_runs by name
            select 'bench-history' as run_id, now()::timestamp as started_at, now()::timestamp as finished_at,
                true as success, 0 as suites_validated, 0 as suites_skipped, 0 as expectation_count,
                0 as failed_count, 'bench: history not validated' as scope,
                (select max(ingested_at) from raw.ingest_files) as loaded_through, 0 as rows_read""")
    finally:
        con.close()


def history(cache: Path, systems: int, days: int) -> tuple[Path, dict]:
    """The home after ``days`` of history and one warm-up night, built once per key, and the timed
    setup steps (ingest and full-refresh build of the history)."""
    home = cache / f"site-{systems}sys-{days}d-from-{start(days)}-{code_hash()}"
    setup_file = home / "setup.json"
    if (home / "ready").exists():
        return home, json.loads(setup_file.read_text())
    print(f"building the {days}-day history of {systems} systems under {home} (once)", flush=True)
    copy_home(landing(cache, systems, days), home)
    (home / "ready").unlink()
    setup = {"ingest": timed(home, "ingest"), "build --full-refresh": timed(home, "build", "--full-refresh")}
    for step, s in setup.items():
        print(f"  history {step}: {s['seconds']:.1f} s, peak RSS {mib(s['peak_rss'])}", flush=True)
    mark_checked(home)
    perfdb(home, "publish")
    generate(home, systems, LAST_DAY, 1, "day")  # the warm-up night
    perfdb(home, "run")
    setup_file.write_text(json.dumps({k: {"seconds": v["seconds"], "peak_rss": v["peak_rss"]}
                                      for k, v in setup.items()}))
    (home / "ready").write_text("")
    return home, json.loads(setup_file.read_text())


def child_step(argv: list[str]) -> None:
    """Runs one step as a child and prints its wall time and peak RSS (itself and its children) as JSON."""
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # Linux reports KiB
    print(json.dumps({"seconds": wall, "peak_rss": rss, "rc": proc.returncode, "stdout": proc.stdout,
                      "stderr": proc.stderr[-4000:]}))


def timed(home: Path, step: str, *options: str) -> dict:
    args = ["--json", step, *options] if step == "check" else [step, *options]
    out = subprocess.run([sys.executable, __file__, "--child-step", *PERFDB, "--home", str(home), *args],
                         cwd=REPO, check=True, text=True, stdout=subprocess.PIPE)
    result = json.loads(out.stdout)
    if result["rc"] != 0:
        raise SystemExit(f"perfdb {step} failed (exit {result['rc']}):\n{result['stderr']}")
    if step == "check":
        result["rows_read"] = json.loads(result["stdout"])["rows_read"]
    return result


def night(cache_home: Path, systems: int, days: int, scratch: Path) -> dict:
    home = scratch / cache_home.name
    copy_home(cache_home, home)
    # the night's files in their own landing folder, which the night ingests, as the nightly DAG does
    # (landing/<day>/): not the whole landing/, whose already-loaded files would each be looked up again
    day = LAST_DAY + dt.timedelta(days=1)
    folder = home / "landing" / day.isoformat()
    generate(home, systems, day, 1, "day", folder)
    steps = {step: timed(home, step, *([str(folder)] if step == "ingest" else [])) for step in STEPS}
    size = (home / "warehouse" / "perfdb.duckdb").stat().st_size
    shutil.rmtree(home, ignore_errors=True)
    return {"days": days + 1, "steps": steps, "warehouse_bytes": size}


def check_all(cache_home: Path, days: int, scratch: Path) -> dict:
    home = scratch / cache_home.name
    copy_home(cache_home, home)
    result = timed(home, "check", "--all")
    shutil.rmtree(home, ignore_errors=True)
    return {"days": days + 1, "check --all": result}


def mib(n: float) -> str:
    return f"{n / 1024 ** 2:,.0f} MiB"


def report(results: list[dict]) -> bool:
    print()
    print("| history (days) | " + " | ".join(f"history {step}" for step in results[0]["setup"]) + " |")
    print("|---|" + "---|" * len(results[0]["setup"]))
    for r in results:
        print(f"| {r['days'] - 1} | " + " | ".join(f"{s['seconds']:.1f} s / {mib(s['peak_rss'])}"
                                                    for s in r["setup"].values()) + " |")
    print()
    print("| history (days) | " + " | ".join(STEPS) + " | night | check rows read | warehouse |")
    print("|---|" + "---|" * (len(STEPS) + 3))
    ok = True
    for r in results:
        cells = [f"{s['seconds']:.1f} s / {mib(s['peak_rss'])}" for s in r["steps"].values()]
        r["total"] = sum(s["seconds"] for s in r["steps"].values())
        print(f"| {r['days']} | " + " | ".join(cells) + f" | {r['total']:.1f} s | {r['steps']['check']['rows_read']:,} "
              f"| {mib(r['warehouse_bytes'])} |")
        for step, s in r["steps"].items():
            if s["peak_rss"] >= RSS_TARGET:
                ok = False
                print(f"FAIL peak RSS of {step} at {r['days']} days: {mib(s['peak_rss'])} (target < 1 GiB)")
    ratio = results[-1]["total"] / results[0]["total"]
    verdict = "PASS" if ratio <= RATIO_TARGET else "FAIL"
    print(f"{verdict} night at {results[-1]['days']} days / night at {results[0]['days']} days = {ratio:.2f} "
          f"(target <= {RATIO_TARGET})")
    return ok and ratio <= RATIO_TARGET


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["--child-step"]:
        child_step(sys.argv[2:])
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--systems", type=int, default=4, help="generated systems (default %(default)s)")
    p.add_argument("--days", default="30,365,730", help="history lengths, comma-separated (default %(default)s)")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "perfdb-bench-nightly",
                   help="where built histories are kept and reused (default %(default)s)")
    p.add_argument("--json", type=Path, help="also write the results to this file")
    p.add_argument("--check-all", action="store_true", help="time `perfdb check --all` instead of a night")
    args = p.parse_args(argv)
    lengths = sorted(int(d) for d in args.days.split(","))
    scratch = args.cache / "scratch"
    results = []
    if args.check_all:
        print("| history (days) | check --all | rows read |\n|---|---|---|")
        for days in lengths:
            r = check_all(history(args.cache, args.systems, days)[0], days, scratch)["check --all"]
            print(f"| {days + 1} | {r['seconds']:.1f} s / {mib(r['peak_rss'])} | {r['rows_read']:,} |", flush=True)
        return 0
    for days in lengths:
        cached, setup = history(args.cache, args.systems, days)
        print(f"timing the night after {days + 1} days ...", flush=True)
        results.append({**night(cached, args.systems, days, scratch), "setup": setup})
        print(json.dumps(results[-1]), flush=True)  # each night as it is timed: a later failure keeps it
        if args.json:
            args.json.write_text(json.dumps(results, indent=2))
    ok = report(results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
