"""``perfdb report threshold``: the daily threshold report of the MEASURE performance data base.

It prints the rows of ``marts.rpt_threshold_violations`` for one shift date. There is one row for
each processor whose shift values cross a threshold of the ``thresholds`` seed. The layout is
Figure 1 of King, "How to Set Up a Performance Data Base with MEASURE and ENFORM" (Tandem Systems
Review, December 1986). Each system and shift gets a block with a title. The report has the same
stacked headings as the figure. Numbers use the ENFORM F5.1 mask, which prints ``.2`` for 0.2.
Sample output, for rows that carry the values of Figure 1::

                                    THRESHOLD REPORT
     SYSTEM: \\BANCA
     DATE: 05/08/86
     SHIFT 1
     OS VERSION: B30

          TIME   MAX    DELT   MAX    MAX    DELT   MAX    AVG    AVG    AVG    AVG
    CPU    OF    CPU    CPU    CPU    CPU    CPU    INTR   CPU    CPU    CPU    CPU
     #    DAY    QLEN   QLEN   SWAP   BUSY   BUSY   BUSY   QLEN   SWAP   BUSY   INTR
      0  11:00    2.0    1.3     .2   55.4   10.5    8.5    1.2     .1   42.6    6.3

``--format csv`` and ``--format json`` print the mart's own columns. In JSON each row is an
object keyed by column name (system_name, shift_date, shift, cpu_num, ..., rules_crossed). If no
processor crossed a threshold on that date, the table format prints nothing to stdout, as ENFORM
did, and says so on stderr.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import sys

import duckdb

from ingest.output import print_rows
from ingest.reports._enform_format import Column, f_mask, i_mask, render_table, table_width
from ingest.warehouse import Home, connect_serving

MART = "marts.rpt_threshold_violations"

# Figure 1's columns: (mart column, heading, mask). The headings are the ones Figure 1 prints.
# Figure 9 has "AVG/INTR/BUSY" where Figure 1 prints "AVG CPU INTR".
FIGURE_1 = [
    ("cpu_num", "CPU/#", lambda v: i_mask(v, 2), 2),
    ("time_of_day", "TIME/OF/DAY", lambda v: v.strftime("%H:%M") if v is not None else "", 5),
    ("qlen_max", "MAX/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("qlen_spread_across_hours", "DELT/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("swaps_per_s_max", "MAX/CPU/SWAP", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_max", "MAX/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_spread_across_hours", "DELT/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("ibusy_pct_max", "MAX/INTR/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("qlen_avg", "AVG/CPU/QLEN", lambda v: f_mask(v, 5, 1), 5),
    ("swaps_per_s_avg", "AVG/CPU/SWAP", lambda v: f_mask(v, 5, 1), 5),
    ("busy_pct_avg", "AVG/CPU/BUSY", lambda v: f_mask(v, 5, 1), 5),
    ("ibusy_pct_avg", "AVG/CPU/INTR", lambda v: f_mask(v, 5, 1), 5),
]
COLUMNS = [Column(heading, width, render) for _, heading, render, width in FIGURE_1]


class ReportError(Exception):
    """The report cannot be produced; the message says why and what to run."""


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, got {text!r}") from None


def query_mart(home: Home, sql: str, params: list) -> tuple[list[str], list[tuple]]:
    """Runs a query on serving.duckdb (read-only); a missing warehouse or mart raises ReportError."""
    try:
        con = connect_serving(home)
    except FileNotFoundError as e:
        raise ReportError(str(e)) from None
    try:
        cur = con.execute(sql, params)
        return [d[0] for d in cur.description], cur.fetchall()
    except duckdb.CatalogException as e:
        raise ReportError(
            f"{home.serving_path}: {e.args[0].splitlines()[0]}; run `perfdb build` and `perfdb publish`"
        ) from None
    finally:
        con.close()


def print_machine_readable(columns: list[str], rows: list[tuple], fmt: str, out=None) -> None:
    """CSV or JSON with the mart's column names; in CSV a list prints as its items joined by `;`."""
    if fmt == "csv":
        rows = [tuple(";".join(v) if isinstance(v, list) else v for v in row) for row in rows]
    print_rows(columns, rows, fmt, out=out)


def fetch(home: Home, date: dt.date, system: str | None) -> tuple[list[str], list[tuple]]:
    sql = f"select * from {MART} where shift_date = ?"
    params: list = [date]
    if system:
        sql += " and system_name = ?"
        params.append(system)
    return query_mart(home, sql + " order by system_name, shift, cpu_num", params)


def render(columns: list[str], rows: list[tuple]) -> list[str]:
    """The Figure 1 layout: one titled block per system, date and shift."""
    index = {name: i for i, name in enumerate(columns)}
    width = table_width(COLUMNS)
    lines: list[str] = []

    def block_key(row):
        return row[index["system_name"]], row[index["shift_date"]], row[index["shift"]]

    for (system, date, shift), block in itertools.groupby(rows, key=block_key):
        block = list(block)
        os_version = block[0][index["os_version"]] or ""
        lines += [
            "THRESHOLD REPORT".center(width).rstrip(),
            f" SYSTEM: {system}",
            f" DATE: {date:%m/%d/%y}",
            f" SHIFT {shift}",
            f" OS VERSION: {os_version}",
            "",
        ]
        lines += render_table(COLUMNS, [[row[index[name]] for name, *_ in FIGURE_1] for row in block])
        lines.append("")
    return lines


def print_report(home: Home, date: dt.date, fmt: str, system: str | None = None, out=None) -> int:
    out = out or sys.stdout
    try:
        columns, rows = fetch(home, date, system)
    except ReportError as e:
        print(f"perfdb report threshold: {e}", file=sys.stderr)
        return 1
    if fmt != "table":
        print_machine_readable(columns, rows, fmt, out=out)
    elif rows:
        out.write("\n".join(render(columns, rows)) + "\n")
    else:
        print(f"perfdb report threshold: no processor crossed a threshold on {date}", file=sys.stderr)
    return 0


def print_busiest_day(home: Home, fmt: str) -> int:
    """The threshold report of the shift date with the most violations (the latest one on a tie)."""
    try:
        _, rows = query_mart(
            home,
            f"select shift_date from {MART} group by shift_date order by count(*) desc, shift_date desc limit 1",
            [],
        )
    except ReportError as e:
        print(f"perfdb report threshold: {e}", file=sys.stderr)
        return 1
    if not rows:
        print("perfdb report threshold: no processor crossed a threshold on any day", file=sys.stderr)
        return 0
    return print_report(home, rows[0][0], fmt)


def run(args) -> int:
    return print_report(Home.from_args(args), args.date, args.format, args.system)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "threshold",
        help="daily threshold report (processors over the seeded thresholds)",
        description="Processors whose shift values crossed a threshold on DATE, in the layout of the "
        "ENFORM threshold report.",
    )
    p.add_argument("--date", type=iso_date, required=True, help="shift date, YYYY-MM-DD")
    p.add_argument("--system", help="only this system, e.g. '\\TAHITI'")
    p.add_argument("--format", choices=["table", "csv", "json"], default="table")
    p.set_defaults(func=run)
