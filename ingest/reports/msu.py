"""``perfdb report msu``: MSU, the rolling four-hour average (4HRA) and capping of z/OS images (SMF 70.1).

For each z/OS image and month: the peak valid 4HRA (what sub-capacity pricing charges for) and the interval
that ended it, the defined capacity, the intervals capped (``marts.fct_msu_lpar_monthly``); with
``--limit MSU``, the percent of the month's valid intervals whose 4HRA exceeds that candidate defined
capacity: the share of time it would have capped, counted over ``marts.fct_msu_lpar_interval``. Sample::

    SYSTEM  MONTH    PEAK 4HRA  PEAK INTERVAL     DEFINED  VALID  CAPPED  CAPPED %  LIMIT  OVER LIMIT %
    SYSA    2026-01      533.1  2026-01-07 14:00      480    137      27      19.7    500          12.4

``--format csv`` and ``--format json`` print the same columns by name (system_id, month_start, ...).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys

from ingest.cli_options import add_format, add_system_filter, home_of, subcommand
from ingest.home import Home
from ingest.reports._marts import ReportError, no_data_message, print_machine_readable, query_mart, resolve_system, where

HELP = "MSU, the rolling four-hour average and capping of z/OS images"
DESCRIPTION = """For each z/OS image and month: the peak valid 4HRA and its interval, the intervals capped, and with
--limit the percent of valid intervals whose 4HRA exceeds a candidate defined capacity."""

MONTHLY = "marts.fct_msu_lpar_monthly"
INTERVALS = "marts.fct_msu_lpar_interval"


def month(text: str) -> dt.date:
    """``--month 2026-01``: the first day of that month."""
    try:
        return dt.datetime.strptime(text, "%Y-%m").date()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a month, YYYY-MM") from None


def fetch(home: Home, system: str | None, month_start: dt.date | None, limit: float | None):
    conditions, params = where({"monthly.system_id = ?": system, "monthly.month_start = ?": month_start})
    # the projection counts the month's valid intervals above the candidate limit, one by one
    projection = (
        ", ? as limit_msu_per_h, 100.0 * (select count(*) from " + INTERVALS + " as i where i.system_id = monthly.system_id"
        " and cast(date_trunc('month', i.interval_start) as date) = monthly.month_start and i.is_4hra_valid"
        " and i.rolling_4h_msu_per_h > ?) / nullif(monthly.valid_interval_count, 0) as over_limit_pct"
        if limit is not None else ""
    )
    sql = (
        "select monthly.system_id, monthly.month_start, monthly.peak_4hra_msu_per_h, monthly.peak_interval_start,"
        " monthly.defined_capacity_msu_per_h, monthly.valid_interval_count, monthly.capped_interval_count,"
        f" monthly.capped_pct{projection} from {MONTHLY} as monthly{conditions}"
        " order by monthly.month_start, monthly.system_id"
    )
    return query_mart(home, sql, ([limit, limit] if limit is not None else []) + params)


HEADINGS = [("system_id", "SYSTEM", "{}"), ("month_start", "MONTH", "{:%Y-%m}"), ("peak_4hra_msu_per_h", "PEAK 4HRA", "{:.1f}"),
            ("peak_interval_start", "PEAK INTERVAL", "{:%Y-%m-%d %H:%M}"), ("defined_capacity_msu_per_h", "DEFINED", "{}"),
            ("valid_interval_count", "VALID", "{}"), ("capped_interval_count", "CAPPED", "{}"), ("capped_pct", "CAPPED %", "{:.1f}"),
            ("limit_msu_per_h", "LIMIT", "{:g}"), ("over_limit_pct", "OVER LIMIT %", "{:.1f}")]


def render(columns: list[str], rows: list[tuple]) -> list[str]:
    shown = [(columns.index(name), heading, fmt) for name, heading, fmt in HEADINGS if name in columns]
    cells = [[heading for _, heading, _ in shown]] + [
        ["" if row[i] is None else fmt.format(row[i]) for i, _, fmt in shown] for row in rows
    ]
    widths = [max(len(line[k]) for line in cells) for k in range(len(shown))]
    return ["  ".join(c.ljust(w) if k < 2 else c.rjust(w) for k, (c, w) in enumerate(zip(line, widths))).rstrip()
            for line in cells]


def print_report(home: Home, system: str | None, month_start: dt.date | None, limit: float | None, fmt: str, out=None) -> int:
    out = out or sys.stdout
    if limit is not None and limit < 0:
        print(f"perfdb report msu: --limit {limit:g} is negative; a defined capacity is MSU per hour, 0 or more", file=sys.stderr)
        return 2
    try:
        columns, rows = fetch(home, resolve_system(home, system), month_start, limit)
        if not rows:
            raise ReportError(no_data_message(home, "of z/OS MSU (SMF 70.1)" + (f" in {month_start:%Y-%m}" if month_start else "")))
    except ReportError as e:
        print(f"perfdb report msu: {e}", file=sys.stderr)
        return 1
    if fmt != "table":
        print_machine_readable(columns, rows, fmt, out=out, decimals=3)
    else:
        out.write("\n".join(render(columns, rows)) + "\n")
    return 0


def run(args) -> int:
    return print_report(home_of(args), args.system, args.month, args.limit, args.format)


def add_parser(subparsers) -> None:
    p = subcommand(subparsers, "msu", run, HELP, DESCRIPTION)
    add_system_filter(p, "SYSA")
    p.add_argument("--month", type=month, help="only this month, YYYY-MM")
    p.add_argument("--limit", type=float, help="a candidate defined capacity, MSU/h: the percent of valid intervals above it")
    add_format(p)
