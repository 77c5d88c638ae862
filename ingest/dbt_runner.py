"""Runs dbt as a subprocess against a perfdb home.

A subprocess rather than dbt's Python API: the same command works from the CLI, from Airflow (whose
dependencies may differ from dbt's) and by hand, and dbt's DuckDB connection is closed when it exits.
dbt's target/ and logs/ go under the home, so the repository stays clean and two homes never collide.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from ingest.home import Home

DBT_PROJECT = Path(os.environ.get("PERFDB_DBT_PROJECT", Path(__file__).resolve().parents[1] / "dbt_project"))


def dbt_executable() -> str:
    local = Path(sys.executable).parent / "dbt"
    return str(local) if local.exists() else (shutil.which("dbt") or "dbt")


def target_dir(home: Home, target: str = "duckdb") -> Path:
    """dbt's target/ of a target: one each, so that switching targets keeps partial parsing."""
    return home.warehouse_dir / ("dbt_target" if target == "duckdb" else f"dbt_target_{target}")


def dbt_env(home: Home, target: str = "duckdb", lake: Path | None = None, master: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PERFDB_DUCKDB_PATH"] = str(home.db_path)
    env["DBT_LOG_PATH"] = str(home.warehouse_dir / "dbt_logs")
    env["DBT_TARGET_PATH"] = str(target_dir(home, target))
    if lake is not None:  # the Spark targets: where the raw layer is and the marts go (profiles.yml)
        env["PERFDB_LAKE"] = str(lake)
    if master is not None:
        env["PERFDB_SPARK_MASTER"] = master
    env.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    return env


def run_dbt(home: Home, args: list[str], *, quiet: bool = False, target: str = "duckdb",
            lake: Path | None = None, master: str | None = None) -> int:
    cmd = [dbt_executable(), *args, "--project-dir", str(DBT_PROJECT), "--profiles-dir", str(DBT_PROJECT),
           "--target", target]
    proc = subprocess.run(
        cmd,
        env=dbt_env(home, target, lake, master),
        cwd=str(DBT_PROJECT),
        stdout=subprocess.PIPE if quiet else None,
        stderr=subprocess.STDOUT if quiet else None,
        text=True,
    )
    if proc.returncode != 0 and quiet and proc.stdout:
        sys.stderr.write(proc.stdout[-20000:])
    return proc.returncode


def build(home: Home, *, select: str | None = None, quiet: bool = False, target: str = "duckdb",
          lake: Path | None = None, master: str | None = None) -> int:
    args = ["build"]
    if select:
        args += ["--select", select]
    return run_dbt(home, args, quiet=quiet, target=target, lake=lake, master=master)


def last_run_summary(home: Home, target: str = "duckdb") -> str:
    """One line from dbt's run_results.json: how many nodes ended in which status, and how long."""
    results = json.loads((target_dir(home, target) / "run_results.json").read_text())
    statuses = Counter(r["status"] for r in results["results"])
    counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    return f"dbt build: {len(results['results'])} nodes ({counts}) in {results['elapsed_time']:.0f} s"
