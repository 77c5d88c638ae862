"""Reads every suite's frame from ``perfdb.duckdb`` through one read-only connection, then closes it.

A nightly check reads each suite's sliced frame (``quality/slice.py``); ``everything`` reads whole frames,
and ``perfdb check --all`` reads them chunk by chunk (``read_chunks``), so that pandas holds a chunk of a
large table at a time. The rows each suite read are counted, so that a run says how much it validated.

DuckDB lets one process write a file or many read it, never both, so the check never holds a
read-write connection while it reads; the results are written afterwards (``quality.audit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import duckdb
import pandas as pd

from quality import slice as slicing
from quality.suite import Suite


class WarehouseUnavailable(Exception):
    """The warehouse cannot be read at all (missing, or held by a writer); nothing was validated."""


@dataclass
class Frames:
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # suite -> why it did not run
    errors: dict[str, str] = field(default_factory=dict)  # suite -> why its frame could not be read
    rows_read: dict[str, int] = field(default_factory=dict)  # suite -> rows of its frame
    slice: slicing.Slice | None = None


def _split(relation: str) -> tuple[str, str]:
    schema, _, table = relation.partition(".")
    return schema, table


def _open(db_path: Path) -> duckdb.DuckDBPyConnection:
    if not db_path.exists():
        raise WarehouseUnavailable(f"{db_path} does not exist: run `perfdb ingest` and `perfdb build` first")
    try:
        return duckdb.connect(str(db_path), read_only=True)
    except duckdb.Error as e:
        raise WarehouseUnavailable(
            f"cannot open {db_path} read-only ({e}); another process is probably writing it "
            "(perfdb ingest or dbt build): run the check when it has finished"
        ) from None


def _tables(con: duckdb.DuckDBPyConnection) -> set[tuple[str, str]]:
    return set(con.execute("select table_schema, table_name from information_schema.tables").fetchall())


def _skip_reason(con: duckdb.DuckDBPyConnection, existing: set[tuple[str, str]], suite: Suite) -> str | None:
    missing = [r for r in (suite.relation, *suite.requires) if _split(r) not in existing]
    if missing:
        return f"{', '.join(missing)} does not exist"
    if not con.execute(f"select 1 from {suite.relation} limit 1").fetchall():
        return f"{suite.relation} has no rows"
    return None


def _read(con: duckdb.DuckDBPyConnection, suite: Suite, query: str, out: Frames) -> None:
    try:
        frame = con.execute(query).df()
    except duckdb.Error as e:
        # a model changed under the suite: that is a failure to report, not a reason to skip
        out.errors[suite.name] = f"the suite's query failed on {suite.relation}: {e}"
        return
    out.rows_read[suite.name] = len(frame)
    out.frames[suite.name] = frame


def read_frames(db_path: Path, suites: list[Suite] | tuple[Suite, ...], everything: bool = True) -> Frames:
    """Every suite's frame in one read: whole (``everything``) or the slice's."""
    con = _open(db_path)
    out = Frames()
    try:
        existing = _tables(con)
        out.slice = slicing.prepare(con, everything)
        for suite in suites:
            why = _skip_reason(con, existing, suite)
            if why:
                out.skipped[suite.name] = why
                continue
            _read(con, suite, suite.query_for(out.slice.everything), out)
            if suite.name in out.frames and out.frames[suite.name].empty and suite.sliced_query is not None \
                    and not out.slice.everything:
                out.skipped[suite.name] = f"no rows of {suite.relation} in the slice"
                del out.frames[suite.name]
    finally:
        con.close()
    return out


def read_chunks(db_path: Path, suites: list[Suite] | tuple[Suite, ...], chunk_days: int) -> Iterator[Frames]:
    """Every row, in chunks (``perfdb check --all``, ``quality/slice.py``): first the frames of the suites
    read whole (no sliced query, or one that does not cover the whole table), then one ``Frames`` per chunk
    of ``chunk_days`` dates with the other suites' rows of that chunk. Each chunk is read through its own
    read-only connection, closed before its frames are validated; the caller drops a chunk's frames before
    the next one is read."""
    con = _open(db_path)
    first = Frames()
    chunked: list[Suite] = []
    try:
        existing = _tables(con)
        first.slice = slicing.prepare(con, True)
        chunks = slicing.plan_chunks(con, chunk_days)
        if chunks > 1:
            first.slice.chunks, first.slice.chunk_days = chunks, chunk_days
            slicing.select_chunk(con, None)
        for suite in suites:
            why = _skip_reason(con, existing, suite)
            if why:
                first.skipped[suite.name] = why
                continue
            if chunks > 1 and suite.sliced_query is not None:
                try:
                    if slicing.covered(con, suite.query, suite.sliced_query):
                        chunked.append(suite)
                        continue
                except duckdb.Error:
                    pass  # read whole below, where the failure is reported
            _read(con, suite, suite.query, first)
    finally:
        con.close()
    yield first
    for chunk in range(chunks if chunked else 0):
        con = _open(db_path)
        out = Frames(slice=first.slice)
        try:
            slicing.prepare(con, True)
            slicing.plan_chunks(con, chunk_days)
            slicing.select_chunk(con, chunk)
            for suite in chunked:
                _read(con, suite, suite.sliced_query, out)
        finally:
            con.close()
        yield out
