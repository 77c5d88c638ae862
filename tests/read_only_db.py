"""A built warehouse opened read-only for a module's tests: ``yield from read_only(home.db_path)`` in a fixture;
``dict_rows(con, sql)`` reads a query's rows as dicts keyed by column."""

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


def dict_rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    """The rows of ``sql`` as dicts keyed by the column names; the connection is the caller's to close."""
    cur = con.execute(sql)
    columns = [d[0] for d in cur.description]
    return [dict(zip(columns, row)) for row in cur.fetchall()]


def rows(path: Path, sql: str, params: list | None = None) -> list[tuple]:
    """The rows of ``sql`` (with ``params``) on the warehouse at ``path``, through a read-only connection of its own."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()
