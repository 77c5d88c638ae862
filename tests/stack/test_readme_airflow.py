"""The README's "Running the DAG on your machine" steps, run literally as a newcomer runs them.

The two bash blocks of that section are taken from README.md as they are printed: the first (land a day,
write its ``_SUCCESS`` marker, ``airflow standalone``) runs in the background in a fresh directory holding
a link to ``dags/``; the second (register the DAG, unpause it, backfill the day, list the runs) runs once
the API server answers. The DAG starts paused, as every new DAG does. The test then follows the runs with
``airflow dags list-runs`` until the day's run ends, and checks that it is green, that the day is in the
published warehouse and that its threshold report was written. The scheduled run that unpausing starts (the
day that just ended, with no files) may wait or be skipped, never fail.

Only what a shared test machine needs is added to the README's environment: free ports instead of 8080,
8793 and 8794, and a longer execution-API timeout, since workers ask the API server and this machine may be
running other tests at the same time.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import requests

import superset_stack

REPO = Path(__file__).resolve().parents[2]
SECTION = "### Running the DAG on your machine"
DAY = "2026-03-06"
START_TIMEOUT_S = 300
RUN_TIMEOUT_S = 1200


def readme_blocks() -> list[str]:
    """The bash blocks of the README's section on running the DAG, in order."""
    text = (REPO / "README.md").read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```bash\n(.*?)```", section, flags=re.S)


def _bash(script: str) -> str:
    # `set -e`: a step of the README that fails stops the block, as it would stop the reader
    return "set -euo pipefail\n" + script


def _runs(env: dict[str, str], cwd: Path) -> list[dict]:
    proc = subprocess.run(["airflow", "dags", "list-runs", "perfdb_nightly", "-o", "json"], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_readme_airflow_steps_take_a_paused_dag_to_a_green_run_of_the_day(tmp_path):
    start, trigger = readme_blocks()
    assert start.rstrip().splitlines()[-1].startswith("airflow standalone")
    assert "_SUCCESS" in start and "airflow dags unpause perfdb_nightly" in trigger

    (tmp_path / "dags").symlink_to(REPO / "dags")
    api, worker_logs, trigger_logs = (superset_stack.free_port() for _ in range(3))
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",  # `perfdb`, `airflow`
        "AIRFLOW__API__PORT": str(api),
        "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"http://localhost:{api}/execution/",
        "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(worker_logs),
        "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(trigger_logs),
        "AIRFLOW__WORKERS__EXECUTION_API_TIMEOUT": "60",
    }
    # only the README's own exports; the session's saved dbt parse (PERFDB_CACHE, tests/conftest.py) stays, as a
    # reader's cache after `make demo` would: without it the DAG's build parses the project again, into ~/.cache
    for name in [k for k in env if k.startswith(("AIRFLOW__DATABASE", "PERFDB_", "AIRFLOW_HOME")) and k != "PERFDB_CACHE"]:
        del env[name]
    env.pop("AIRFLOW__CORE__DAGS_FOLDER", None)
    log = tmp_path / "standalone.log"
    with log.open("wb") as out:
        standalone = subprocess.Popen(["bash", "-c", _bash(start)], cwd=tmp_path, env=env, stdout=out,
                                      stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert standalone.poll() is None, f"airflow standalone stopped:\n{log.read_text()[-5000:]}"
            try:
                if requests.get(f"http://127.0.0.1:{api}/api/v2/monitor/health", timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, f"no API server after {START_TIMEOUT_S} s:\n{log.read_text()[-5000:]}"
            time.sleep(2)

        # the second terminal: the README's exports, then its commands
        exports = "\n".join(line for line in start.splitlines() if line.startswith("export "))
        steps = subprocess.run(["bash", "-c", _bash(exports + "\n" + trigger)], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=600)
        assert steps.returncode == 0, steps.stdout[-5000:] + steps.stderr[-5000:]

        readme_env = {**env, "PERFDB_HOME": str(tmp_path / "perfdb_home"), "AIRFLOW_HOME": str(tmp_path / "airflow_home"),
                      "AIRFLOW__CORE__DAGS_FOLDER": str(tmp_path / "dags"), "AIRFLOW__CORE__LOAD_EXAMPLES": "False"}
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while True:
            runs = {run["run_id"]: run for run in _runs(readme_env, tmp_path)}
            [backfill] = [run for run in runs.values() if run["run_id"].startswith("backfill__")]
            if backfill["state"] in ("success", "failed"):
                break
            assert time.monotonic() < deadline, f"the {DAY} run did not end in {RUN_TIMEOUT_S} s: {runs}"
            time.sleep(10)
    finally:
        os.killpg(standalone.pid, signal.SIGTERM)
        try:
            standalone.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(standalone.pid, signal.SIGKILL)
            standalone.wait()

    assert backfill["state"] == "success", f"{backfill}\n{log.read_text()[-8000:]}"
    assert backfill["logical_date"].startswith(DAY)
    # the scheduled run of the day that just ended has no files: it waits or is skipped, it never fails
    assert all(run["state"] != "failed" for run in runs.values()), runs

    home = tmp_path / "perfdb_home"
    report = (home / "reports" / f"threshold_{DAY}.txt").read_text()
    assert "DATE: 03/06/26" in report  # the ENFORM report prints its day as MM/DD/YY
    con = duckdb.connect(str(home / "warehouse" / "serving.duckdb"), read_only=True)
    try:
        days = con.sql("select distinct shift_date from marts.fct_cpu_shift").fetchall()
        [(systems,)] = con.sql("select count(distinct system_name) from raw.measure_cpu").fetchall()
    finally:
        con.close()
    assert [str(day) for (day,) in days] == [DAY]
    assert systems >= 1
