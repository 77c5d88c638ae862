"""``perfdb check``: every registered suite on the warehouse, results kept, Data Docs written.

    read frames (read-only connection, closed)  ->  validate with GX  ->  Data Docs  ->  audit rows

``perfdb check --all`` reads and validates the tables chunk by chunk (``quality/slice.py``): an
expectation's outcomes on the chunks are merged into one (``report.merge_chunks``), so the run records
and prints what one read of every row would; the Data Docs show each chunk's validation.

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
from quality import slice as slicing
from quality.frames import WarehouseUnavailable, read_chunks, read_frames
from quality.report import Outcome, RunReport, merge_chunks
from quality.suite import Suite
from quality.suites import all_suites


def docs_dir(home: Home):
    return home.warehouse_dir / "docs"


def new_run_id(now: dt.datetime) -> str:
    return now.strftime("%Y%m%dT%H%M%S%fZ")  # sortable; the Data Docs pruning relies on it


def validate_warehouse(
    home: Home, suites: Iterable[Suite] | None = None, *, docs: bool = True, store: bool = True,
    everything: bool = True, chunk_days: int | None = slicing.CHUNK_DAYS,
) -> RunReport:
    """Validates ``suites`` (default all); ``everything=False`` limits each to the slice loaded since the
    last passing check (``quality/slice.py``), as the nightly ``perfdb check`` does. Validating everything,
    the tables are read in chunks of ``chunk_days`` dates (None: in one read)."""
    suites = list(all_suites() if suites is None else suites)
    started = dt.datetime.now(dt.timezone.utc)
    report = RunReport(run_id=new_run_id(started), started_at=started)
    try:
        if everything and chunk_days:
            parts = read_chunks(home.db_path, suites, chunk_days)
        else:
            parts = iter([read_frames(home.db_path, suites, everything=everything)])
        frames = next(parts)
    except WarehouseUnavailable as e:
        report.error = str(e)
        return report
    report.skipped = frames.skipped
    report.scope = "all" if frames.slice.everything else "slice"
    report.scope_text = frames.slice.describe()
    report.loaded_through = frames.slice.loaded_through

    context = gx_validation.file_context(home.warehouse_dir, docs_dir(home)) if docs else gx_validation.ephemeral_context()
    found: dict[str, list[list[Outcome]]] = {}  # suite -> its outcomes on each chunk
    chunk = 0
    while frames is not None:
        # one stored validation per suite and chunk: the chunks' results differ by their run time
        run_identifier = RunIdentifier(run_name=report.run_id, run_time=started + dt.timedelta(microseconds=chunk))
        for name, rows in frames.rows_read.items():
            report.rows_read[name] = report.rows_read.get(name, 0) + rows
        for suite in suites:
            if suite.name in frames.errors:
                found.setdefault(suite.name, []).append([Outcome.query_failed(suite, frames.errors[suite.name])])
                continue
            frame = frames.frames.pop(suite.name, None)
            if frame is None or (chunk > 0 and frame.empty):
                continue
            result = gx_validation.validate_frame(context, suite, frame, run_identifier)
            found.setdefault(suite.name, []).append([Outcome.from_gx(suite, r) for r in result.results])
        frames, chunk = None, chunk + 1
        try:
            frames = next(parts, None)
        except WarehouseUnavailable as e:
            report.error = f"validated {chunk} chunks of {report.scope_text}, then: {e}"
    for suite in suites:
        if suite.name in found:
            report.outcomes.extend(merge_chunks(found[suite.name]))
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
