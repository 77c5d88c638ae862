"""``perfdb_weekly_check``: once a week, the Great Expectations suites over the whole warehouse.

The nightly run validates what its day touched; this run (`perfdb --json check --all`, Sundays 06:00 in
``PERFDB_TIMEZONE``) validates everything, so that a slow drift across days is found too. It changes no
data and publishes nothing. A failure is alerted like the nightly's (``PERFDB_ALERT_*``, perfdb_notify.py).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from zoneinfo import ZoneInfo

from airflow.sdk import CronTriggerTimetable, dag, task
from airflow.sdk.exceptions import AirflowFailException

import perfdb_notify
from perfdb_commands import PerfdbCommandError, json_summary, perfdb

log = logging.getLogger(__name__)
TIMEZONE = os.environ.get("PERFDB_TIMEZONE", "UTC")

DOC_MD = """
### perfdb weekly check

`perfdb --json check --all`: every Great Expectations suite over the whole warehouse (the nightly run checks
the day it loaded). Results go to `audit.validation_*` and the Data Docs like the nightly's. A failing
expectation fails the run and is alerted; fix the data (`perfdb remove FILE`, land a corrected file, re-run
its day in `perfdb_nightly`), then clear `check_all`.
"""


def alert_failure(context) -> None:
    ti = context["ti"]
    try:
        perfdb_notify.notify(f"perfdb: the weekly check failed ({ti.run_id})", str(context.get("exception") or ""),
                             kind="failure", dag_id=ti.dag_id, task_id=ti.task_id)
    except perfdb_notify.NotifyError as e:
        log.error("%s", e)


@dag(
    dag_id="perfdb_weekly_check",
    schedule=CronTriggerTimetable("0 6 * * 0", timezone=TIMEZONE),
    start_date=dt.datetime(2026, 1, 1, tzinfo=ZoneInfo(TIMEZONE)),
    catchup=False,
    max_active_runs=1,
    doc_md=DOC_MD,
    tags=["perfdb", "quality"],
    default_args={"retries": 1, "retry_delay": dt.timedelta(minutes=10), "on_failure_callback": alert_failure},
)
def perfdb_weekly_check():
    @task(execution_timeout=dt.timedelta(hours=6))
    def check_all() -> None:
        proc = perfdb("--json", "check", "--all", capture=True)
        summary = json_summary(proc.stdout)
        if not isinstance(summary, dict) or summary.get("error"):
            reason = summary["error"] if isinstance(summary, dict) else f"exited {proc.returncode} without a summary"
            raise PerfdbCommandError(f"perfdb check --all could not validate the warehouse: {reason}")
        if not summary["success"]:
            failed = "\n".join(f["message"] for f in summary["failed"])
            raise AirflowFailException(f"validation run {summary['run_id']} failed:\n{failed}")
        log.info("validation run %s: %s expectations in %s suites", summary["run_id"], summary["expectations"],
                 summary["suites_validated"])

    check_all()


perfdb_weekly_check()
