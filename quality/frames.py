"""Reads every suite's frame from ``perfdb.duckdb`` through one read-only connection, then closes it.

DuckDB lets one process write a file or many read it, never both, so the check never holds a
read-write connection while it reads; the results are written afterwards (``quality.audit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from quality.suite import Suite


class WarehouseUnavailable(Exception):
    """The warehouse cannot be read at all (missing, or held by a writer); nothing was validated."""


@dataclass
class Frames:
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # suite -> why it did not run
    errors: dict[str, str] = field(default_factory=dict)  # suite -> why its frame could not be read


def _split(relation: str) -> tuple[str, str]:
    schema, _, table = relation.partition(".")
    return schema, table


def read_frames(db_path: Path, suites: list[Suite] | tuple[Suite, ...]) -> Frames:
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
        for suite in suites:
            missing = [r for r in (suite.relation, *suite.requires) if _split(r) not in existing]
            if missing:
                out.skipped[suite.name] = f"{', '.join(missing)} does not exist"
                continue
            if not con.execute(f"select 1 from {suite.relation} limit 1").fetchall():
                out.skipped[suite.name] = f"{suite.relation} has no rows"
                continue
            try:
                out.frames[suite.name] = con.execute(suite.query).df()
            except duckdb.Error as e:
                # a model changed under the suite: that is a failure to report, not a reason to skip
                out.errors[suite.name] = f"the suite's query failed on {suite.relation}: {e}"
    finally:
        con.close()
    return out
