"""A built warehouse opened read-only for a module's tests: ``yield from read_only(home.db_path)`` in a fixture."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import duckdb


def read_only(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        yield con
    finally:
        con.close()
