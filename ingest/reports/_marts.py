"""What every report does with the published warehouse: query a mart of ``serving.duckdb`` (read-only),
filter it by the options given, and print its rows as CSV or JSON keyed by the mart's column names.
"""

from __future__ import annotations

from ingest.home import Home
from ingest.output import print_rows


class ReportError(Exception):
    """The report cannot be produced; the message says why and what to run."""


def where(conditions: dict[str, object]) -> tuple[str, list]:
    """A where clause of the conditions whose value is given, and their parameters:
    ``where({"system_name = ?": None, "trend_date >= ?": day})`` is ``(" where trend_date >= ?", [day])``."""
    given = {condition: value for condition, value in conditions.items() if value is not None and value != ""}
    return (" where " + " and ".join(given) if given else ""), list(given.values())


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


def print_machine_readable(columns: list[str], rows: list[tuple], fmt: str, out=None) -> None:
    """CSV or JSON with the mart's column names; in CSV a list prints as its items joined by `;`."""
    if fmt == "csv":
        rows = [tuple(";".join(v) if isinstance(v, list) else v for v in row) for row in rows]
    print_rows(columns, rows, fmt, out=out)
