"""``perfdb check``: every registered suite on the warehouse, results kept, Data Docs written.

    read frames (read-only connection, closed)  ->  validate with GX  ->  Data Docs  ->  audit rows

``run_checks(home, quiet, everything)`` returns True when every expectation of every suite that ran passed. A suite
whose table is missing or empty is skipped and named; a suite whose query fails counts as a failure.
With ``quiet`` (``perfdb --json check``) the summary is printed as JSON on stdout and only the failures
go to stderr; the nightly DAG reads that JSON to tell a failed validation from a check that could not run.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from typing import Iterable

import duckdb
from great_expectations.core.run_identifier import RunIdentifier

from ingest.home import Home
from quality import audit, gx_validation
from quality.frames import WarehouseUnavailable, read_frames
from quality.report import Outcome, RunReport
from quality.suite import Suite
from quality.suites import all_suites


def docs_dir(home: Home):
    return home.warehouse_dir / "docs"


def new_run_id(now: dt.datetime) -> str:
    return now.strftime("%Y%m%dT%H%M%S%fZ")  # sortable; the Data Docs pruning relies on it


def validate_warehouse(
    home: Home, suites: Iterable[Suite] | None = None, *, docs: bool = True, store: bool = True,
    everything: bool = True,
) -> RunReport:
    """Validates ``suites`` (default all); ``everything=False`` limits each to the slice loaded since the
    last passing check (``quality/slice.py``), as the nightly ``perfdb check`` does."""
    suites = list(all_suites() if suites is None else suites)
    started = dt.datetime.now(dt.timezone.utc)
    report = RunReport(run_id=new_run_id(started), started_at=started)
    try:
        frames = read_frames(home.db_path, suites, everything=everything)
    except WarehouseUnavailable as e:
        report.error = str(e)
        return report
    report.skipped = frames.skipped
    report.rows_read = frames.rows_read
    report.scope = "all" if frames.slice.everything else "slice"
    report.scope_text = frames.slice.describe()
    report.loaded_through = frames.slice.loaded_through

    context = gx_validation.file_context(home.warehouse_dir, docs_dir(home)) if docs else gx_validation.ephemeral_context()
    run_identifier = RunIdentifier(run_name=report.run_id, run_time=started)
    for suite in suites:
        if suite.name in frames.errors:
            report.outcomes.append(Outcome.query_failed(suite, frames.errors[suite.name]))
            report.suites_validated.append(suite.name)
            continue
        frame = frames.frames.pop(suite.name, None)
        if frame is None:
            continue
        result = gx_validation.validate_frame(context, suite, frame, run_identifier)
        report.outcomes.extend(Outcome.from_gx(suite, r) for r in result.results)
        report.suites_validated.append(suite.name)
    if docs:
        report.docs_index = gx_validation.build_docs(context, home.warehouse_dir, docs_dir(home))
    report.finished_at = dt.datetime.now(dt.timezone.utc)

    if store:
        try:
            audit.store(home.db_path, report)
        except duckdb.Error as e:
            report.error = f"validated, but the results could not be written to {home.db_path}: {e}"
    return report


def run_checks(home: Home, quiet: bool = False, everything: bool = False) -> bool:
    """``perfdb check``: the slice loaded since the last passing check; ``perfdb check --all``: everything."""
    report = validate_warehouse(home, everything=everything)
    print_report(report, quiet)
    return report.success


def print_report(report: RunReport, quiet: bool = False) -> None:
    """Everything on stdout; with ``quiet``, the JSON summary on stdout and only the failures on stderr."""
    if quiet:
        print(json.dumps(report.summary(), indent=2))
        report.print(sys.stderr, failures_only=True)
    else:
        report.print(sys.stdout)
