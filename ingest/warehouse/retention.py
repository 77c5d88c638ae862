"""Retention: old detail ages out on the schedule of the dbt seed ``retention`` (``seeds.retention``).

    family,keep_days
    raw,90
    interval,90
    hourly,400
    shift,

A family keeps the days after (newest day loaded for the system) - keep_days; an empty keep_days keeps
everything. Applied after every complete build (``perfdb build``, ``perfdb run``):

- ``raw``: a file whose (system, day) pairs (``raw.ingest_file_days``) are all older is purged: its rows
  leave every raw table, its manifest row stays with status ``purged``, so the same file sent again is
  recognised as already loaded and not loaded twice.
- ``interval``, ``hourly``: the rows of older days are deleted from the day models whose dbt meta names
  the family (``meta={'retention': 'hourly'}``; the model's unique_key names its system and period
  columns), read from dbt's manifest of the last build.

Shift, month and year facts are never purged, and never recomputed from purged detail: they are
incremental models, rebuilt only for days touched by files loaded or removed since the last build; a day
or a shift that holds a purged day is never rebuilt (``build_purged_days``), while weeks, months and years
are condensed from shift rows, which stay. For the same reason, ``perfdb build
--full-refresh`` on a warehouse with purged files rebuilds every day still kept instead of starting from
empty tables (``purged_through``, ``ingest/dbt_runner.py``).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

import duckdb

from ingest.home import Home
from ingest.warehouse.database import connect, first_row, raw_data_tables

DETAIL_FAMILIES = ("interval", "hourly")


@dataclass
class RetentionResult:
    files_purged: int = 0
    raw_rows: int = 0
    detail_rows: dict[str, int] = field(default_factory=dict)  # relation -> rows deleted

    def line(self) -> str:
        return (f"retention: {self.files_purged} raw files purged ({self.raw_rows} rows), "
                f"{sum(self.detail_rows.values())} detail rows of {len(self.detail_rows)} day models deleted")


@dataclass(frozen=True)
class DayModel:
    family: str
    relation: str  # schema.table
    system_column: str
    period_column: str


def day_models(home: Home) -> list[DayModel]:
    """The day models whose meta names a retention family, from dbt's manifest of the last build."""
    manifest = home.warehouse_dir / "dbt_target" / "manifest.json"
    if not manifest.exists():
        return []
    models = []
    for node in json.loads(manifest.read_text())["nodes"].values():
        config = node.get("config", {})
        family = (config.get("meta") or {}).get("retention")
        if node.get("resource_type") == "model" and family:
            system_column, period_column = config["unique_key"]
            models.append(DayModel(family, f"{node['schema']}.{node['alias']}", system_column, period_column))
    return sorted(models, key=lambda m: m.relation)


def keep_days(con: duckdb.DuckDBPyConnection) -> dict[str, int | None]:
    """family -> days kept (None: forever); empty before the first build has loaded the seed."""
    if not first_row(con, "select 1 from duckdb_tables() where schema_name = 'seeds' and table_name = 'retention' "
                          "and database_name = current_database()"):
        return {}
    return dict(con.execute("select family, keep_days from seeds.retention").fetchall())


# the newest day of each system, and the last day a family with `keep` days no longer keeps
_CUTOFFS = """
    select system_name, max(day) - cast(? as integer) as last_purged_day
    from raw.ingest_file_days group by system_name
"""


def purged_through(home: Home) -> dt.date | None:
    """The newest day of a raw file retention purged, or None when nothing was purged (the days that
    dbt's ``build_purged_days`` lists, asked before dbt runs)."""
    if not home.db_path.exists():
        return None
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        if not first_row(con, "select 1 from duckdb_tables() where schema_name = 'raw' and table_name = 'ingest_files' "
                              "and database_name = current_database()"):
            return None
        return first_row(con, "select max(days.day) from raw.ingest_file_days as days inner join raw.ingest_files as files "
                              "on files.file_id = days.source_file_id where files.status = 'purged'")[0]
    finally:
        con.close()


def apply_retention(home: Home) -> RetentionResult:
    """Purges what the seed no longer keeps, in one transaction."""
    con = connect(home)
    result = RetentionResult()
    try:
        keep = keep_days(con)
        con.begin()
        if keep.get("raw"):
            _purge_raw(con, keep["raw"], result)
        for model in day_models(home):
            if model.family in DETAIL_FAMILIES and keep.get(model.family):
                result.detail_rows[model.relation] = _count(con.execute(
                    f"delete from {model.relation} where exists ("
                    f"select 1 from ({_CUTOFFS}) as cutoffs where cutoffs.system_name = {model.relation}.{model.system_column} "
                    f"and cast({model.relation}.{model.period_column} as date) <= cutoffs.last_purged_day)",
                    [keep[model.family]],
                ))
        con.commit()
    except Exception:
        con.rollback()
        raise
    finally:
        con.close()
    return result


def _purge_raw(con: duckdb.DuckDBPyConnection, keep: int, result: RetentionResult) -> None:
    """Files all of whose days are past their system's cutoff: rows deleted, manifest row kept as purged."""
    ids = [r[0] for r in con.execute(
        f"""select days.source_file_id
            from raw.ingest_file_days as days
            inner join ({_CUTOFFS}) as cutoffs on cutoffs.system_name = days.system_name
            inner join raw.ingest_files as files on files.file_id = days.source_file_id
            where files.status in ('loaded', 'loaded_with_rejects')
            group by days.source_file_id
            having max(case when days.day > cutoffs.last_purged_day then 1 else 0 end) = 0
            order by 1""",
        [keep],
    ).fetchall()]
    if not ids:
        return
    for table in raw_data_tables(con):
        result.raw_rows += _count(con.execute(
            f"delete from raw.{table} where source_file_id in (select unnest(?))", [ids]))
    con.execute("update raw.ingest_files set status = 'purged' where file_id in (select unnest(?))", [ids])
    # a purged copy conflicts with nothing any more: its rows are gone
    con.execute("delete from raw.key_conflicts where file_id in (select unnest(?)) or other_file_id in (select unnest(?))",
                [ids, ids])
    result.files_purged = len(ids)


def _count(cursor) -> int:
    """Rows a DuckDB delete affected (its result is one row holding the count)."""
    rows = cursor.fetchall()
    return int(rows[0][0]) if rows else 0
