"""``perfdb publish`` brings the slot readers do not use up to date and points serving.duckdb at it: raw
rows travel by file (added, removed, partly purged), every other table and view is rewritten, and the
published warehouse equals the built one table by table. A slot a reader still holds is copied afresh, and
so is a slot whose sync would rewrite more than a small share of the rows (copying bytes is cheaper)."""

from __future__ import annotations

import os
import subprocess
import sys

import duckdb

from ingest.home import Home
from ingest.warehouse import database, serving

READ = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print(con.execute("select count(*), sum(v) from raw.readings").fetchone())
"""


def _sql(home: Home, *statements: str) -> None:
    con = database.connect(home)
    try:
        for statement in statements:
            con.execute(statement)
    finally:
        con.close()


def _differences(home: Home) -> dict[str, int]:
    """Rows that differ between perfdb.duckdb and what serving.duckdb points at, by table (none: equal)."""
    con = duckdb.connect()
    try:
        con.execute(f"attach '{home.db_path}' as built (read_only)")
        con.execute(f"attach '{home.serving_path}' as served (read_only)")
        names = {db: set(con.execute(
            "select schema_name || '.' || table_name from duckdb_tables() where database_name = ?", [db]
        ).fetchall()) for db in ("built", "served")}
        assert names["built"] == names["served"]
        out = {}
        for (name,) in sorted(names["built"]):
            out[name] = con.execute(
                f"select (select count(*) from (select * from built.{name} except all select * from served.{name})) "
                f"+ (select count(*) from (select * from served.{name} except all select * from built.{name}))"
            ).fetchone()[0]
        views = con.execute("select database_name, schema_name, view_name from duckdb_views() where not internal "
                            "order by 2, 3, 1").fetchall()
        assert [v[1:] for v in views if v[0] == "built"] == [v[1:] for v in views if v[0] == "served"]
        return {k: v for k, v in out.items() if v}
    finally:
        con.close()


def _read_in_another_process(home: Home):
    out = subprocess.run([sys.executable, "-c", READ, str(home.serving_path)], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_publish_syncs_what_changed_and_serves_the_built_warehouse(tmp_path):
    home = Home(tmp_path / "home").create()
    _sql(home,
         "create table raw.readings (source_file_id bigint, v integer)",
         "insert into raw.readings select f, i from range(1, 4) as files(f), range(20000) as r(i)",
         "create schema marts",
         "create table marts.totals as select source_file_id, sum(v) as v from raw.readings group by 1",
         "create schema staging",
         "create view staging.readings as select source_file_id, v * 2 as v2 from raw.readings")
    first = serving.publish_slot(home)
    second = serving.publish_slot(home)
    assert (first.mode, first.slot.name, second.mode, second.slot.name) == (
        "copy", "serving-a.duckdb", "copy", "serving-b.duckdb")
    assert os.readlink(home.serving_path) == "serving-b.duckdb"
    assert _differences(home) == {}

    # a new file, a removed file, a file partly purged, a rebuilt model, a new model
    _sql(home,
         "insert into raw.readings select 4, i from range(5) as r(i)",
         "delete from raw.readings where source_file_id = 1",
         "delete from raw.readings where source_file_id = 2 and v >= 5",
         "create or replace table marts.totals as select source_file_id, sum(v) as v from raw.readings group by 1",
         "create table marts.counts as select count(*) as n from raw.readings")
    third = serving.publish_slot(home)
    assert (third.mode, third.slot.name, third.path) == ("sync", "serving-a.duckdb", home.serving_path)
    assert (third.files_added, third.files_removed) == (2, 1)  # 4 new, 2 re-sent with its remaining rows; 1 gone
    assert "raw.readings" not in third.tables_rewritten
    assert {"marts.totals", "marts.counts"} <= set(third.tables_rewritten)
    assert _differences(home) == {}
    assert _read_in_another_process(home) == "(20010, 199990020)"  # files 2 (v < 5), 3 and 4
    assert third.rows_to_rewrite < serving.SYNC_SHARE * third.rows_total
    assert not home.serving_path.with_name("serving.duckdb.new").exists()


def test_a_slot_a_reader_still_holds_is_copied_afresh(tmp_path):
    home = Home(tmp_path / "home").create()
    _sql(home, "create table raw.readings (source_file_id bigint, v integer)",
         "insert into raw.readings values (1, 1)")
    serving.publish(home)  # slot a
    reader = serving.connect_serving(home)  # holds slot a
    serving.publish(home)  # slot b
    _sql(home, "insert into raw.readings values (2, 5)")
    again = serving.publish_slot(home)  # slot a again, but the reader holds it
    assert (again.mode, again.slot.name) == ("copy", "serving-a.duckdb")
    assert reader.execute("select count(*) from raw.readings").fetchone()[0] == 1  # its file, unchanged
    assert _read_in_another_process(home) == "(2, 6)"
    assert _differences(home) == {}


def test_a_warehouse_mostly_rebuilt_is_copied_whole(tmp_path):
    home = Home(tmp_path / "home").create()
    _sql(home, "create table raw.readings (source_file_id bigint, v integer)",
         "insert into raw.readings select 1, i from range(1000) as r(i)")
    serving.publish(home)
    serving.publish(home)
    _sql(home, "create schema marts", "create table marts.hours as select i as v from range(50000) as r(i)")
    published = serving.publish_slot(home)
    assert published.mode == "copy" and published.rows_to_rewrite == 50000
    assert _differences(home) == {}
