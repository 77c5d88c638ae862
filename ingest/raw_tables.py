"""The raw tables in DuckDB, made from their declarations (``RawTable``, declared by the parsers).

``ensure_raw_tables`` creates every declared table that is missing, so that staging compiles before the
first file of a family arrives, and adds the declared columns an older table lacks; ``conform`` turns a
parser's batch into the table's shape before it is staged; ``make_room`` creates a table or adds the
extra columns of an open table when a batch needs them. A table is ``source_file_id`` (the loader's),
then the declared columns in their order, then the extra columns of an open table as files bring them.
"""

from __future__ import annotations

from typing import Iterable

import duckdb
import pyarrow as pa

from ingest.formats import registry
from ingest.formats.base import SOURCE_FILE_ID, RawTable
from ingest.formats.duck_types import duck_type


def existing_columns(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    """The columns of every table of schema ``raw``, by table."""
    found: dict[str, set[str]] = {}
    for table, column in con.execute(
        "select table_name, column_name from duckdb_columns() "
        "where schema_name = 'raw' and database_name = current_database()"
    ).fetchall():
        found.setdefault(table, set()).add(column)
    return found


def ensure_raw_tables(con: duckdb.DuckDBPyConnection, tables: Iterable[RawTable] | None = None) -> None:
    """Every declared raw table (``tables``, by default all the parsers declare) exists with every declared
    column. Idempotent, and it only adds: a column an older table has beyond its declaration stays."""
    con.execute("create schema if not exists raw")
    existing = existing_columns(con)
    for table in registry.raw_tables().values() if tables is None else tables:
        make_room(con, table, existing)


def make_room(con: duckdb.DuckDBPyConnection, table: RawTable, existing: dict[str, set[str]],
              batch: pa.Schema | None = None) -> None:
    """``raw.<table>`` exists with every declared column and every column of ``batch`` (a conformed batch's
    schema: an open table's extra columns): created from its declaration when missing, extended by the
    columns it lacks. ``existing`` (from ``existing_columns``) is kept up to date."""
    have = existing.get(table.name)
    if have is None:
        columns = ", ".join(f'"{c.name}" {duck_type(c.type)}' for c in table.stored_columns)
        con.execute(f'create table raw."{table.name}" ({columns})')
        have = existing[table.name] = set(c.name for c in table.stored_columns)
    wanted = [(c.name, c.type) for c in table.stored_columns] + [(f.name, f.type) for f in batch or ()]
    for name, arrow_type in wanted:
        if name not in have:
            con.execute(f'alter table raw."{table.name}" add column "{name}" {duck_type(arrow_type)}')
            have.add(name)


def conform(table: RawTable, rows: pa.Table) -> pa.Table:
    """A parser's batch in the shape of ``raw.<table>``: the declared columns in their order and types (NULL
    where the batch lacks one), then, for an open table, the batch's other columns (``_extra_type``).
    Another column in a closed table is a parser bug, and so is a value its declared type cannot hold."""
    if rows.schema.equals(table.schema):
        return rows
    declared = set(table.column_names)
    extra = [name for name in rows.column_names if name not in declared]
    if SOURCE_FILE_ID.name in extra or (extra and not table.open):
        raise ValueError(f"raw.{table.name} declares no column {', '.join(extra)}: declare it, or do not write it")
    arrays = [
        _cast(table, c.name, rows.column(c.name), c.type) if c.name in rows.column_names else pa.nulls(rows.num_rows, c.type)
        for c in table.columns
    ]
    arrays += [_cast(table, name, rows.column(name), _extra_type(rows.schema.field(name).type)) for name in extra]
    return pa.Table.from_arrays(arrays, names=[*table.column_names, *extra])


def _cast(table: RawTable, name: str, values: pa.ChunkedArray, arrow_type: pa.DataType) -> pa.ChunkedArray:
    if values.type == arrow_type:
        return values
    try:
        return values.cast(arrow_type)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise ValueError(f"raw.{table.name}.{name} is {arrow_type}, the parser gave {values.type}: {e}") from None


def _extra_type(arrow_type: pa.DataType) -> pa.DataType:
    """An undeclared column's type: the widest of its kind, since two forms (or two DDL versions) may bring the
    same item in different widths; an all-NULL column is text."""
    if pa.types.is_integer(arrow_type):
        return pa.int64()
    if pa.types.is_floating(arrow_type):
        return pa.float64()
    return pa.string() if pa.types.is_null(arrow_type) else arrow_type
