"""Runs dbt as a child process against a perfdb home, and tells what it did from dbt's own results.

A child process rather than dbt's Python API in this one: the same command works from the CLI, from
Airflow (whose dependencies may differ from dbt's) and by hand, and dbt's DuckDB connection is closed when
it exits. dbt's target/ and logs/ go under the home, so the repository stays clean and two homes never
collide. dbt's console output goes to ``<home>/warehouse/dbt_logs/console.log`` (its full debug log is
``dbt.log`` beside it); what perfdb prints comes from ``run_results.json`` and ``manifest.json``::

    dbt build: 331 nodes in 28 s, all passed
      seeds           10 built    26 tests passed
      staging         22 built    35 tests passed
      intermediate    14 built    40 tests passed
      marts           48 built    96 tests passed
    full log: perfdb_home/warehouse/dbt_logs/dbt.log

dbt runs in a process group of its own (a Ctrl-C reaches perfdb, which stops dbt) and is killed by the
kernel when perfdb dies, even by ``kill -9`` (``PR_SET_PDEATHSIG``), so no dbt is left writing the warehouse.

Parsing the project takes dbt 8-12 s, which it skips when the ``partial_parse.msgpack`` of its last run is
still valid. dbt runs from the home's ``warehouse/`` folder with the same relative database name in every
home, so the parse of one home is valid in any other: a home's first build starts from the last parse any
home saved (``parse_cache_dir``); dbt checks the file itself and parses again when the project changed.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from ingest.dbt_changes import check_and_keep
from ingest.home import Home
from ingest.memory import memory_limit
from ingest.output import progress_bar, shown
from ingest import faults

DBT_PROJECT = Path(os.environ.get("PERFDB_DBT_PROJECT", Path(__file__).resolve().parents[1] / "dbt_project"))
STAGES = ("seeds", "staging", "intermediate", "marts")  # in build order; anything else is listed after them
TEST_TYPES = ("test", "unit_test")
# dbt's unit tests check a model's logic on fixed inputs (`unit_tests:` in the models' yml): the same answer every
# night, so a build leaves them out, as dbt advises for production runs (they were a fifth of a build's work).
# `make test` runs them, and a developer with `perfdb build --unit-tests`.
UNIT_TESTS_LEFT_OUT = ("--exclude-resource-type", "unit_test")
FAILED = ("error", "fail", "runtime error")
# "12:00:02  17 of 331 OK created sql view model staging.stg_x ....... [OK in 0.05s]": one node done
_NODE_DONE = re.compile(r"\b(\d+) of (\d+) (OK|PASS|FAIL|ERROR|WARN|SKIP|NO-OP)\b")
PR_SET_PDEATHSIG = 1


def dbt_executable() -> str:
    local = Path(sys.executable).parent / "dbt"
    return str(local) if local.exists() else (shutil.which("dbt") or "dbt")


def log_dir(home: Home) -> Path:
    return home.warehouse_dir / "dbt_logs"


def target_dir(home: Home, target: str = "duckdb") -> Path:
    """dbt's target/ of a target: one each, so that switching targets keeps partial parsing."""
    return home.warehouse_dir / ("dbt_target" if target == "duckdb" else f"dbt_target_{target}")


def parse_cache_dir() -> Path:
    """Where the last saved parse of the dbt project is kept for the next new home (``PERFDB_CACHE``)."""
    return Path(os.environ.get("PERFDB_CACHE") or Path.home() / ".cache" / "perfdb") / "dbt_parse"


PARSE_FILE = "partial_parse.msgpack"


def _cached_parse(target: str) -> Path:
    """One per project folder and target: another checkout's parse would only be parsed over."""
    project = hashlib.sha1(str(DBT_PROJECT).encode()).hexdigest()[:12]
    return parse_cache_dir() / f"{project}-{target}.msgpack"


def _reuse_parse(home: Home, target: str) -> None:
    saved, cached = target_dir(home, target) / PARSE_FILE, _cached_parse(target)
    if not saved.exists() and cached.exists():
        saved.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cached, saved)


def _keep_parse(home: Home, target: str) -> None:
    """Keeps the home's parse when dbt wrote a new one (most runs only reuse it: nothing to copy)."""
    saved, cached = target_dir(home, target) / PARSE_FILE, _cached_parse(target)
    if saved.exists() and (not cached.exists() or saved.stat().st_mtime > cached.stat().st_mtime):
        try:
            parse_cache_dir().mkdir(parents=True, exist_ok=True)
            partial = parse_cache_dir() / f".{target}.{os.getpid()}"
            shutil.copyfile(saved, partial)
            partial.replace(cached)  # atomic: another home may be reading it
        except OSError:
            pass  # a cache that cannot be written costs the next new home a parse, nothing else


def dbt_env(home: Home, target: str = "duckdb", lake: Path | None = None, master: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PERFDB_DUCKDB_PATH", None)  # the profile's relative name, resolved in the warehouse folder
    env["DBT_LOG_PATH"] = str(log_dir(home))
    env["DBT_TARGET_PATH"] = str(target_dir(home, target))
    env["DBT_USE_COLORS"] = "false"  # the console output goes to a file
    env["PERFDB_MEMORY_LIMIT"] = memory_limit()  # profiles.yml: dbt's DuckDB keeps no more pages cached
    if lake is not None:  # the Spark targets: where the raw layer is and the marts go (profiles.yml)
        env["PERFDB_LAKE"] = str(lake)
    if master is not None:
        env["PERFDB_SPARK_MASTER"] = master
    env.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    return env


def _die_with_parent() -> None:
    """In the child, before dbt starts: a group of its own, and SIGKILL when perfdb dies (Linux)."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the process group still lets perfdb stop dbt on Ctrl-C


def run_dbt(home: Home, args: list[str], *, quiet: bool = False, target: str = "duckdb",
            lake: Path | None = None, master: str | None = None) -> int:
    """``dbt ARGS`` on the home; its console output is written to ``console.log`` (never to the terminal), a
    progress bar shows on a terminal unless ``quiet``, and the end of the output is printed on stderr when dbt
    fails without results (a project or profile error)."""
    log_dir(home).mkdir(parents=True, exist_ok=True)
    (target_dir(home, target) / "run_results.json").unlink(missing_ok=True)  # never report a previous run's results
    console = log_dir(home) / "console.log"
    if "--select" in args and "--indirect-selection" not in args:
        # a part of the project runs a data test only when every relation it reads is built: by default (eager)
        # dbt also runs the relationships test of a model left out when it points at a selected seed (the
        # rules catalogue), on a table that does not exist yet
        args = [*args, "--indirect-selection", "cautious"]
    cmd = [dbt_executable(), *args, "--project-dir", str(DBT_PROJECT), "--profiles-dir", str(DBT_PROJECT),
           "--target", target]
    progress = None if quiet else progress_bar(f"dbt {args[0]}")
    _reuse_parse(home, target)
    # the DuckDB target from the warehouse folder (profiles.yml); Spark's session from the project's
    cwd = home.warehouse_dir if target == "duckdb" else DBT_PROJECT
    with console.open("w") as log:
        proc = subprocess.Popen(cmd, env=dbt_env(home, target, lake, master), cwd=str(cwd), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, preexec_fn=_die_with_parent)
        try:
            for line in proc.stdout:
                log.write(line)
                done = _NODE_DONE.search(line)
                if done:
                    faults.reached("dbt_node")  # dbt dies with perfdb (``_die_with_parent``)
                if progress is not None and done:
                    progress.update(int(done[1]), int(done[2]))
            status = proc.wait()
        except BaseException:  # Ctrl-C (or anything else) stops dbt before perfdb goes
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise
        finally:
            if progress is not None:
                progress.close()
    _keep_parse(home, target)
    if status != 0 and not (target_dir(home, target) / "run_results.json").exists():
        tail = console.read_text().splitlines()[-30:]
        _raise_no_room(tail, f"running dbt {args[0]} (dbt's output: {console})")
        sys.stderr.write("\n".join(tail) + f"\n(dbt's output: {console})\n")
    return status


def _raise_no_room(lines: list[str], doing: str) -> None:
    """dbt stopped because a write found no room (its traceback ends in the OSError): the one-line fault."""
    said = next((line for line in reversed(lines) if faults.no_room(OSError(line))), None)
    if said is not None:
        raise faults.translate(OSError(said.removeprefix("OSError: ")), doing)


def build(home: Home, *, select: str | None = None, quiet: bool = False, full_refresh: bool = False,
          unit_tests: bool = False, target: str = "duckdb", lake: Path | None = None, master: str | None = None) -> int:
    """dbt build; the day models rebuild only the days touched since the last build unless ``full_refresh``;
    dbt's unit tests only with ``unit_tests``."""
    args = ["build", *(() if unit_tests else UNIT_TESTS_LEFT_OUT)]
    if select:
        args += ["--select", select]
    if full_refresh:
        args += _full_refresh(home, target)
    rc = run_dbt(home, args, quiet=quiet, target=target, lake=lake, master=master)
    if rc == 0 and not select and target == "duckdb":
        stale = check_and_keep(home.warehouse_dir, full_refresh=full_refresh)
        if stale:
            sys.stderr.write(f"perfdb build: {', '.join(stale)} or what they read changed since the last build; "
                             "the days built before follow the old definition: run `perfdb build --full-refresh`\n")
    return rc


def _full_refresh(home: Home, target: str) -> list[str]:
    """dbt's arguments of a full refresh: ``--full-refresh``, unless retention has purged raw files (DuckDB):
    then every day still kept is rebuilt, and the shift, month and year rows of purged days stay, since
    their detail is gone (``build_touched_days``, var ``rebuild_kept``)."""
    from ingest.warehouse.retention import purged_through  # DuckDB and pyarrow: not for `perfdb --help`

    purged = purged_through(home) if target == "duckdb" else None
    if purged is None:
        return ["--full-refresh"]
    sys.stderr.write(f"perfdb build --full-refresh: retention has purged the raw files up to {purged}; every day "
                     "kept is rebuilt, the periods holding older days stay as they were built\n")
    return ["--vars", json.dumps({"rebuild_kept": True})]


def _results(home: Home, target: str = "duckdb") -> dict:
    return json.loads((target_dir(home, target) / "run_results.json").read_text())


def last_run_summary(home: Home, target: str = "duckdb") -> str:
    """One line from dbt's run_results.json: how many nodes ended in which status, and how long."""
    results = _results(home, target)
    statuses = Counter(r["status"] for r in results["results"])
    counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    return f"dbt build: {len(results['results'])} nodes ({counts}) in {results['elapsed_time']:.0f} s"


def stage_summary(home: Home) -> dict:
    """The last run by stage (the folder a node's file is in): nodes built and tests run, by status, and
    every node that failed with the first line of its message."""
    results = _results(home)
    manifest = json.loads((target_dir(home) / "manifest.json").read_text())
    nodes = {**manifest.get("nodes", {}), **manifest.get("unit_tests", {})}
    stages: dict[str, dict[str, Counter]] = defaultdict(lambda: {"built": Counter(), "tests": Counter()})
    failures = []
    for result in results["results"]:
        kind = result["unique_id"].split(".")[0]
        if kind not in ("model", "seed", "snapshot", *TEST_TYPES):
            continue  # exposures and the like: nothing is built
        node = nodes.get(result["unique_id"], {})
        stages[_stage(node.get("original_file_path", ""))]["tests" if kind in TEST_TYPES else "built"][
            result["status"]] += 1
        if result["status"] in FAILED:
            message = (result.get("message") or "").strip().splitlines()
            failures.append({"node": result["unique_id"], "status": result["status"],
                             "message": message[0] if message else ""})
    order = [s for s in STAGES if s in stages] + sorted(set(stages) - set(STAGES))
    return {
        "nodes": len(results["results"]),
        "elapsed_s": round(results["elapsed_time"], 1),
        "stages": {s: {k: dict(v) for k, v in stages[s].items()} for s in order},
        "failures": failures,
        "log": str(log_dir(home) / "dbt.log"),
    }


def _stage(path: str) -> str:
    """``models/staging/measure/_x.yml`` is staging, ``seeds/shifts.csv`` seeds, ``tests/x.sql`` tests."""
    parts = Path(path).parts
    if len(parts) > 1 and parts[0] == "models":
        return parts[1]
    return parts[0] if parts else "other"


def summary_lines(summary: dict) -> list[str]:
    failed = len(summary["failures"])
    lines = [f"dbt build: {summary['nodes']} nodes in {summary['elapsed_s']:.0f} s, "
             + (f"{failed} failed" if failed else "all passed")]
    for stage, counts in summary["stages"].items():
        built, tests = counts["built"], counts["tests"]
        built_text = _counted(built, "built", {"success"}) if built else ""
        tests_text = _counted(tests, "tests passed", {"pass"}) if tests else ""
        lines.append(f"  {stage:<14}{built_text:<16}{tests_text}".rstrip())
    for failure in summary["failures"][:20]:
        lines.append(f"  {failure['status'].upper()} {failure['node']}: {failure['message']}")
    if failed > 20:
        lines.append(f"  ... {failed - 20} more")
    lines.append(f"full log: {shown(Path(summary['log']))}")
    return lines


def _counted(counts: dict, done: str, good: set[str]) -> str:
    """``22 built`` or ``35 tests passed, 1 fail``: the good statuses in words, the others named."""
    text = f"{sum(n for s, n in counts.items() if s in good):>3} {done}"
    others = [f"{n} {s}" for s, n in sorted(counts.items()) if s not in good]
    return ", ".join([text, *others])
