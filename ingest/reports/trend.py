"""``perfdb report trend``: the CPU trend report of the MEASURE performance data base.

It prints ``marts.rpt_cpu_trend`` for a range of days: for each system and day, the hour with the
largest maximum average CPU queue length. The columns of that hour are the maximum queue, the
spread of the queue between processors, the maximum swap rate, the maximum CPU busy, and the busy
spread between the busiest and the least busy processor. The layout is Figure 2 of King, "How to
Set Up a Performance Data Base with MEASURE and ENFORM" (Tandem Systems Review, December 1986).
Sample output, for rows that carry the values of Figure 2::

                              CPU TREND REPORT
                           DATES: JAN 1 TO APR 2

                                       MAX    DELT   MAX    MAX    DELT
    SYSTEM   LOADID  CPU   CPU   OS    CPU    CPU    CPU    CPU    CPU
     NAME   DTDDDHH  NUM  TYPE  VERS   QLEN   QLEN   SWAP   BUSY   BUSY
     \\POS   DT00111   01   02   B30     1.5     .3     .2   35.4    5.5

``--format csv`` and ``--format json`` print the mart's own columns. In JSON each row is an
object keyed by column name (system_name, trend_date, hour_start, loadid, cpu_num, ...).
"""

from __future__ import annotations

import datetime as dt

from ingest.home import Home
from ingest.reports._enform_format import Column, f_mask, render_table, table_width, zero_filled
from ingest.reports._marts import add_dated_report, print_dated_report, query_mart, where

# what `perfdb report --help` lists and `perfdb report trend --help` explains
HELP = "CPU trend report (the busiest hour of each day)"
DESCRIPTION = """For each system and day, the hour with the longest CPU queue, in the layout of the ENFORM CPU trend
report."""

MART = "marts.rpt_cpu_trend"

FIGURE_2 = [
    ("loadid", "LOADID/DTDDDHH", lambda v: (v or "").ljust(7), 7),
    ("cpu_num", "CPU/NUM", lambda v: zero_filled(v, 2), 2),
    ("cpu_type", "CPU/TYPE", lambda v: zero_filled(v, 2), 2),
    ("os_version", "OS/VERS", lambda v: (v or "").ljust(4), 4),
    ("qlen_max", "MAX/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("qlen_spread_across_cpus", "DELT/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("swaps_per_s_max", "MAX/CPU/SWAP", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_max", "MAX/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_spread_across_cpus", "DELT/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
]


def fetch(home: Home, date_from: dt.date | None, date_to: dt.date | None, system: str | None):
    sql, params = where({"trend_date >= ?": date_from, "trend_date <= ?": date_to, "system_name = ?": system})
    return query_mart(home, f"select * from {MART}{sql} order by trend_date, system_name", params)


def dates_heading(first: dt.date, last: dt.date) -> str:
    """``DATES: JAN 1 TO APR 2``; the years are shown only when the range spans more than one."""
    def day(d: dt.date, with_year: bool) -> str:
        return f"{d:%b} {d.day}".upper() + (f" {d.year}" if with_year else "")

    with_year = first.year != last.year
    return f"DATES: {day(first, with_year)} TO {day(last, with_year)}"


def render(columns: list[str], rows: list[tuple], first: dt.date, last: dt.date) -> list[str]:
    index = {name: i for i, name in enumerate(columns)}
    system_width = max(len(str(row[index["system_name"]])) for row in rows)
    table = [Column("SYSTEM/NAME", system_width, lambda v: str(v).ljust(system_width))] + [
        Column(heading, width, render) for _, heading, render, width in FIGURE_2
    ]
    width = table_width(table)
    lines = ["CPU TREND REPORT".center(width).rstrip(), dates_heading(first, last).center(width).rstrip(), ""]
    lines += render_table(
        table, [[row[index["system_name"]]] + [row[index[name]] for name, *_ in FIGURE_2] for row in rows]
    )
    return lines


def print_report(home: Home, date_from, date_to, fmt: str, system: str | None = None, out=None) -> int:
    def table(columns: list[str], rows: list[tuple]) -> list[str]:
        day = columns.index("trend_date")
        return render(columns, rows, date_from or rows[0][day], date_to or rows[-1][day])

    # decimals: the F5.1 of the printed report
    return print_dated_report("trend", "hourly CPU", fetch, table, home, date_from, date_to, fmt, system, decimals=1, out=out)


def add_parser(subparsers) -> None:
    add_dated_report(subparsers, "trend", print_report, HELP, DESCRIPTION, "\\POS")
