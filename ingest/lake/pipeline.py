"""ingest -> build -> check -> publish on Spark (``perfdb run --target spark``), step for step what
``ingest.pipeline.run`` does on DuckDB, and told with the same ``Step`` records:

    result = lake.pipeline.run(home, Lake.locate(home.root), master="local[2]")
    [s.name for s in result.steps] == ["ingest", "build", "check", "publish"]

Ingest is the Spark job (``job``), build is ``dbt build --target spark``, check copies the lake (raw layer
and the tables Spark built) into ``warehouse/perfdb_spark.duckdb`` (``built``) and validates that copy
with the same suites, and publish replaces ``serving.duckdb`` with that copy atomically. Nothing is
published when the build or a check fails.
"""

from __future__ import annotations

import os
from pathlib import Path

from ingest import dbt_runner
from ingest.home import Home
from ingest.intake.result import FileResult
from ingest.lake import job
from ingest.lake.built import SparkHome, copy_built
from ingest.lake.layout import Lake
from ingest.pipeline import Engine, OnFile, OnStep, PipelineResult, run_steps
from ingest.warehouse.serving import publish as publish_home

DEFAULT_MASTER = "local[*]"


def master_of(master: str | None) -> str:
    """``--spark-master``, else ``$PERFDB_SPARK_MASTER``, else ``local[*]``."""
    return master or os.environ.get("PERFDB_SPARK_MASTER") or DEFAULT_MASTER


def ingest(home: Home, lake: Lake, paths: list[Path], *, master: str, format_name: str | None = None,
           options: dict | None = None, on_file: OnFile | None = None) -> tuple[list[FileResult], job.JobStats]:
    results, stats = job.ingest(lake, paths, master=master, format_name=format_name, options=options)
    for k, result in enumerate(results, 1):
        if on_file is not None:
            on_file(k, len(results), result)
    return results, stats


# what a Spark build leaves out: the unit tests, as every build does, and dbt's data tests: queries of a few
# milliseconds on DuckDB and of seconds each on Spark (303 of them: 20+ minutes on 2 cores); the suites of the
# check step gate the publish
SPARK_BUILD_EXCLUDES = (*dbt_runner.UNIT_TESTS_LEFT_OUT, "--exclude-resource-type", "test")


def build(home: Home, lake: Lake, *, master: str, select: str | None = None, quiet: bool = False) -> int:
    """``dbt build --target spark --full-refresh`` of the seeds and models over the lake. Full refresh: a
    Parquet table on Spark takes no ``delete``, so the day models' incremental strategy
    (macros/incremental.sql) is DuckDB's only and every Spark build rebuilds every day."""
    args = ["build", "--full-refresh", *SPARK_BUILD_EXCLUDES, *(["--select", select] if select else [])]
    return dbt_runner.run_dbt(home, args, quiet=quiet, target="spark", lake=lake.root, master=master)


def validate(home: Home, lake: Lake, *, everything: bool = False):
    """The lake as it is now (raw layer and what Spark built) copied into ``perfdb_spark.duckdb``, validated
    by the suites, the slice loaded since the last passing check unless ``everything`` (as ``perfdb check``
    on DuckDB): the report (``quality.report.RunReport``). ``run`` publishes exactly this copy."""
    from quality.runner import validate_warehouse

    spark_home = SparkHome(home.root)
    copy_built(spark_home, lake)
    return validate_warehouse(spark_home, everything=everything)


def publish(home: Home, lake: Lake, *, copy: bool = True) -> Path:
    """``serving.duckdb`` replaced by the copy of the lake (made afresh unless ``copy`` is False: the copy the
    checks just passed)."""
    spark_home = SparkHome(home.root)
    if copy:
        copy_built(spark_home, lake)
    return publish_home(spark_home)


def run(home: Home, lake: Lake, *, master: str, check: bool = True, quiet: bool = False,
        on_file: OnFile | None = None, on_step: OnStep | None = None) -> PipelineResult:
    def build_step() -> str | None:
        if build(home, lake, master=master, quiet=quiet) != 0:
            return None
        return dbt_runner.last_run_summary(home, "spark")

    engine = Engine(
        ingest=lambda on: ingest(home, lake, [home.landing], master=master, on_file=on)[0],
        build=build_step,
        validate=lambda: validate(home, lake),
        publish=lambda checked: publish(home, lake, copy=not checked),  # a check just made the copy
        build_failed="dbt build --target spark failed",
    )
    return run_steps(engine, check=check, on_file=on_file, on_step=on_step)
