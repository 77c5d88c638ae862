"""``perfdb report pi``: the WLM goals missed over a shift (z/OS, SMF 72.3).

It prints ``marts.rpt_workload_goal_exceptions``: each service class period whose performance index
over a shift was above 1, the most important goals first within each system's shift. The index is
RMF's: goal / achieved execution velocity, achieved / goal average response time, computed from the
shift's summed samples, times and response time buckets. Sample output (the demo's SYSA, 30 January 2026)::

                               WLM GOALS MISSED (PERFORMANCE INDEX ABOVE 1)

    SYSTEM     SHIFT                  SERVICE                   GOAL            GOAL              PERF
     NAME      DATE      SHIFT  IMP    CLASS   PERIOD           TYPE           VALUE   ACHIEVED  INDEX
    SYSA    2026-01-30  first     1  STCHI          1  velocity                60.000    59.079   1.02
    SYSA    2026-01-30  first     4  BATCHMED       1  velocity                30.000    16.143   1.86

A response time goal's value and achievement are seconds, a velocity's percent. ``--format csv`` and
``--format json`` print the mart's own columns.
"""

from __future__ import annotations

import datetime as dt

from ingest.home import Home
from ingest.reports._enform_format import Column, f_mask, i_mask, render_table, table_width
from ingest.reports._marts import add_dated_report, print_dated_report, query_mart, where

HELP = "WLM goals missed over a shift (performance index above 1), importance first"
DESCRIPTION = """Each z/OS service class period whose WLM performance index over a shift was above 1 (a goal
missed), the most important goals first within each system's shift."""

MART = "marts.rpt_workload_goal_exceptions"

LAYOUT = [
    ("shift_date", "SHIFT/DATE", lambda v: str(v), 10),
    ("shift_name", "/SHIFT", lambda v: (v or "").ljust(6), 6),
    ("importance", "/IMP", lambda v: i_mask(v, 3), 3),
    ("class_name", "SERVICE/CLASS", lambda v: (v or "").ljust(8), 8),
    ("period_number", "/PERIOD", lambda v: i_mask(v, 6), 6),
    ("goal_type", "GOAL/TYPE", lambda v: (v or "").ljust(21), 21),
    ("goal_value", "GOAL/VALUE", lambda v: f_mask(v, 7, 3), 7),
    ("achieved", "/ACHIEVED", lambda v: f_mask(v, 8, 3), 8),
    ("performance_index", "PERF/INDEX", lambda v: f_mask(v, 5, 2), 5),
]


def fetch(home: Home, date_from: dt.date | None, date_to: dt.date | None, system: str | None):
    sql, params = where({"shift_date >= ?": date_from, "shift_date <= ?": date_to, "system_name = ?": system})
    return query_mart(
        home,
        f"select *, coalesce(velocity, response_s) as achieved from {MART}{sql} "
        "order by system_name, shift_date, shift, miss_rank",
        params,
    )


def render(columns: list[str], rows: list[tuple]) -> list[str]:
    index = {name: i for i, name in enumerate(columns)}
    system_width = max(6, max(len(str(row[index["system_name"]])) for row in rows))
    table = [Column("SYSTEM/NAME", system_width, lambda v: str(v).ljust(system_width))] + [
        Column(heading, width, show) for _, heading, show, width in LAYOUT
    ]
    title = "WLM GOALS MISSED (PERFORMANCE INDEX ABOVE 1)".center(table_width(table)).rstrip()
    return [title, ""] + render_table(
        table, [[row[index["system_name"]]] + [row[index[name]] for name, *_ in LAYOUT] for row in rows]
    )


def print_report(home: Home, date_from, date_to, fmt: str, system: str | None = None, out=None) -> int:
    return print_dated_report("pi", "WLM goals missed", fetch, render, home, date_from, date_to, fmt, system,
                              decimals=3, out=out)


def add_parser(subparsers) -> None:
    add_dated_report(subparsers, "pi", print_report, HELP, DESCRIPTION, "SYSA")
