"""Retention as configuration (seed ``retention``): old raw files and interval/hourly detail age out, the
shift, month and year summaries stay as they were, and a purged file sent again is not loaded again.

Home A loads five days of a small MEASURE system and of an SMF system (one dump a day, whose records run a
few minutes into the next day), builds, and purges with raw and interval detail kept 2 days and hourly 3
(the seed table changed in the warehouse, as a site changes seeds/retention.csv); it then loads a sixth
day and builds. Home B loads the same six days without purging. Every shift, month and year fact of A
equals B's (processors, processes, discs, lines, USERDEF counters, workloads, SMF 30 applications), also
after ``perfdb build --full-refresh`` of A, which rebuilds the days still kept instead of rebuilding the
summaries from what is left of the detail.
"""

from __future__ import annotations

import datetime as dt
import math

import duckdb
import pytest

from ingest import cli
from ingest.generate import measure, smf
from ingest.generate._measure_inventory import SystemSpec
from ingest.home import Home
from ingest.warehouse.database import raw_data_tables
from ingest.warehouse.retention import apply_retention
import read_only_db

pytestmark = pytest.mark.slow

START = dt.date(2026, 3, 2)
DAYS = [START + dt.timedelta(days=d) for d in range(6)]
SUMMARIES = [f"marts.fct_{family}_{period}" for family in ("cpu", "process", "disc", "line", "userdef")
             for period in ("shift", "monthly", "yearly")] + [
    "marts.fct_workload_shift", "marts.fct_workload_weekly", "marts.fct_workload_monthly",
    "marts.rpt_workload_characterization", "marts.rpt_workload_cost_per_transaction",
    "marts.rpt_zos_workload_characterization", "intermediate.int_workload__daily", "intermediate.int_zos_work__daily",
    "marts.rpt_capacity_sizing_measured", "intermediate.int_capacity__sizing_daily",
]
# the hourly day models of the workloads and the first day each system keeps after the purge (DAYS[k]):
# \R1 (newest day 6 March) its hours from 4 March, SYSA (whose dump of 6 March runs into 7 March) from 5 March
WORKLOAD_HOURS = {
    "intermediate.int_workload__hourly": ("system_name", "hour_start", {"\\R1": 2, "SYSA": 3}),
    "marts.fct_workload_hourly": ("system_name", "hour_start", {"\\R1": 2, "SYSA": 3}),
    "marts.fct_workload_userdef_hourly": ("system_name", "hour_start", {"\\R1": 2}),
    "marts.fct_workload_tcp_hourly": ("system_id", "hour_start", {"SYSA": 3}),
    "marts.fct_zos_work_hourly": ("system_id", "hour_start", {"SYSA": 3}),
    "intermediate.int_zos_work__piece": ("system_id", "period_start", {"SYSA": 4}),  # an interval model: 2 days
}


def perfdb(home: Home, *args: str) -> None:
    assert cli.main(["--home", str(home.root), *args]) == 0, f"perfdb {' '.join(args)} failed"


def rows(home: Home, sql: str, params: list | None = None) -> list[tuple]:
    return read_only_db.rows(home.db_path, sql, params)


def raw_tables(home: Home) -> list[str]:
    con = duckdb.connect(str(home.db_path), read_only=True)
    try:
        return raw_data_tables(con)
    finally:
        con.close()


def raw_row_count(home: Home) -> int:
    return sum(rows(home, f"select count(*) from raw.{table}")[0][0] for table in raw_tables(home))


def table_rows(home: Home, table: str) -> list[tuple]:
    return sorted(rows(home, f"select * from {table}"), key=repr)  # the keys lead: rows sort by them


def same_rows(ours: list[tuple], theirs: list[tuple]) -> bool:
    """Equal, floating point up to its last bits (DuckDB sums in parallel: the order of a sum varies)."""
    def same(x, y) -> bool:
        if isinstance(x, float) and isinstance(y, float):
            return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(x) and math.isnan(y))
        return x == y

    return len(ours) == len(theirs) and all(
        len(r) == len(t) and all(same(x, y) for x, y in zip(r, t)) for r, t in zip(ours, theirs))


def test_retention_purges_old_detail_and_keeps_the_summaries(tmp_path, capsys):
    spec = SystemSpec("\\R1", cpus=2, start=START, days=len(DAYS), processes=4, discs=2, lines=1, file_openers=1)
    measure.generate(spec, tmp_path / "site", ["csv"])
    folders = [tmp_path / "site" / "csv" / "R1" / day.isoformat() for day in DAYS]
    dumps = sorted(smf.generate(tmp_path / "site" / "smf", ["SYSA"], START, len(DAYS), seed=7, forms={"SYSA": "vb"}))

    a = Home(tmp_path / "a").create()
    perfdb(a, "ingest", *map(str, folders[:5]), *map(str, dumps[:5]))
    perfdb(a, "build")
    assert "retention: 0 raw files purged (0 rows)" in capsys.readouterr().out  # defaults: 90 days and more

    con = duckdb.connect(str(a.db_path))
    con.execute("update seeds.retention set keep_days = case family when 'hourly' then 3 else 2 end "
                "where family in ('raw', 'interval', 'hourly')")
    con.close()
    files_of_first_three_days = rows(a, "select count(*) from raw.ingest_files where path like '%/2026-03-0_/%' "
                                        "and path < ?", [str(folders[3])])[0][0]
    raw_before = raw_row_count(a)
    result = apply_retention(a)
    # \R1's newest day 6 March: raw and intervals keep 5 and 6 March, hours 4 to 6 March; SYSA's newest day is
    # 7 March (its dump of 6 March runs into it): its dumps of 2 to 4 March (days up to 5 March) go
    assert files_of_first_three_days == 24
    assert result.files_purged == files_of_first_three_days + 3
    assert rows(a, "select status, count(*) from raw.ingest_files group by 1 order by 1") == [("loaded", 18), ("purged", 27)]
    assert rows(a, "select min(cast(record_time as date)) from raw.smf30_work") == [(DAYS[3],)]
    assert rows(a, "select min(cast(from_timestamp as date)) from raw.measure_cpu") == [(DAYS[3],)]
    assert rows(a, "select min(cast(interval_start as date)) from intermediate.int_cpu__interval") == [(DAYS[3],)]
    for model in ("int_cpu__hourly", "int_process__hourly", "int_disc__hourly", "int_line__hourly", "int_userdef__hourly"):
        assert rows(a, f"select min(cast(hour_start as date)) from intermediate.{model}") == [(DAYS[2],)], model
    for table, (system, period, first_kept) in WORKLOAD_HOURS.items():
        assert dict(rows(a, f"select {system}, min(cast({period} as date)) from {table} group by 1")) == {
            name: DAYS[k] for name, k in first_kept.items()}, table
    assert result.raw_rows == raw_before - raw_row_count(a) > 0
    assert result.raw_rows >= sum(n for (n,) in rows(a, "select rows_loaded from raw.ingest_files where status = 'purged'"))
    assert all(rows(a, f"select count(*) from raw.{table} where source_file_id in (select file_id from raw.ingest_files "
                       "where status = 'purged')") == [(0,)] for table in raw_tables(a))

    # a purged file sent again is recognised, not loaded again
    resent = folders[0] / "cpu.csv"
    assert cli.main(["--home", str(a.root), "ingest", str(resent)]) == 0
    told = capsys.readouterr()
    assert "already ingested (purged by retention)" in told.out + told.err
    assert rows(a, "select count(*) from raw.measure_cpu where cast(from_timestamp as date) = ?", [DAYS[0]]) == [(0,)]

    # the sixth day: its shifts, month and year rebuilt from detail still kept, the older ones kept as built
    perfdb(a, "ingest", str(folders[5]), str(dumps[5]))
    perfdb(a, "build")
    b = Home(tmp_path / "b").create()
    perfdb(b, "ingest", *map(str, folders), *map(str, dumps))
    perfdb(b, "build")
    for table in SUMMARIES:
        assert same_rows(table_rows(a, table), table_rows(b, table)), table
    assert rows(a, "select count(distinct shift_date) from marts.fct_cpu_shift") == [(len(DAYS),)]
    assert rows(a, "select min(day) from intermediate.int_zos_work__daily") == [(DAYS[0],)]  # its purged days kept

    # a full refresh after a purge rebuilds every day kept and leaves the older days' rows as built
    purged = rows(a, "select max(days.day) from raw.ingest_file_days as days inner join raw.ingest_files as files "
                     "on files.file_id = days.source_file_id where files.status = 'purged'")[0][0]
    hours = table_rows(a, "intermediate.int_cpu__hourly")
    perfdb(a, "build", "--full-refresh")
    assert f"retention has purged the raw files up to {purged}; every day kept is rebuilt" in capsys.readouterr().err
    for table in SUMMARIES:
        assert same_rows(table_rows(a, table), table_rows(b, table)), table
    assert same_rows(table_rows(a, "intermediate.int_cpu__hourly"), hours)
    assert rows(a, "select full_refresh from audit.builds order by started_at desc limit 1") == [(True,)]
