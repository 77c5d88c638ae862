"""``perfdb_nightly``: the nightly load of the performance data base, one run per measured day.

Every step is the ``perfdb`` command a user runs by hand, started as a subprocess: dbt and GX live in
perfdb's environment and never meet Airflow's dependencies in one interpreter (``PERFDB_BIN`` may point
into a separate virtualenv). Importing this file only defines the DAG.

Landing convention: the files measured on day D go below ``<home>/landing/<D>/`` (any layout beneath,
e.g. ``perfdb generate measure --start D --days 1 --out <home>/landing/D``). The run whose data interval
is day D waits for that folder, ingests everything below it and reports on day D.

Environment (read when a task runs, except the two schedule settings, read when the file is parsed):

    PERFDB_HOME            the perfdb home (landing/, warehouse/, reports/); required
    PERFDB_BIN             the perfdb executable (default: next to this interpreter, else on PATH)
    PERFDB_NIGHTLY_START   first measured day the DAG knows, YYYY-MM-DD (default 2026-01-01)
    PERFDB_TIMEZONE        the time zone whose midnight ends a measured day (default UTC)
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

from airflow.sdk import CronDataIntervalTimetable, PokeReturnValue, dag, task
from airflow.sdk.exceptions import AirflowFailException

log = logging.getLogger(__name__)

TIMEZONE = os.environ.get("PERFDB_TIMEZONE", "UTC")
LANDING_WAIT = dt.timedelta(hours=12)  # how long after a day ends its files may still arrive
START = dt.datetime.fromisoformat(os.environ.get("PERFDB_NIGHTLY_START", "2026-01-01")).replace(tzinfo=ZoneInfo(TIMEZONE))

DOC_MD = """
### perfdb nightly load

**Purpose.** Each run loads one measured day into the perfdb warehouse and publishes it only when it is
valid, the way the 1986 MEASURE + ENFORM performance data base was kept: nightly conversion, condensation,
then the daily threshold report.

| task | command | on failure |
|---|---|---|
| `wait_for_landing` | waits until `<home>/landing/<day>/` holds a file (reschedules, up to 12 h after the day) | fails: no data arrived (at once for a day that ended longer ago) |
| `ingest` | `perfdb --json ingest <home>/landing/<day>` | a rejected record or file fails at once; a crash is retried |
| `build` | `perfdb build` (dbt build: staging, intermediate, marts, dbt tests; the day models rebuild only the days loaded or removed since the last build; then retention, seed `retention`) | retried |
| `check` | `perfdb --json check` (Great Expectations; results in `audit.validation_*`, Data Docs in `warehouse/docs/`) | failing expectations fail at once and are listed; a check that could not run is retried |
| `publish` | `perfdb publish` (atomic swap of `warehouse/serving.duckdb`) | retried |
| `report` | `perfdb report threshold --date <day>` into `<home>/reports/threshold_<day>.txt` | retried |

**Day.** The data interval is one calendar day in `PERFDB_TIMEZONE`; `<day>` is its first date.

**Safety.** A failed step stops the run before `publish`, so readers keep yesterday's `serving.duckdb`.
Every step is idempotent: re-running a day whose files were already ingested changes no data.
`max_active_runs=1`, because DuckDB has one writer.

**Full refresh.** After a change of a model or seed, run `perfdb build --full-refresh` once by hand
(`perfdb build` names the models that need it); the nightly build stays incremental.

**Backfill.** `airflow backfill create --dag-id perfdb_nightly --from-date 2026-01-05 --to-date 2026-02-05`
runs the days one after another; set `AIRFLOW__SCHEDULER__CATCHUP_BY_DEFAULT=True` to catch up
automatically after downtime.

**Configuration.** `PERFDB_HOME` (required), `PERFDB_BIN`, `PERFDB_NIGHTLY_START`, `PERFDB_TIMEZONE`.
"""


class PerfdbCommandError(RuntimeError):
    """The command could not do its work (crash, lock, I/O); worth retrying."""


def _home() -> Path:
    home = os.environ.get("PERFDB_HOME")
    if not home:
        raise AirflowFailException("PERFDB_HOME is not set: point it at the perfdb home (landing/, warehouse/)")
    return Path(home)


def _perfdb_bin() -> str:
    if os.environ.get("PERFDB_BIN"):
        return os.environ["PERFDB_BIN"]
    beside = Path(sys.executable).with_name("perfdb")
    return str(beside) if beside.exists() else (shutil.which("perfdb") or "perfdb")


def _perfdb(*args: str, capture: bool = False) -> subprocess.CompletedProcess:
    """Runs ``perfdb --home <home> ARGS``; stderr (and stdout unless captured) go to the task log."""
    command = [_perfdb_bin(), "--home", str(_home()), *args]
    log.info("running %s", shlex.join(command))
    return subprocess.run(command, stdout=subprocess.PIPE if capture else None, text=True)


def _json_summary(stdout: str | None) -> dict | None:
    try:
        return json.loads(stdout or "")
    except json.JSONDecodeError:
        return None


def _day(data_interval_start) -> str:
    return data_interval_start.astimezone(ZoneInfo(TIMEZONE)).date().isoformat()


@dag(
    dag_id="perfdb_nightly",
    schedule=CronDataIntervalTimetable("0 0 * * *", timezone=TIMEZONE),
    start_date=START,
    max_active_runs=1,
    doc_md=DOC_MD,
    tags=["perfdb", "measure"],
    default_args={
        "retries": 2,
        "retry_delay": dt.timedelta(minutes=5),
        "execution_timeout": dt.timedelta(hours=2),
    },
)
def perfdb_nightly():
    @task.sensor(poke_interval=15 * 60, timeout=LANDING_WAIT.total_seconds(), mode="reschedule", retries=0)
    def wait_for_landing(data_interval_start=None, data_interval_end=None) -> PokeReturnValue:
        folder = _home() / "landing" / _day(data_interval_start)
        arrived = folder.is_dir() and any(p.is_file() for p in folder.rglob("*"))
        log.info("%s: %s", folder, "files have arrived" if arrived else "nothing yet")
        if not arrived and dt.datetime.now(dt.timezone.utc) - data_interval_end > LANDING_WAIT:
            # a backfilled day whose files never came: fail now rather than hold the one-run slot for hours
            raise AirflowFailException(f"no files arrived in {folder} for {_day(data_interval_start)}")
        return PokeReturnValue(is_done=arrived)

    @task
    def ingest(data_interval_start=None) -> None:
        folder = _home() / "landing" / _day(data_interval_start)
        proc = _perfdb("--json", "ingest", str(folder), capture=True)
        summary = _json_summary(proc.stdout)
        if summary is None:
            raise PerfdbCommandError(f"perfdb ingest {folder} exited {proc.returncode} without a summary")
        log.info(
            "%s files: %s loaded, %s already ingested, %s with rejects, %s rejected, %s failed; %s rows",
            summary["files"], summary["loaded"], summary["duplicates"], summary["with_rejects"],
            summary["rejected"], summary["failed"], summary["rows_loaded"],
        )
        if proc.returncode != 0:
            # No automatic retry: the files are in the manifest now, so a retry would pass them as
            # duplicates. The way on is explicit: read raw.rejects, then either clear this task to accept
            # the day as loaded, or `perfdb remove` the bad files, land corrected ones and clear it.
            bad = [f"{r['path']}: {r['status']}: {'; '.join(r['messages'][:5]) or r['error']}"
                   for r in summary["results"] if r["status"] not in ("loaded", "duplicate")]
            raise AirflowFailException(
                "ingest rejected records or files (see raw.rejects; `perfdb remove FILE` un-ingests one):\n" + "\n".join(bad)
            )

    @task(execution_timeout=dt.timedelta(hours=4))
    def build() -> None:
        proc = _perfdb("build")
        if proc.returncode != 0:
            raise PerfdbCommandError(f"perfdb build (dbt build) exited {proc.returncode}; see the log above")

    @task
    def check() -> None:
        proc = _perfdb("--json", "check", capture=True)
        summary = _json_summary(proc.stdout)
        if summary is None or summary.get("error"):
            reason = summary["error"] if summary else f"exited {proc.returncode} without a summary"
            raise PerfdbCommandError(f"perfdb check could not validate the warehouse: {reason}")
        log.info("validation run %s: %s expectations in %s suites; Data Docs %s",
                 summary["run_id"], summary["expectations"], summary["suites_validated"], summary["docs"])
        if not summary["success"]:
            failed = "\n".join(f["message"] for f in summary["failed"])
            raise AirflowFailException(
                f"validation run {summary['run_id']} failed; serving.duckdb is left as it was (if a file is at fault, "
                f"`perfdb remove FILE` takes its rows out before the next run):\n{failed}"
            )

    @task
    def publish() -> None:
        proc = _perfdb("publish")
        if proc.returncode != 0:
            raise PerfdbCommandError(f"perfdb publish exited {proc.returncode}")

    @task
    def report(data_interval_start=None) -> str:
        day = _day(data_interval_start)
        proc = _perfdb("report", "threshold", "--date", day, capture=True)
        if proc.returncode != 0:
            raise PerfdbCommandError(f"perfdb report threshold --date {day} exited {proc.returncode}")
        target = _home() / "reports" / f"threshold_{day}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".new")
        partial.write_text(proc.stdout)
        partial.replace(target)  # a reader sees the old report or the new one, never half
        log.info("wrote %s", target)
        return str(target)

    wait_for_landing() >> ingest() >> build() >> check() >> publish() >> report()


perfdb_nightly()
