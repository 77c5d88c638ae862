"""What a suite is: one frame of the warehouse and the expectations it must meet.

A suite module under ``quality/suites/`` exports ``SUITES = [Suite(...), ...]``:

    Suite(
        name="marts.fct_cpu_shift",                   # GX suite name, also the key in audit tables
        relation="marts.fct_cpu_shift",               # skipped (and said so) when missing or empty
        requires=("seeds.shifts",),                   # other relations the query reads (must exist)
        query="select ... from marts.fct_cpu_shift",  # the frame: plain columns + derived check columns
        expectations=lambda: [check("busy_pct_max_in_range", "...", gxe.Expect...(...)), ...],
        row_id=("system_name", "cpu_num", "shift_date", "shift"),   # names failing rows in messages
        sliced_query="select ... where exists (... check_days ...)",  # the same frame, touched rows only
    )

``sliced_query`` is what a nightly ``perfdb check`` reads (``quality/slice.py``: the rows of the files and
days loaded since the last passing check); without one the suite reads its whole ``query`` every night,
which suits small catalogue frames only. ``Suite.framed(name, frame, expectations, ...)`` takes both frames from
one builder ``frame(sliced=...)``.

Checks that compare rows with each other or with another model (gaps, reconciliations) are computed in
the suite's SQL as derived columns, so that every expectation stays a plain GX column expectation
whose failing values show up in the Data Docs and in ``audit.validation_results``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import great_expectations.expectations as gxe
from great_expectations.expectations import Expectation


@dataclass(frozen=True)
class Suite:
    name: str
    relation: str  # schema.table whose absence or emptiness skips the suite
    query: str
    expectations: Callable[[], list[Expectation]]  # built fresh for every run (GX gives them ids)
    description: str = ""
    requires: tuple[str, ...] = field(default=())  # further relations the query reads; may be empty
    row_id: tuple[str, ...] = field(default=())  # frame columns that identify a failing row
    sliced_query: str | None = None  # the frame limited to the slice's temporary tables (quality/slice.py)

    def query_for(self, everything: bool) -> str:
        return self.query if everything or self.sliced_query is None else self.sliced_query

    @classmethod
    def framed(cls, name: str, frame: Callable[..., str], expectations: Callable[[], list[Expectation]], *,
               description: str, row_id: tuple[str, ...], requires: tuple[str, ...] = (),
               relation: str | None = None) -> Suite:
        """A suite whose whole and sliced frames are one builder's, ``frame(sliced=False)`` and
        ``frame(sliced=True)``, on ``relation`` (by default the relation the suite is named after)."""
        return cls(name=name, relation=relation or name, query=frame(sliced=False), expectations=expectations,
                   description=description, requires=requires, row_id=row_id, sliced_query=frame(sliced=True))


def check(check_id: str, why: str, expectation: Expectation) -> Expectation:
    """Names an expectation: ``check_id`` is its stable key within the suite, ``why`` its sentence."""
    expectation.meta = {**(expectation.meta or {}), "check": check_id}
    expectation.description = why
    return expectation


def check_id(meta: dict | None, expectation_type: str) -> str:
    """The stable key of an expectation: its ``check`` name, else its GX type."""
    return (meta or {}).get("check") or expectation_type


# -- checks every family needs ----------------------------------------------------------------------------

def not_null(columns, what: str) -> list[Expectation]:
    return [
        check(f"{c}_not_null", f"every {what} has its {c}", gxe.ExpectColumnValuesToNotBeNull(column=c))
        for c in columns
    ]


def one_row_per(name: str, columns, what: str) -> Expectation:
    return check(name, f"one row per {what}", gxe.ExpectCompoundColumnsToBeUnique(column_list=list(columns)))


def not_negative(column: str) -> Expectation:
    return check(f"{column}_not_negative", f"{column} is never negative",
                 gxe.ExpectColumnValuesToBeBetween(column=column, min_value=0))
