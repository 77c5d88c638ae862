"""What every report does with the published warehouse: query a mart of ``serving.duckdb`` (read-only),
filter it by the options given, and print its rows as CSV or JSON keyed by the mart's column names.
"""

from __future__ import annotations

import sys
from typing import Callable

from ingest.cli_options import add_date_range, add_format, add_system_filter, home_of, subcommand
from ingest.home import Home
from ingest.output import print_rows, round_floats


class ReportError(Exception):
    """The report cannot be produced; the message says why and what to run."""


def where(conditions: dict[str, object]) -> tuple[str, list]:
    """A where clause of the conditions whose value is given, and their parameters:
    ``where({"system_name = ?": None, "trend_date >= ?": day})`` is ``(" where trend_date >= ?", [day])``."""
    given = {condition: value for condition, value in conditions.items() if value is not None and value != ""}
    return (" where " + " and ".join(given) if given else ""), list(given.values())


# the columns that name a measured system or host, and those that place a row on a day, in every mart
SYSTEM_COLUMNS = ("system_name", "host", "system_id")
DAY_COLUMNS = ("shift_date", "interval_start", "captured_at", "hour_start")


def _columns_named(home: Home, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(table, column) of every marts table with one of ``names``, the first of them for each table."""
    marks = ", ".join("?" for _ in names)
    _, rows = query_mart(
        home,
        f"select table_name, column_name from information_schema.columns "
        f"where table_schema = 'marts' and column_name in ({marks}) order by table_name",
        list(names),
    )
    first: dict[str, str] = {}
    for table, column in rows:
        if table not in first or names.index(column) < names.index(first[table]):
            first[table] = column
    return sorted(first.items())


def known_systems(home: Home) -> list[str]:
    """Every system and host measured: named in a mart whose rows are placed on a day (the published reference
    systems the benchmark and cost marts compare with are not measured here)."""
    measured = dict(_columns_named(home, DAY_COLUMNS))
    selects = [f"select cast({column} as varchar) as name from marts.{table}"
               for table, column in _columns_named(home, SYSTEM_COLUMNS) if table in measured]
    if not selects:
        return []
    _, rows = query_mart(home, f"select distinct name from ({' union all '.join(selects)}) where name is not null "
                               "order by name", [])
    return [name for (name,) in rows]


def resolve_system(home: Home, name: str | None) -> str | None:
    """The system ``--system`` names, as the marts spell it: ``PROD1`` is ``\\PROD1`` (the shell ate the backslash
    of an unquoted NonStop name), and case does not matter; a name no mart holds raises ReportError."""
    if not name:
        return None
    known = known_systems(home)
    for candidate in (name, "\\" + name.lstrip("\\")):
        matches = [k for k in known if k.lower() == candidate.lower()]
        if matches:
            return matches[0]
    raise ReportError(f"unknown system {name!r}; known: {', '.join(known) or 'none (the warehouse is empty)'}")


def data_range(home: Home) -> tuple | None:
    """The first and last day any mart holds measurements of (None when there are none)."""
    selects = [f"select cast({column} as date) as day from marts.{table}"
               for table, column in _columns_named(home, DAY_COLUMNS)]
    if not selects:
        return None
    _, rows = query_mart(home, f"select min(day), max(day) from ({' union all '.join(selects)})", [])
    return rows[0] if rows and rows[0][0] is not None else None


def has_data_on(home: Home, day) -> bool:
    selects = [f"select 1 from marts.{table} where cast({column} as date) = ?"
               for table, column in _columns_named(home, DAY_COLUMNS)]
    if not selects:
        return False
    _, rows = query_mart(home, f"select exists({' union all '.join(selects)})", [day] * len(selects))
    return bool(rows[0][0])


def no_data_message(home: Home, what: str) -> str:
    """``no data on 2027-01-01; the warehouse holds 2026-01-05 to 2026-03-05``."""
    span = data_range(home)
    held = f"the warehouse holds {span[0]} to {span[1]}" if span else "the warehouse holds no measurements yet"
    return f"no data {what}; {held}"


def query_mart(home: Home, sql: str, params: list) -> tuple[list[str], list[tuple]]:
    """Runs a query on serving.duckdb (read-only); a missing warehouse or mart raises ReportError."""
    # imported here: every `perfdb` start registers each report's options, only a report that runs needs DuckDB
    import duckdb

    from ingest.warehouse.serving import connect_serving

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


def print_machine_readable(columns: list[str], rows: list[tuple], fmt: str, out=None, *, decimals: int) -> None:
    """CSV or JSON with the mart's column names, numbers to the report's precision; in CSV a list prints as its
    items joined by `;`."""
    rows = round_floats(rows, decimals)
    if fmt == "csv":
        rows = [tuple(";".join(v) if isinstance(v, list) else v for v in row) for row in rows]
    print_rows(columns, rows, fmt, out=out)


def print_dated_report(report: str, what: str, fetch: Callable, render: Callable, home: Home, date_from, date_to,
                       fmt: str, system: str | None, *, decimals: int, out=None) -> int:
    """A report of a mart's rows between two days: ``fetch(home, date_from, date_to, system)`` gives its columns
    and rows, printed as CSV or JSON to ``decimals``, or as the lines of ``render(columns, rows)``; `what` the
    rows are says what is missing when there are none (exit 1), a reversed range exits 2."""
    out = out or sys.stdout
    if date_from and date_to and date_from > date_to:
        print(f"perfdb report {report}: --from {date_from} is after --to {date_to}", file=sys.stderr)
        return 2
    try:
        columns, rows = fetch(home, date_from, date_to, resolve_system(home, system))
        if not rows:
            raise ReportError(no_data_message(
                home, f"of {what} between {date_from or 'the start'} and {date_to or 'the end'}"))
    except ReportError as e:
        print(f"perfdb report {report}: {e}", file=sys.stderr)
        return 1
    if fmt != "table":
        print_machine_readable(columns, rows, fmt, out=out, decimals=decimals)
    else:
        out.write("\n".join(render(columns, rows)) + "\n")
    return 0


def add_dated_report(subparsers, name: str, print_report: Callable, help: str, description: str,
                     example_system: str) -> None:
    """``perfdb report NAME [--from DAY] [--to DAY] [--system NAME] [--format F]``, run by
    ``print_report(home, date_from, date_to, fmt, system)`` (a ``print_dated_report``)."""

    def run(args) -> int:
        return print_report(home_of(args), args.date_from, args.date_to, args.format, args.system)

    p = subcommand(subparsers, name, run, help, description)
    add_date_range(p)
    add_system_filter(p, example_system)
    add_format(p)
