"""How much memory perfdb's DuckDB connections may use: ``PERFDB_MEMORY_LIMIT`` (DuckDB's syntax, e.g. ``1GB``).

DuckDB's own default is 80 % of RAM, and it keeps every page it has read cached up to that limit: a nightly
build that reads a little of each of a long history's tables held 1.6 GB at 366 days of 4 systems where
512 MB did the same work (bench/README.md). Ingest and dbt's connection share the limit; DuckDB spills
joins, aggregates and sorts to disk beyond it instead of failing.
"""

from __future__ import annotations

import os

DEFAULT = "512MB"


def memory_limit() -> str:
    return os.environ.get("PERFDB_MEMORY_LIMIT") or DEFAULT
