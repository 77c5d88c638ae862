"""Reads every suite's frame from ``perfdb.duckdb`` through one read-only connection, then closes it.

A nightly check reads each suite's sliced frame (``quality/slice.py``); ``everything`` reads whole frames.
The rows each suite read are counted, so that a run says how much it validated.

DuckDB lets one process write a file or many read it, never both, so the check never holds a
read-write connection while it reads; the results are written afterwards (``quality.audit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

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


def read_frames(db_path: Path, suites: list[Suite] | tuple[Suite, ...], everything: bool = True) -> Frames:
    if not db_path.exists():
        raise WarehouseUnavailable(f"{db_path} does not exist: run `perfdb ingest` and `perfdb build` first")
    try:
        con = duckdb.connect(str(db_path), read_only=True)
    except duckdb.Error as e:
        raise WarehouseUnavailable(
            f"cannot open {db_path} read-only ({e}); another process is probably writing it "
            "(perfdb ingest or dbt build): run the check when it has finished"
        ) from None
    out = Frames()
    try:
        existing = set(con.execute("select table_schema, table_name from information_schema.tables").fetchall())
        out.slice = slicing.prepare(con, everything)
        for suite in suites:
            missing = [r for r in (suite.relation, *suite.requires) if _split(r) not in existing]
            if missing:
                out.skipped[suite.name] = f"{', '.join(missing)} does not exist"
                continue
            if not con.execute(f"select 1 from {suite.relation} limit 1").fetchall():
                out.skipped[suite.name] = f"{suite.relation} has no rows"
                continue
            try:
                frame = con.execute(suite.query_for(out.slice.everything)).df()
            except duckdb.Error as e:
                # a model changed under the suite: that is a failure to report, not a reason to skip
                out.errors[suite.name] = f"the suite's query failed on {suite.relation}: {e}"
                continue
            out.rows_read[suite.name] = len(frame)
            if frame.empty and suite.sliced_query is not None and not out.slice.everything:
                out.skipped[suite.name] = f"no rows of {suite.relation} in the slice"
                continue
            out.frames[suite.name] = frame
    finally:
        con.close()
    return out
