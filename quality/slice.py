"""What a nightly ``perfdb check`` validates: the slice of the warehouse touched since the last passing check.

    files   the manifest rows (``raw.ingest_files``) loaded after the high-water mark of the last passing
            run (``audit.validation_runs.loaded_through``)
    days    the (system, day) pairs those files hold, as ingest recorded them (``raw.ingest_file_days``,
            from the placement columns of the raw tables, ``RawTable.placement``)
    months  the (system, month) pairs of those days

The three sets are loaded into temporary tables of the check's read-only connection (``check_files``,
``check_days``, ``check_months``, and ``check_shift_dates``: the days and the days before them, since a
night shift runs into the next day), which the suites' sliced queries join, so that only the slice
reaches pandas and every comparison with older rows (gaps, monthly reconciliations) runs inside DuckDB.
A warehouse that was never checked successfully is validated whole (``perfdb check --all`` always is).
A check that fails does not move the mark, so the next check validates the same files again.

Validating whole, the suites read the warehouse in chunks of ``chunk_days`` dates (``plan_chunks``), so
that the frames pandas holds follow the chunk, not the history. The chunks partition the same four sets:
every (system, day) and shift date of the files' days (and the days before them) lies in the chunk of
its date, a month in the chunk of its first date, a file in the chunk of its first day (a file without
days in the first chunk). A row belongs to one chunk: it fails the run once, and the rows read add up to
the whole table's. Every uniqueness a suite expects holds a period or a file in its key, so it is
checked within a chunk. A suite whose sliced query does not cover its whole query (rows of a system or
a day no file recorded) reads its table whole (``covered``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Callable

import duckdb

FILES, DAYS, MONTHS, SHIFT_DATES = "check_files", "check_days", "check_months", "check_shift_dates"
CHUNK_DAYS = 14  # dates per chunk of ``perfdb check --all``
# the chunk of every (system, date), file and month, for ``perfdb check --all``
CHUNK_DATES, CHUNK_FILES, CHUNK_MONTHS = "check_chunk_dates", "check_chunk_files", "check_chunk_months"


@dataclass
class Slice:
    """The touched files, days and months; ``everything`` when the whole warehouse is validated."""

    everything: bool
    loaded_through: dt.datetime | None  # the newest manifest load time the check saw: the next mark
    since: dt.datetime | None = None  # the mark this check started from (None: never checked successfully)
    files: int = 0
    days: int = 0
    months: int = 0
    chunks: int = 0  # validating whole: the chunks the suites read (0: one read of every row)
    chunk_days: int = 0

    def describe(self) -> str:
        if self.everything:
            return f"every row, in {self.chunks} chunks of {self.chunk_days} days" if self.chunks > 1 else "every row"
        since = f"since {self.since:%Y-%m-%d %H:%M:%S}" if self.since else ""
        return f"the slice of {self.files} files loaded {since}: {self.days} (system, day)s, {self.months} months"


def _tables(con: duckdb.DuckDBPyConnection) -> set[tuple[str, str]]:
    return set(con.execute("select table_schema, table_name from information_schema.tables").fetchall())


def _last_mark(con: duckdb.DuckDBPyConnection, tables: set[tuple[str, str]]) -> dt.datetime | None:
    if ("audit", "validation_runs") not in tables:
        return None
    columns = {r[0] for r in con.execute(
        "select column_name from information_schema.columns "
        "where table_schema = 'audit' and table_name = 'validation_runs'"
    ).fetchall()}
    if "loaded_through" not in columns:
        return None  # runs recorded before checks were sliced: validate everything once
    return con.execute("select max(loaded_through) from audit.validation_runs where success").fetchone()[0]


def _days_query() -> str:
    """The (system, day)s of the slice's files, as ingest recorded them (``RawTable.placement``)."""
    return f"select distinct system_name, day from raw.ingest_file_days where source_file_id in (select file_id from {FILES})"


def prepare(con: duckdb.DuckDBPyConnection, everything: bool) -> Slice:
    """Decides the slice and loads it into the connection's temporary tables (empty when ``everything``)."""
    tables = _tables(con)
    loaded_through = None
    if ("raw", "ingest_files") in tables:
        loaded_through = con.execute("select max(ingested_at) from raw.ingest_files").fetchone()[0]
    since = None if everything else _last_mark(con, tables)
    found = Slice(everything=everything or since is None, loaded_through=loaded_through, since=since)
    con.execute(f"create or replace temp table {FILES} (file_id bigint)")
    con.execute(f"create or replace temp table {DAYS} (system_name varchar, day date)")
    con.execute(f"create or replace temp table {MONTHS} (system_name varchar, month date)")
    con.execute(f"create or replace temp table {SHIFT_DATES} (system_name varchar, day date)")
    if found.everything:
        return found
    con.execute(f"insert into {FILES} select file_id from raw.ingest_files where ingested_at > ?", [since])
    con.execute(f"insert into {DAYS} select system_name, day from ({_days_query()}) where day is not null")
    con.execute(f"insert into {MONTHS} select distinct system_name, cast(date_trunc('month', day) as date) from {DAYS}")
    con.execute(f"insert into {SHIFT_DATES} select system_name, day from {DAYS} union select system_name, day - 1 from {DAYS}")
    found.files, found.days, found.months = (
        con.execute(f"select count(*) from {name}").fetchone()[0] for name in (FILES, DAYS, MONTHS)
    )
    return found


def plan_chunks(con: duckdb.DuckDBPyConnection, chunk_days: int) -> int:
    """Validating whole: the chunk of every (system, date), file and month, in temporary tables; returns
    how many chunks there are (0 when no file recorded a day)."""
    con.execute(f"""create or replace temp table {CHUNK_DATES} as
        with file_days as (
            select system_name, day from raw.ingest_file_days where day is not null
        ),
        dates as (
            select system_name, day from file_days
            union
            select system_name, day - 1 from file_days
        ),
        numbered as (
            select day, cast((dense_rank() over (order by day) - 1) // {int(chunk_days)} as integer) as chunk
            from (select distinct day from dates)
        )
        select dates.system_name, dates.day, numbered.chunk
        from dates inner join numbered on numbered.day = dates.day""")
    con.execute(f"""create or replace temp table {CHUNK_FILES} as
        select files.file_id, coalesce(min(dates.chunk), 0) as chunk
        from raw.ingest_files as files
        left join raw.ingest_file_days as days on days.source_file_id = files.file_id
        left join {CHUNK_DATES} as dates on dates.system_name = days.system_name and dates.day = days.day
        group by files.file_id""")
    con.execute(f"""create or replace temp table {CHUNK_MONTHS} as
        select system_name, cast(date_trunc('month', day) as date) as month, min(chunk) as chunk
        from {CHUNK_DATES} group by 1, 2""")
    return con.execute(f"select count(distinct chunk) from {CHUNK_DATES}").fetchone()[0]


def select_chunk(con: duckdb.DuckDBPyConnection, chunk: int | None) -> None:
    """Loads one chunk (None: every chunk at once) into the slice's temporary tables."""
    where = "" if chunk is None else f"where chunk = {int(chunk)}"
    for table in (FILES, DAYS, MONTHS, SHIFT_DATES):
        con.execute(f"delete from {table}")
    con.execute(f"insert into {FILES} select file_id from {CHUNK_FILES} {where}")
    con.execute(f"insert into {DAYS} select system_name, day from {CHUNK_DATES} {where}")
    con.execute(f"insert into {SHIFT_DATES} select system_name, day from {CHUNK_DATES} {where}")
    con.execute(f"insert into {MONTHS} select system_name, month from {CHUNK_MONTHS} {where}")


def covered(con: duckdb.DuckDBPyConnection, query: str, sliced_query: str) -> bool:
    """Whether the chunks together read every row of ``query`` (every chunk loaded: ``select_chunk(None)``);
    a query without rows is read whole, where its expectations meet an empty frame as before."""
    whole, chunked = (con.execute(f"select count(*) from ({q}) as frame").fetchone()[0] for q in (query, sliced_query))
    return whole == chunked > 0


# -- what the suites' sliced queries use -------------------------------------------------------------------

def in_files(column: str) -> str:
    return f"{column} in (select file_id from {FILES})"


def on_days(system: str, day: str) -> str:
    """``day`` (a date expression) of ``system`` is a touched day."""
    return f"exists (select 1 from {DAYS} as touched where touched.system_name = {system} and touched.day = {day})"


def on_shift_dates(system: str, shift_date: str) -> str:
    """A shift dated ``shift_date`` holds hours of a touched day: a night shift runs into the next day, so
    the slice's shift dates are its days and the days before them."""
    return (f"exists (select 1 from {SHIFT_DATES} as touched where touched.system_name = {system} "
            f"and touched.day = {shift_date})")


def in_months(system: str, month: str) -> str:
    """``month`` (the first day of a month) of ``system`` holds a touched day."""
    return f"exists (select 1 from {MONTHS} as touched where touched.system_name = {system} and touched.month = {month})"


def source(relation: str, in_slice: Callable[[str], str] | None, entity: tuple[str, ...] = (), time: str = "") -> str:
    """A CTE ``source``: the rows of ``relation`` a suite reads, with a column ``in_slice``.

    ``in_slice(alias)`` says whether a row is in the slice; None reads every row. For an ``entity`` whose
    rows follow each other in ``time`` (a gap check looks at the row before), the rows of other files or
    days between each entity's last row before the slice (however old) and its last row in the slice come
    along with ``in_slice`` false, so that the comparison with the row before runs as on the whole table.
    """
    if in_slice is None:
        return f"source as (\n    select *, true as in_slice from {relation}\n)"
    if not entity:
        return f"source as (\n    select *, true as in_slice from {relation} as r where {in_slice('r')}\n)"
    cols = ", ".join(entity)
    on = lambda a, b: " and ".join(f"{a}.{c} = {b}.{c}" for c in entity)  # noqa: E731
    s_cols = ", ".join(f"s.{c}" for c in entity)
    return f"""slice_rows as (
    select * from {relation} as r where {in_slice('r')}
),

windows as (
    select {s_cols}, s.last_time, coalesce(max(o.{time}), s.first_time) as window_from
    from (select {cols}, min({time}) as first_time, max({time}) as last_time from slice_rows group by {cols}) as s
    left join {relation} as o
        on {on('o', 's')}
        and o.{time} < s.first_time
    group by {s_cols}, s.first_time, s.last_time
),

source as (
    select *, true as in_slice from slice_rows
    union all
    select o.*, false as in_slice
    from {relation} as o
    inner join windows as w
        on {on('o', 'w')}
        and o.{time} between w.window_from and w.last_time
    where not ({in_slice('o')})
)"""
