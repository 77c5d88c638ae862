"""The nightly Airflow DAG (dags/perfdb_nightly.py), parsed and run by Airflow itself.

Airflow runs in subprocesses with its own AIRFLOW_HOME (a tmp dir) and all configuration in environment
variables, so this pytest process never imports Airflow or writes an airflow.cfg. The metadata database is
a fresh PostgreSQL database created and dropped here; SQLite when PostgreSQL (or the async driver Airflow 3
needs for it, asyncpg) is not available.

End to end: day 1 is generated MEASURE data and passes, and its threshold exceptions are sent to a local
SMTP server and webhook; day 2 has two hours of one processor missing, which dbt accepts and the GX suites
do not: its run fails at ``check``, serving.duckdb stays as it was and the failure is alerted; day 3 never
arrived and its run is skipped. Runs are made for a logical date or with the ``day`` param, and
the day loaded is the day asked; the recovery the docs give for a failed run (``airflow dags clear
perfdb_nightly --run-id``) clears a run made with the ``day`` param.
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

import pytest

from alert_receivers import Receivers
from ingest.generate.measure import SystemSpec, generate
from ingest.home import Home
import read_only_db

REPO = Path(__file__).resolve().parents[2]
DAG_ID = "perfdb_nightly"
TASKS = ["wait_for_landing", "ingest", "build", "check", "publish", "report", "notify_exceptions"]
# beside report after publish; skipped without PERFDB_SUPERSET_URL (tests/stack/test_browser.py warms a real Superset)
WARM = "warm_dashboards"
POSTGRES = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}

# Runs inside the Airflow subprocess: `bag` describes the parsed DAGs, `run DATE [CONF]` runs dag.test() for
# the logical date DATE (what `airflow dags trigger --logical-date DATE` creates) with the run conf CONF.
# Retry delays are cut to a second so that a retried step cannot stall the test; the retry counts stay as
# the DAG defines them.
DRIVER = r"""
import datetime as dt, json, os, pathlib, sys
from airflow.dag_processing.dagbag import BundleDagBag

# as Airflow's own processes parse it: the DAG folder (bundle) on sys.path, so its modules import each other
folder = pathlib.Path(os.environ["AIRFLOW__CORE__DAGS_FOLDER"])
bag = BundleDagBag(dag_folder=folder, bundle_path=folder, bundle_name="dags-folder")
dag = bag.get_dag("perfdb_nightly")
if sys.argv[1] == "bag":
    result = {
        "import_errors": {str(k): str(v) for k, v in bag.import_errors.items()},
        "dag_ids": sorted(bag.dag_ids),
        "tasks": {t.task_id: {"upstream": sorted(t.upstream_task_ids), "retries": t.retries,
                              "on_failure_callback": bool(t.on_failure_callback)} for t in dag.tasks},
        "params": {k: dag.params[k] for k in dag.params},
        "max_active_runs": dag.max_active_runs,
        "schedule": [type(dag.timetable).__name__, dag.timetable.expression, str(dag.timetable.timezone)],
        "doc_md": dag.doc_md,
    }
else:
    for t in dag.tasks:
        t.retry_delay = dt.timedelta(seconds=1)
    logical = dt.datetime.combine(dt.date.fromisoformat(sys.argv[2]), dt.time(), tzinfo=dt.timezone.utc)
    run = dag.test(logical_date=logical, run_conf=json.loads(sys.argv[3]) if len(sys.argv) > 3 else None)
    result = {
        "run_id": run.run_id,
        "state": str(run.state),
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

    def cli(self, *args: str) -> str:
        """``airflow ARGS`` as a user types it; its standard output."""
        proc = subprocess.run([str(Path(sys.executable).with_name("airflow")), *args], env=self.env,
                              capture_output=True, text=True, timeout=1200)
        assert proc.returncode == 0, f"airflow {' '.join(args)}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        return proc.stdout


@pytest.fixture(scope="module")
def airflow(tmp_path_factory):
    airflow_home = tmp_path_factory.mktemp("airflow_home")
    env = {
        **os.environ,
        "AIRFLOW_HOME": str(airflow_home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(REPO / "dags"),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
    }
    env.pop("PERFDB_SUPERSET_URL", None)  # no Superset here: the warm-up is skipped
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
    assert bag["dag_ids"] == ["perfdb_nightly", "perfdb_weekly_check"]  # perfdb_notify.py is no DAG file
    tasks = bag["tasks"]
    assert set(tasks) == {*TASKS, WARM}
    # a straight line: each step waits for the one before it; the warm-up waits for the publish only
    assert [tasks[t]["upstream"] for t in TASKS] == [[]] + [[before] for before in TASKS[:-1]]
    assert tasks[WARM]["upstream"] == ["publish"]
    assert {t: tasks[t]["retries"] for t in tasks} == {
        "wait_for_landing": 2, "ingest": 2, "build": 2, "check": 2, "publish": 2, "report": 2, "notify_exceptions": 2,
        WARM: 2,
    }
    assert all(tasks[t]["on_failure_callback"] for t in tasks)
    assert bag["params"] == {"day": None, "accept_rejects": False}
    assert bag["max_active_runs"] == 1
    # daily intervals: one run per measured day, midnight to midnight
    assert bag["schedule"] == ["CronDataIntervalTimetable", "0 0 * * *", "UTC"]
    doc = bag["doc_md"]
    for promise in ("landing/<day>/_SUCCESS", "serving.duckdb", "airflow dags clear perfdb_nightly --run-id",
                    "perfdb build --full-refresh", "perfdb check --all", "accept_rejects", "PERFDB_ALERT_WEBHOOK_URL",
                    "--logical-date 2026-01-05", "\"day\": \"2026-01-05\""):
        assert promise in doc, promise


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


def _generate_day(home: Home, day: dt.date, *, complete: bool = True) -> Path:
    # one saturated processor, so that the day has threshold violations to report
    spec = SystemSpec("\\NIGHT1", cpus=2, start=day, days=1, processes=4, discs=1, lines=1, seed=7, saturated_cpus=1)
    folder = home.landing / day.isoformat()
    generate(spec, folder, ["csv"])
    if complete:
        (folder / "_SUCCESS").touch()  # written last: the folder is complete
    return folder


def _add_a_bad_cpu_record(folder: Path) -> None:
    """A copy of a CPU record whose busy time is not a number: that record is rejected, the day stays complete."""
    (path,) = folder.rglob("cpu.csv")
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    bad = list(rows[1])
    bad[rows[0].index("cpu-busy-time")] = "not-a-number"
    with path.open("w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([*rows, bad])


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


@pytest.fixture(scope="module")
def receivers():
    running = Receivers()
    yield running
    running.close()


def _states(run: dict) -> dict[str, str]:
    return {t: s for t, (s, _, _) in run["tasks"].items()}


def _alerts(receivers: Receivers) -> list[tuple[str, dict]]:
    """(mail subject, webhook payload) pairs, one per alert; each alert went by both channels."""
    mails, posts = receivers.received.mails, receivers.received.posts
    assert len(mails) == len(posts), (mails, posts)
    for sender, recipients, message in mails:
        assert sender == "perfdb@example.org"
        assert recipients == ["ops@example.org", "perf@example.org"]
    assert all(p["path"] == "/hooks/perfdb" and p["content_type"] == "application/json" for p in posts)
    return [(m[2]["Subject"], p["json"]) for m, p in zip(mails, posts)]


def test_nightly_publishes_a_valid_day_and_stops_a_broken_one_at_check(airflow, receivers, tmp_path):
    home = Home(tmp_path / "home").create()
    day1, day2 = dt.date(2026, 1, 5), dt.date(2026, 1, 6)
    _generate_day(home, day1)
    broken = _generate_day(home, day2)
    assert _drop_cpu_hours(broken, "1", [f"{day2} 10:00:00", f"{day2} 11:00:00"]) == 2
    env = {"PERFDB_HOME": str(home.root), **receivers.env}

    # `airflow dags trigger --logical-date 2026-01-05` loads 2026-01-05 (not the day before)
    receivers.clear()
    first = airflow.run("run", day1.isoformat(), extra_env=env)
    assert first["state"] == "success", first
    assert _states(first) == {**{t: "success" for t in TASKS}, WARM: "skipped"}
    # only day 1 was ingested: 2 processors x 3 shifts of 8 hours; the _SUCCESS marker is no input file
    assert read_only_db.rows(home.serving_path, "select count(*), min(n_hours), max(n_hours), min(shift_date), max(shift_date) "
                                     "from marts.fct_cpu_shift") == [(6, 8, 8, day1, day1)]
    assert read_only_db.rows(home.db_path, "select count(*) from raw.ingest_files where path like '%_SUCCESS'") == [(0,)]
    assert read_only_db.rows(home.serving_path, "select success from audit.validation_runs") == [(True,)]
    # the report file is what `perfdb report threshold` prints for the day (the 1986 Figure 1 layout)
    report = (home.reports_dir / f"threshold_{day1}.txt").read_text()
    assert "THRESHOLD REPORT" in report and " SYSTEM: \\NIGHT1" in report and " DATE: 01/05/26" in report
    printed = subprocess.run(
        [str(Path(sys.executable).with_name("perfdb")), "--home", str(home.root), "report", "threshold", "--date", str(day1)],
        capture_output=True, text=True, check=True,
    ).stdout
    assert report == printed
    # the day's threshold exceptions went out once, by e-mail and by the webhook
    [(exceptions,)] = read_only_db.rows(home.serving_path, f"select count(*) from marts.rpt_threshold_exceptions "
                                                f"where exception_date = date '{day1}'")
    assert exceptions > 0
    [(subject, payload)] = _alerts(receivers)
    assert subject == payload["subject"] == f"perfdb: {exceptions} threshold exceptions on {day1}"
    assert payload["kind"] == "exceptions" and payload["day"] == str(day1) and payload["exceptions"] == exceptions
    assert "\\NIGHT1  CPU-" in payload["body"] and report in payload["body"]
    assert payload["text"].startswith(subject)
    published = home.serving_path.read_bytes()

    receivers.clear()
    second = airflow.run("run", day2.isoformat(), extra_env=env)
    assert second["state"] == "failed", second
    assert _states(second) == {
        "wait_for_landing": "success", "ingest": "success", "build": "success",
        "check": "failed", "publish": "upstream_failed", "report": "upstream_failed", "notify_exceptions": "upstream_failed",
        WARM: "upstream_failed",
    }
    assert second["tasks"]["check"][1] == 1  # a failed validation is final: no retry
    assert home.serving_path.read_bytes() == published
    assert not (home.reports_dir / f"threshold_{day2}.txt").exists()
    # the failed night was alerted once, naming the day, the task, the failed expectation and the way on
    [(subject, payload)] = _alerts(receivers)
    assert subject == payload["subject"] == f"perfdb: {day2} failed at check"
    assert (payload["kind"], payload["day"], payload["task_id"]) == ("failure", str(day2), "check")
    assert "no_gap_longer_than_an_interval" in payload["body"] and "perfdb remove FILE" in payload["body"]

    latest = "(select run_id from audit.validation_runs order by started_at desc limit 1)"
    assert read_only_db.rows(home.db_path, f"select success from audit.validation_runs where run_id = {latest}") == [(False,)]
    failed = read_only_db.rows(home.db_path, f"select suite, expectation, unexpected_count from audit.validation_results "
                                  f"where run_id = {latest} and not success order by suite, expectation")
    assert ("raw.measure_cpu", "no_gap_longer_than_an_interval", 1) in failed
    assert ("marts.fct_cpu_shift", "complete_shift_has_all_hours", 1) in failed

    # a past day for which no file ever arrived is skipped at once, with the rest of its run: nothing to load,
    # nothing failed, no alert
    receivers.clear()
    day3 = day2 + dt.timedelta(days=1)
    third = airflow.run("run", day3.isoformat(), extra_env=env)
    assert third["state"] == "success"
    assert _states(third) == {t: "skipped" for t in [*TASKS, WARM]}
    assert home.serving_path.read_bytes() == published
    assert _alerts(receivers) == []


def test_a_run_loads_the_day_param_and_publishes_rejects_only_when_accepted(airflow, tmp_path):
    home = Home(tmp_path / "home").create()
    accepted, refused, unfinished = dt.date(2026, 1, 12), dt.date(2026, 1, 13), dt.date(2026, 1, 14)
    for day in (accepted, refused):
        _add_a_bad_cpu_record(_generate_day(home, day))
    _generate_day(home, unfinished, complete=False)  # files still being copied: no _SUCCESS yet
    env = {"PERFDB_HOME": str(home.root)}
    logical = "2026-03-01"  # a date with no folder: only the param says which day to load

    def ingested_days() -> set[str]:
        rows = read_only_db.rows(home.db_path, "select path from raw.ingest_files")
        return {Path(path).relative_to(home.landing).parts[0] for (path,) in rows}

    run = airflow.run("run", logical, json.dumps({"day": str(accepted), "accept_rejects": True}), extra_env=env)
    assert _states(run) == {**{t: "success" for t in TASKS}, WARM: "skipped"}
    assert ingested_days() == {str(accepted)}
    assert read_only_db.rows(home.serving_path, "select distinct shift_date from marts.fct_cpu_shift") == [(accepted,)]
    assert read_only_db.rows(home.serving_path, "select count(*) from raw.rejects") == [(1,)]
    published = home.serving_path.read_bytes()

    # without accept_rejects, a day with a rejected record stops after ingest and publishes nothing
    run = airflow.run("run", logical, json.dumps({"day": str(refused)}), extra_env=env)
    assert _states(run) == {"wait_for_landing": "success", "ingest": "failed", **{t: "upstream_failed" for t in [*TASKS[2:], WARM]}}
    assert run["tasks"]["ingest"][1] == 1  # no retry: the files are in the manifest now
    assert ingested_days() == {str(accepted), str(refused)}
    assert home.serving_path.read_bytes() == published

    # a folder without its _SUCCESS marker is never read, however many files it already holds
    run = airflow.run("run", logical, json.dumps({"day": str(unfinished)}), extra_env=env)
    assert _states(run) == {"wait_for_landing": "failed", **{t: "upstream_failed" for t in [*TASKS[1:], WARM]}}
    assert str(unfinished) not in ingested_days()

    # the recovery the DAG's doc and the alert give for a failed run matches a run made with the day param: the
    # run's tasks are cleared to run again (once the marker is there)
    airflow.cli("dags", "clear", "perfdb_nightly", "--run-id", run["run_id"], "-y")
    states = json.loads(airflow.cli("tasks", "states-for-dag-run", "perfdb_nightly", run["run_id"], "-o", "json"))
    assert {row["task_id"]: row["state"] for row in states} == {t: "" for t in [*TASKS, WARM]}  # no state: to run
