"""``perfdb_nightly``: the nightly load of the performance data base, one run per measured day.

Every step is the ``perfdb`` command a user runs by hand, started as a subprocess: dbt and GX live in
perfdb's environment and never meet Airflow's dependencies in one interpreter (``PERFDB_BIN`` may point
into a separate virtualenv). Importing this file only defines the DAG.

Landing convention: the files measured on day D go below ``<home>/landing/<D>/`` (any layout beneath,
e.g. ``perfdb generate measure --start D --days 1 --out <home>/landing/D``), and whoever fills the folder
writes an empty ``_SUCCESS`` file into it last (``touch <home>/landing/D/_SUCCESS``). The run for day D
waits for that marker, so it never reads a folder still being filled or a file still being copied, then
ingests everything below the folder (``perfdb ingest`` skips the marker) and reports on day D.

Which day a run loads: the ``day`` param when given; otherwise the day of the run's logical date, so a
scheduled run loads the day that just ended and ``airflow dags trigger perfdb_nightly --logical-date D``
loads D itself (not the day before).

Environment (read when a task runs, except the two schedule settings, read when the file is parsed):

    PERFDB_HOME            the perfdb home (landing/, warehouse/, reports/); required
    PERFDB_BIN             the perfdb executable (default: next to this interpreter, else on PATH)
    PERFDB_NIGHTLY_START   first measured day the DAG knows, YYYY-MM-DD (default 2026-01-01)
    PERFDB_TIMEZONE        the time zone whose midnight ends a measured day (default UTC)
    PERFDB_ALERT_*         where alerts go (e-mail, webhook): see perfdb_notify.py
    PERFDB_SUPERSET_URL    the Superset whose chart cache ``warm_dashboards`` fills after a publish, logging in
                           as SUPERSET_ADMIN_USERNAME (default admin) / SUPERSET_ADMIN_PASSWORD; unset: skipped
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections import Counter
from pathlib import Path
from zoneinfo import ZoneInfo

from airflow.sdk import CronDataIntervalTimetable, Param, PokeReturnValue, dag, get_current_context, task
from airflow.sdk.exceptions import AirflowFailException, AirflowSkipException

import perfdb_notify
from perfdb_commands import PerfdbCommandError, home, json_summary, perfdb, perfdb_ok

log = logging.getLogger(__name__)

TIMEZONE = os.environ.get("PERFDB_TIMEZONE", "UTC")
LANDING_WAIT = dt.timedelta(hours=12)  # how long after a day ends its files may still arrive
COMPLETE_MARKER = "_SUCCESS"  # the last file written into a landing folder: the folder is complete
START = dt.datetime.fromisoformat(os.environ.get("PERFDB_NIGHTLY_START", "2026-01-01")).replace(tzinfo=ZoneInfo(TIMEZONE))

DOC_MD = """
### perfdb nightly load

**Purpose.** Each run loads one measured day into the perfdb warehouse and publishes it only when it is
valid, the way the 1986 MEASURE + ENFORM performance data base was kept: nightly conversion, condensation,
then the daily threshold report.

| task | command | on failure |
|---|---|---|
| `wait_for_landing` | waits until `<home>/landing/<day>/_SUCCESS` exists (reschedules, up to 12 h after the day) | fails: the day's folder has files but never got its marker; skipped (with the rest of the run): no file arrived for the day |
| `ingest` | `perfdb --json ingest <home>/landing/<day>` | rejected records or files fail at once unless the run's `accept_rejects` param is true; a crash is retried |
| `build` | `perfdb build` (dbt build: staging, intermediate, marts, dbt tests; the day models rebuild only the days loaded or removed since the last build; then retention, seed `retention`) | retried |
| `check` | `perfdb --json check` (Great Expectations; results in `audit.validation_*`, Data Docs in `warehouse/docs/`) | failing expectations fail at once and are listed; a check that could not run is retried |
| `publish` | `perfdb publish` (atomic swap of `warehouse/serving.duckdb`) | retried |
| `warm_dashboards` | `perfdb dashboards warm`: Superset's chart cache for the new warehouse, as the first view of each dashboard asks (skipped without `PERFDB_SUPERSET_URL`) | retried; the dashboards show the new warehouse either way, the first view is only slower |
| `report` | `perfdb report threshold --date <day>` into `<home>/reports/threshold_<day>.txt` | retried |
| `notify_exceptions` | sends the day's threshold exceptions to the alert channels | retried |

**Day.** The `day` param (YYYY-MM-DD) when given; else the day of the logical date in `PERFDB_TIMEZONE`.
A scheduled run's logical date is the start of the day that just ended.

**Landing.** Copy the day's files into `<home>/landing/<day>/`, then `touch <home>/landing/<day>/_SUCCESS`.
Files that arrive after the marker belong to a re-run of the day (below).

**Safety.** A failed step stops the run before `publish`, so readers keep yesterday's `serving.duckdb`.
Every step is idempotent: re-running a day whose files were already ingested changes no data.
`max_active_runs=1`, because DuckDB has one writer.

**Alerts.** A task that fails for good (after its retries) and every day with threshold exceptions send an
alert by e-mail (`PERFDB_ALERT_EMAIL_TO`, `PERFDB_ALERT_SMTP_*`) and/or a webhook
(`PERFDB_ALERT_WEBHOOK_URL`); with neither set, alerts are only logged.

**Re-running a day.** `airflow dags trigger perfdb_nightly --conf '{"day": "2026-01-05"}'` (or
`--logical-date 2026-01-05`). Add `"accept_rejects": true` to publish a day whose files had rejected records.

**Recovery.** Every run is cleared by its run id, whether it was scheduled, triggered for a logical date or
with the `day` param (the failure alert prints the command with the id; the UI shows it on the run):
`airflow dags clear perfdb_nightly --run-id <run id> -y` runs the day again from
`wait_for_landing` (every step is idempotent: files already ingested are skipped).
- `wait_for_landing` failed or was skipped: land the files and `_SUCCESS`, then clear the run
  (`airflow dags clear perfdb_nightly --run-id <run id> -y`).
- `ingest` failed on rejects: read `raw.rejects` (`perfdb sql "select * from raw.rejects"`). To accept the
  rows that loaded, clear the run (the files are already ingested, so `ingest` passes). To replace a bad
  file: `perfdb remove FILE`, land the corrected file, and clear the run.
- `build`, `check`, `publish`, `report` failed: fix the cause (the log names it), clear the run. A failing
  `check` is usually a bad file: `perfdb remove FILE`, land a corrected one, then clear the run.
- After a change to a model or a seed: `perfdb build --full-refresh` once, by hand (`perfdb build` names the
  models that need it; the nightly build stays incremental), then clear the run. Once
  retention has purged raw files, it rebuilds every day still kept and leaves older rows as they were built.
- Weekly, `perfdb check --all` validates the whole warehouse (the `perfdb_weekly_check` DAG does it).

**Backfill.** `airflow backfill create --dag-id perfdb_nightly --from-date 2026-01-05 --to-date 2026-02-05`
runs the days one after another; set `AIRFLOW__SCHEDULER__CATCHUP_BY_DEFAULT=True` to catch up
automatically after downtime.

**Configuration.** `PERFDB_HOME` (required), `PERFDB_BIN`, `PERFDB_NIGHTLY_START`, `PERFDB_TIMEZONE`,
`PERFDB_ALERT_*`, `PERFDB_SUPERSET_URL` with `SUPERSET_ADMIN_USERNAME` and `SUPERSET_ADMIN_PASSWORD`.
"""

# a failure of one of these tasks leaves the published warehouse as it was
UNPUBLISHED_IF_FAILED = {"wait_for_landing", "ingest", "build", "check", "publish"}
# what the failure alert tells the reader to do next, by task
RECOVERY = {
    "wait_for_landing": "Land the day's files and touch landing/<day>/_SUCCESS, then clear the run.",
    "ingest": "Read raw.rejects; clear the run to accept the rows that loaded, or `perfdb remove FILE`, "
              "land the corrected file and clear the run.",
    "check": "A bad file is the usual cause: `perfdb remove FILE`, land a corrected one, clear the run.",
    "warm_dashboards": "Superset was down or refused the login (SUPERSET_ADMIN_PASSWORD changed in Superset?); "
                       "the dashboards show the new warehouse anyway. Fix it and clear warm_dashboards.",
}


def _day(context) -> dt.date:
    """The measured day a run loads: the ``day`` param, else the day of the logical date."""
    given = (context.get("params") or {}).get("day")
    if given:
        try:
            return dt.date.fromisoformat(str(given))
        except ValueError:
            raise AirflowFailException(f"the day param {given!r} is not a date (YYYY-MM-DD)") from None
    moment = context.get("logical_date") or context.get("data_interval_start")
    if moment is None:  # a manual run without a logical date: the last complete day
        return context["dag_run"].run_after.astimezone(ZoneInfo(TIMEZONE)).date() - dt.timedelta(days=1)
    return moment.astimezone(ZoneInfo(TIMEZONE)).date()


def _landing(day: dt.date) -> Path:
    return home() / "landing" / day.isoformat()


def alert_failure(context) -> None:
    """``on_failure_callback``: a task failed for good (after its retries); tell the alert channels."""
    ti = context["ti"]
    try:
        day = _day(context).isoformat()
    except AirflowFailException:
        day = str((context.get("params") or {}).get("day"))
    subject = f"perfdb: {day} failed at {ti.task_id}"
    body = "\n\n".join(filter(None, [
        f"{ti.dag_id} run {ti.run_id}: task {ti.task_id} failed (try {ti.try_number})"
        + ("; serving.duckdb was not replaced." if ti.task_id in UNPUBLISHED_IF_FAILED else "."),
        str(context.get("exception") or ""),
        RECOVERY.get(ti.task_id, "Fix the cause named above, then clear the run."),
        f"Clear the run: airflow dags clear {ti.dag_id} --run-id {ti.run_id} -y",
        f"Log: {getattr(ti, 'log_url', '')}" if getattr(ti, "log_url", None) else "",
    ]))
    try:
        perfdb_notify.notify(subject, body, kind="failure", dag_id=ti.dag_id, day=day, task_id=ti.task_id)
    except perfdb_notify.NotifyError as e:
        log.error("%s", e)


@dag(
    dag_id="perfdb_nightly",
    schedule=CronDataIntervalTimetable("0 0 * * *", timezone=TIMEZONE),
    start_date=START,
    max_active_runs=1,
    doc_md=DOC_MD,
    tags=["perfdb", "measure"],
    params={
        "day": Param(None, type=["null", "string"], format="date",
                     description="the measured day to load, YYYY-MM-DD (default: the day of the logical date)"),
        "accept_rejects": Param(False, type="boolean",
                                description="build and publish even when ingest rejected records or files"),
    },
    default_args={
        "retries": 2,
        "retry_delay": dt.timedelta(minutes=5),
        "execution_timeout": dt.timedelta(hours=2),
        "on_failure_callback": alert_failure,
    },
)
def perfdb_nightly():
    # retried like the other tasks when a poke could not run (the API server did not answer); its verdicts
    # (AirflowFailException, AirflowSkipException, the sensor's timeout) are never retried
    @task.sensor(poke_interval=15 * 60, timeout=LANDING_WAIT.total_seconds(), mode="reschedule")
    def wait_for_landing() -> PokeReturnValue:
        day = _day(get_current_context())
        folder = _landing(day)
        complete = (folder / COMPLETE_MARKER).is_file()
        files = folder.is_dir() and any(p.is_file() for p in folder.rglob("*"))
        log.info("%s: %s", folder, "complete" if complete else f"no {COMPLETE_MARKER} yet" + (" (files arriving)" if files else ""))
        day_end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=ZoneInfo(TIMEZONE))
        if not complete and dt.datetime.now(dt.timezone.utc) - day_end > LANDING_WAIT:
            if files:
                # files but no marker long after the day: a copy that stopped half-way, or a forgotten marker
                raise AirflowFailException(
                    f"{folder} has files but no {COMPLETE_MARKER} marker: touch it once every file of {day} is copied"
                )
            # nothing was ever landed for the day (a day before the site's first capture, or the day a DAG
            # newly unpaused starts with): nothing to load, so the run is skipped, not failed
            raise AirflowSkipException(
                f"no files arrived in {folder} for {day}: nothing to load. Land them, touch {COMPLETE_MARKER}, "
                f"then clear this run (airflow dags clear perfdb_nightly --run-id <this run's id> -y)"
            )
        return PokeReturnValue(is_done=complete)

    @task
    def ingest(params=None) -> None:
        folder = _landing(_day(get_current_context()))
        proc = perfdb("--json", "ingest", str(folder), capture=True)
        summary = json_summary(proc.stdout)
        if summary is None:
            raise PerfdbCommandError(f"perfdb ingest {folder} exited {proc.returncode} without a summary")
        log.info(
            "%s files: %s loaded, %s already ingested, %s with rejects, %s rejected, %s failed; %s rows",
            summary["files"], summary["loaded"], summary["duplicates"], summary["with_rejects"],
            summary["rejected"], summary["failed"], summary["rows_loaded"],
        )
        if proc.returncode != 0:
            bad = [f"{r['path']}: {r['status']}: {'; '.join(r['messages'][:5]) or r['error']}"
                   for r in summary["results"] if r["status"] not in ("loaded", "duplicate")]
            if params.get("accept_rejects"):
                log.warning("accept_rejects: building and publishing despite\n%s", "\n".join(bad))
                return
            # No automatic retry: the files are in the manifest now, so a retry would pass them as
            # duplicates. The way on is explicit (the DAG's doc, "Recovery").
            raise AirflowFailException(
                "ingest rejected records or files (see raw.rejects; `perfdb remove FILE` un-ingests one; "
                "the accept_rejects param publishes them):\n" + "\n".join(bad)
            )

    @task(execution_timeout=dt.timedelta(hours=4))
    def build() -> None:
        perfdb_ok("build", hint=" (dbt build); see the log above")

    @task
    def check() -> None:
        proc = perfdb("--json", "check", capture=True)
        summary = json_summary(proc.stdout)
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
        perfdb_ok("publish")

    @task
    def warm_dashboards() -> None:
        """The first analyst after the publish gets cached chart answers instead of waiting for every query."""
        if not os.environ.get("PERFDB_SUPERSET_URL"):
            raise AirflowSkipException("PERFDB_SUPERSET_URL is not set: no Superset to warm")
        perfdb_ok("dashboards", "warm", "--url", os.environ["PERFDB_SUPERSET_URL"], hint="; see the log above")

    @task
    def report() -> str:
        day = _day(get_current_context()).isoformat()
        proc = perfdb_ok("report", "threshold", "--date", day, capture=True)
        target = home() / "reports" / f"threshold_{day}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".new")
        partial.write_text(proc.stdout)
        partial.replace(target)  # a reader sees the old report or the new one, never half
        log.info("wrote %s", target)
        return str(target)

    @task
    def notify_exceptions(report_path: str) -> int:
        """The day's threshold exceptions, counted by system and rule, with the report, to the alert channels."""
        day = _day(get_current_context()).isoformat()
        proc = perfdb("report", "threshold", "--date", day, "--format", "json", capture=True)
        rows = json_summary(proc.stdout)
        if proc.returncode != 0 or not isinstance(rows, list):
            raise PerfdbCommandError(f"perfdb report threshold --date {day} --format json exited {proc.returncode}")
        if not rows:
            log.info("no threshold exceptions on %s: no alert", day)
            return 0
        counts = Counter((r["system_name"], r["rule_id"], r["severity"], r["rule"]) for r in rows)
        lines = [f"{n:5}  {system}  {rule_id} ({severity}): {rule}" for (system, rule_id, severity, rule), n
                 in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
        body = (f"{len(rows)} threshold exceptions on {day} (count, system, rule):\n" + "\n".join(lines)
                + f"\n\nThe report ({report_path}):\n\n" + Path(report_path).read_text())
        try:
            perfdb_notify.notify(f"perfdb: {len(rows)} threshold exceptions on {day}", body, kind="exceptions",
                                 dag_id="perfdb_nightly", day=day, exceptions=len(rows))
        except perfdb_notify.NotifyError as e:
            raise PerfdbCommandError(str(e)) from None
        return len(rows)

    report_path = report()
    published = publish()
    wait_for_landing() >> ingest() >> build() >> check() >> published >> report_path
    published >> warm_dashboards()
    notify_exceptions(report_path)


perfdb_nightly()
