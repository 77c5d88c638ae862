"""Keeps every check run in the warehouse, so dashboards can show the history of data quality.

    audit.validation_runs      one row per ``perfdb check``: when, verdict, counts, skipped suites, the
                               scope (slice or all), rows read and the manifest high-water mark it saw
    audit.validation_results   one row per expectation evaluated: suite, expectation, column, success,
                               observed value, failing examples
    audit.latest_validation_results   a view: the results of the latest run

Written through a read-write connection opened only after the read-only validation has closed its own.
Times are UTC. The rows travel to serving.duckdb with the next publish; a failed check publishes nothing,
so its rows stay in perfdb.duckdb until a later run passes and publishes them along.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import great_expectations as gx
import pyarrow as pa

from quality.report import RunReport

AUDIT_DDL = """
create schema if not exists audit;
create table if not exists audit.validation_runs (
    run_id varchar primary key,
    started_at timestamp not null,
    finished_at timestamp not null,
    success boolean not null,
    suites_validated integer not null,
    suites_skipped integer not null,
    expectation_count integer not null,
    failed_count integer not null,
    skipped_suites varchar,          -- JSON object: suite -> why it did not run
    error varchar,
    gx_version varchar,
    docs_index varchar,
);
-- a nightly check validates what was loaded after the last passing run's loaded_through (quality/slice.py)
alter table audit.validation_runs add column if not exists scope varchar;
alter table audit.validation_runs add column if not exists loaded_through timestamp;
alter table audit.validation_runs add column if not exists rows_read bigint;
create table if not exists audit.validation_results (
    run_id varchar not null,
    run_time timestamp not null,     -- the run's start, UTC
    suite varchar not null,
    relation varchar not null,
    expectation varchar not null,    -- the check's stable name within its suite
    expectation_type varchar not null,
    column_name varchar,
    success boolean not null,
    observed_value varchar,          -- JSON
    element_count bigint,
    unexpected_count bigint,
    unexpected_percent double,
    examples varchar,                -- JSON: failing values, with the row ids of the suite
    exception varchar,
    description varchar,
    kwargs varchar,                  -- JSON: the expectation's parameters
);
-- "warning": a failure that is reported and does not fail the run (GX's severity)
alter table audit.validation_results add column if not exists severity varchar;
-- the results of the latest run, which the Data health dashboard lists (run ids sort by their start time);
-- replaced on every store so that it has the columns added above
create or replace view audit.latest_validation_results as
select * from audit.validation_results
where run_id = (select max(run_id) from audit.validation_runs);
"""

RESULT_SCHEMA = pa.schema([
    ("run_id", pa.string()),
    ("run_time", pa.timestamp("us")),
    ("suite", pa.string()),
    ("relation", pa.string()),
    ("expectation", pa.string()),
    ("expectation_type", pa.string()),
    ("column_name", pa.string()),
    ("success", pa.bool_()),
    ("observed_value", pa.string()),
    ("element_count", pa.int64()),
    ("unexpected_count", pa.int64()),
    ("unexpected_percent", pa.float64()),
    ("examples", pa.string()),
    ("exception", pa.string()),
    ("description", pa.string()),
    ("kwargs", pa.string()),
    ("severity", pa.string()),
])


def _naive_utc(t):
    return t.replace(tzinfo=None)


def store(db_path: Path, report: RunReport) -> None:
    run_time = _naive_utc(report.started_at)
    rows = [o.audit_row(report.run_id, run_time) for o in report.outcomes]
    results = pa.Table.from_pylist(rows, schema=RESULT_SCHEMA)
    run = pa.table({
        "run_id": [report.run_id],
        "started_at": pa.array([run_time], pa.timestamp("us")),
        "finished_at": pa.array([_naive_utc(report.finished_at or report.started_at)], pa.timestamp("us")),
        "success": [report.success],
        "suites_validated": pa.array([len(report.suites_validated)], pa.int32()),
        "suites_skipped": pa.array([len(report.skipped)], pa.int32()),
        "expectation_count": pa.array([len(report.outcomes)], pa.int32()),
        "failed_count": pa.array([len(report.failures)], pa.int32()),
        "skipped_suites": [json.dumps(report.skipped, sort_keys=True)],
        "error": pa.array([report.error], pa.string()),
        "gx_version": [gx.__version__],
        "docs_index": pa.array([str(report.docs_index) if report.docs_index else None], pa.string()),
        "scope": [report.scope],
        "loaded_through": pa.array([report.loaded_through], pa.timestamp("us")),
        "rows_read": pa.array([sum(report.rows_read.values())], pa.int64()),
    })
    con = duckdb.connect(str(db_path))
    try:
        con.execute(AUDIT_DDL)
        con.begin()
        con.register("_perfdb_run", run)
        con.register("_perfdb_results", results)
        con.execute("insert into audit.validation_runs by name select * from _perfdb_run")
        con.execute("insert into audit.validation_results by name select * from _perfdb_results")
        con.commit()
    finally:
        con.close()
