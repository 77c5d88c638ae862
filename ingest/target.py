"""Where ``perfdb ingest|build|check|publish|run|remove`` do their work, chosen once from ``--target``.

A ``Target`` holds the six commands of one engine: the embedded DuckDB warehouse (``ingest.cli.DUCKDB``)
or Spark over a Parquet lake (``ingest.lake.cli.SPARK``). ``perfdb`` looks the target up by the option's
value and calls it; no command asks which target it runs on. ``progress(base)`` makes what reports each
file (None under ``--json``; ``base`` the folder names are shown below), ``tell(step, result)`` prints a
step of the pipeline as ``perfdb run`` shows it.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, NamedTuple

Progress = Callable[..., Any]  # (base: Path | None = None) -> a per-file reporter, or None
Tell = Callable[[Any, Any], None]  # (pipeline.Step, pipeline.PipelineResult)


class Target(NamedTuple):
    ingest: Callable[[argparse.Namespace, Progress], int]
    build: Callable[[argparse.Namespace], int]
    check: Callable[[argparse.Namespace], int]
    publish: Callable[[argparse.Namespace], int]
    run: Callable[[argparse.Namespace, Progress, Tell], int]
    remove: Callable[[argparse.Namespace], int]


def add_target_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", choices=("duckdb", "spark"), default="duckdb",
                   help="where to ingest and build: the embedded DuckDB (default) or Apache Spark over a Parquet lake")
    p.add_argument("--lake", help="the lake's location with --target spark (default $PERFDB_LAKE or <home>/lake)")
    p.add_argument("--spark-master", help="Spark master URL (default $PERFDB_SPARK_MASTER or local[*])")
