"""The nightly Airflow DAG (dags/perfdb_nightly.py), parsed and run by Airflow itself.

Airflow runs in subprocesses with its own AIRFLOW_HOME (a tmp dir) and all configuration in environment
variables, so this pytest process never imports Airflow or writes an airflow.cfg. The metadata database is
a fresh PostgreSQL database created and dropped here; SQLite when PostgreSQL (or the async driver Airflow 3
needs for it, asyncpg) is not available.

End to end: day 1 is generated MEASURE data and passes; day 2 has two hours of one processor missing,
which dbt accepts and the GX suites do not: its run fails at ``check`` and serving.duckdb stays as it was;
day 3 never arrived and fails at ``wait_for_landing``.
"""

from __future__ import annotations

import csv
import datetime as dt
import importlib.util
import json
import os
import subprocess
import sys
import uuid
import warnings
from pathlib import Path

import duckdb
import pytest

from ingest.generate.measure import SystemSpec, generate
from ingest.home import Home

REPO = Path(__file__).resolve().parents[2]
DAG_ID = "perfdb_nightly"
TASKS = ["wait_for_landing", "ingest", "build", "check", "publish", "report"]
POSTGRES = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}

# Runs inside the Airflow subprocess: `bag` describes the parsed DAG, `run DAY` runs dag.test() for the data
# interval that is DAY. Retry delays are cut to a second so that a retried step cannot stall the test;
# the retry counts stay as the DAG defines them.
DRIVER = r"""
import datetime as dt, json, sys
from airflow.dag_processing.dagbag import DagBag

bag = DagBag()
dag = bag.get_dag("perfdb_nightly")
if sys.argv[1] == "bag":
    result = {
        "import_errors": {str(k): str(v) for k, v in bag.import_errors.items()},
        "tasks": {t.task_id: {"upstream": sorted(t.upstream_task_ids), "retries": t.retries} for t in dag.tasks},
        "max_active_runs": dag.max_active_runs,
        "schedule": [type(dag.timetable).__name__, dag.timetable.expression, str(dag.timetable.timezone)],
        "doc_md": dag.doc_md,
    }
else:
    for t in dag.tasks:
        t.retry_delay = dt.timedelta(seconds=1)
    day = dt.date.fromisoformat(sys.argv[2])
    # a manual run covers the last complete day before its logical date
    logical = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.timezone.utc)
    run = dag.test(logical_date=logical)
    result = {
        "state": str(run.state),
        "data_interval_start": run.data_interval_start.isoformat(),
        "tasks": {ti.task_id: [str(ti.state), ti.try_number, ti.duration] for ti in run.get_task_instances()},
    }
print("DRIVER-RESULT " + json.dumps(result))
"""


def _postgres_usable() -> bool:
    import psycopg2

    try:
        psycopg2.connect(dbname="postgres", connect_timeout=3, **POSTGRES).close()
    except psycopg2.OperationalError:
        return False
    if importlib.util.find_spec("asyncpg") is None:
        warnings.warn("PostgreSQL is reachable but asyncpg is not installed; Airflow's metadata goes to SQLite", stacklevel=2)
        return False
    return True


def _postgres(statement: str) -> None:
    import psycopg2

    con = psycopg2.connect(dbname="postgres", **POSTGRES)
    con.autocommit = True  # CREATE / DROP DATABASE cannot run in a transaction
    try:
        con.cursor().execute(statement)
    finally:
        con.close()


class Airflow:
    def __init__(self, env: dict[str, str]):
        self.env = env

    def run(self, *args: str, extra_env: dict[str, str] | None = None) -> dict:
        proc = subprocess.run(
            [sys.executable, "-c", DRIVER, *args],
            env={**self.env, **(extra_env or {})},
            capture_output=True,
            text=True,
            timeout=1200,
        )
        lines = [line for line in proc.stdout.splitlines() if line.startswith("DRIVER-RESULT ")]
        assert proc.returncode == 0 and lines, f"airflow driver failed:\n{proc.stdout[-5000:]}\n{proc.stderr[-5000:]}"
        return json.loads(lines[-1].removeprefix("DRIVER-RESULT "))


@pytest.fixture(scope="module")
def airflow(tmp_path_factory):
    airflow_home = tmp_path_factory.mktemp("airflow_home")
    env = {
        **os.environ,
        "AIRFLOW_HOME": str(airflow_home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(REPO / "dags"),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
    }
    database = None
    if _postgres_usable():
        database = f"perfdb_airflow_test_{uuid.uuid4().hex[:12]}"
        _postgres(f'create database "{database}"')
        env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"] = (
            f"postgresql+psycopg2://{POSTGRES['user']}@{POSTGRES['host']}:{POSTGRES['port']}/{database}"
        )
    else:
        env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"] = f"sqlite:///{airflow_home / 'airflow.db'}"
    try:
        migrate = subprocess.run(
            [str(Path(sys.executable).with_name("airflow")), "db", "migrate"], env=env, capture_output=True, text=True
        )
        assert migrate.returncode == 0, migrate.stdout[-3000:] + migrate.stderr[-3000:]
        yield Airflow(env)
    finally:
        if database:
            _postgres(f'drop database if exists "{database}" with (force)')


def test_dagbag_imports_the_dag_with_its_tasks_in_order(airflow):
    bag = airflow.run("bag")
    assert bag["import_errors"] == {}
    tasks = bag["tasks"]
    assert set(tasks) == set(TASKS)
    # a straight line: each step waits for the one before it
    assert [tasks[t]["upstream"] for t in TASKS] == [[]] + [[before] for before in TASKS[:-1]]
    assert {t: tasks[t]["retries"] for t in TASKS} == {
        "wait_for_landing": 0, "ingest": 2, "build": 2, "check": 2, "publish": 2, "report": 2,
    }
    assert bag["max_active_runs"] == 1
    # daily intervals: one run per measured day, midnight to midnight
    assert bag["schedule"] == ["CronDataIntervalTimetable", "0 0 * * *", "UTC"]
    assert "landing/<day>" in bag["doc_md"] and "serving.duckdb" in bag["doc_md"]


def test_dag_file_imports_nothing_heavy(tmp_path):
    code = (
        f"import sys; sys.path.insert(0, {str(REPO / 'dags')!r}); import perfdb_nightly; "
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'duckdb', 'dbt', 'great_expectations', 'pandas', 'ingest', 'quality'}); "
        "print(heavy)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "AIRFLOW_HOME": str(tmp_path), "AIRFLOW__CORE__LOAD_EXAMPLES": "False"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def _generate_day(home: Home, day: dt.date) -> Path:
    # one saturated processor, so that the day has threshold violations to report
    spec = SystemSpec("\\NIGHT1", cpus=2, start=day, days=1, processes=4, discs=1, lines=1, seed=7, saturated_cpus=1)
    folder = home.landing / day.isoformat()
    generate(spec, folder, ["csv"])
    return folder


def _drop_cpu_hours(folder: Path, cpu_num: str, hours: list[str]) -> int:
    """Removes the records of one processor for the given hours from the day's CPU file."""
    (path,) = folder.rglob("cpu.csv")
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    header, records = rows[0], rows[1:]
    cpu, start = header.index("cpu-num"), header.index("from-timestamp")
    kept = [r for r in records if not (r[cpu] == cpu_num and r[start] in hours)]
    with path.open("w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *kept])
    return len(records) - len(kept)


def _query(path: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_nightly_publishes_a_valid_day_and_stops_a_broken_one_at_check(airflow, tmp_path):
    home = Home(tmp_path / "home").create()
    day1, day2 = dt.date(2026, 1, 5), dt.date(2026, 1, 6)
    _generate_day(home, day1)
    broken = _generate_day(home, day2)
    assert _drop_cpu_hours(broken, "1", [f"{day2} 10:00:00", f"{day2} 11:00:00"]) == 2
    env = {"PERFDB_HOME": str(home.root)}

    first = airflow.run("run", day1.isoformat(), extra_env=env)
    assert first["data_interval_start"].startswith(day1.isoformat())
    assert first["state"] == "success", first
    assert {t: s for t, (s, _, _) in first["tasks"].items()} == {t: "success" for t in TASKS}
    # only day 1 was ingested: 2 processors x 3 shifts of 8 hours
    assert _query(home.serving_path, "select count(*), min(n_hours), max(n_hours), min(shift_date), max(shift_date) "
                                     "from marts.fct_cpu_shift") == [(6, 8, 8, day1, day1)]
    assert _query(home.serving_path, "select success from audit.validation_runs") == [(True,)]
    # the report file is what `perfdb report threshold` prints for the day (the 1986 Figure 1 layout)
    report = (home.reports_dir / f"threshold_{day1}.txt").read_text()
    assert "THRESHOLD REPORT" in report and " SYSTEM: \\NIGHT1" in report and " DATE: 01/05/26" in report
    printed = subprocess.run(
        [str(Path(sys.executable).with_name("perfdb")), "--home", str(home.root), "report", "threshold", "--date", str(day1)],
        capture_output=True, text=True, check=True,
    ).stdout
    assert report == printed
    published = home.serving_path.read_bytes()

    second = airflow.run("run", day2.isoformat(), extra_env=env)
    assert second["state"] == "failed", second
    states = {t: s for t, (s, _, _) in second["tasks"].items()}
    assert states == {
        "wait_for_landing": "success", "ingest": "success", "build": "success",
        "check": "failed", "publish": "upstream_failed", "report": "upstream_failed",
    }
    assert second["tasks"]["check"][1] == 1  # a failed validation is final: no retry
    assert home.serving_path.read_bytes() == published
    assert not (home.reports_dir / f"threshold_{day2}.txt").exists()

    latest = "(select run_id from audit.validation_runs order by started_at desc limit 1)"
    assert _query(home.db_path, f"select success from audit.validation_runs where run_id = {latest}") == [(False,)]
    failed = _query(home.db_path, f"select suite, expectation, unexpected_count from audit.validation_results "
                                  f"where run_id = {latest} and not success order by suite, expectation")
    assert ("raw.measure_cpu", "no_gap_longer_than_an_interval", 1) in failed
    assert ("marts.fct_cpu_shift", "complete_shift_has_all_hours", 1) in failed

    # a past day whose files never arrived fails at once instead of waiting hours for them
    third = airflow.run("run", (day2 + dt.timedelta(days=1)).isoformat(), extra_env=env)
    assert {t: s for t, (s, _, _) in third["tasks"].items()} == {
        "wait_for_landing": "failed", **{t: "upstream_failed" for t in TASKS[1:]}
    }
    assert home.serving_path.read_bytes() == published
