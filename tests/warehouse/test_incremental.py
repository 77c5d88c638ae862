"""Incremental builds: a nightly build rebuilds the (system, day) pairs touched since the last build, and
the warehouse it leaves is the one a full rebuild makes (issue: the nightly load costs what the new day
costs).

One small generated site, built night by night: a MEASURE system (``\\T1``, CSV, one folder of files a
day), an SMF system (``SYSA``, one dump a day, whose records run a few minutes into the next day) and
three command hosts (``web01``, ``aix01``, ``VSE1``: each command's captures of a day in a file of its own).
Night 1 loads day 1 without its LINE file; night 2 loads day 2 without web01's ``netstat -s``; night 3
loads day 3 and day 1's LINE file late; night 4 removes day 2's DISC file (``perfdb remove``), loads day 4
and web01's ``netstat -s`` of day 2 late: the first capture of day 3, built on night 3 from the capture
before it on day 1, now pairs with day 2's last. A second SMF system (``SYSB``) lands its SMF 30 records in
one dump per day written, as a site that dumps its work records at midnight does: night 1 takes day 1's, night 2
day 2's, which holds the started tasks' last interval of day 1 (written at midnight). Then ``perfdb build
--full-refresh`` rebuilds everything from raw, and every table of the marts and intermediate schemas is
identical to what the nights built. (One site for every case: each build is a whole dbt build, minutes.)
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path

import duckdb
import pytest

from ingest import cli
from ingest.dbt_changes import stale_incremental_models
from ingest.generate import commands, measure, smf
from ingest.generate._measure_inventory import SystemSpec
from ingest.generate._smf_plan import STARTED_TASKS, plan_day
from ingest.generate._smf_records import day_records, write_dump
from ingest.home import Home
import read_only_db

pytestmark = pytest.mark.slow

START = dt.date(2026, 1, 30)  # the nights cross a month boundary: monthly rows of two months are rebuilt
DAYS = [START + dt.timedelta(days=d) for d in range(4)]
MEASURE_SYSTEM = "\\T1"
MIDNIGHT_SYSTEM = "SYSB"  # its SMF 30 records dumped at midnight
COMMAND_HOSTS = ("web01", "aix01", "VSE1")
WORKLOAD_DAY_MODELS = {
    "int_workload__entity", "int_workload__hourly", "int_workload__cpu_hourly", "int_workload__daily", "int_zos_work__piece",
    "int_zos_work__daily",
    "fct_workload_hourly", "fct_workload_shift",
    "fct_workload_weekly", "fct_workload_monthly", "fct_workload_tcp_hourly", "fct_workload_userdef_hourly",
    "fct_zos_work_hourly", "rpt_workload_characterization", "rpt_workload_cost_per_transaction",
    "rpt_zos_workload_characterization",
}
DAY_MODELS = WORKLOAD_DAY_MODELS | {
    "int_cpu__interval", "int_cpu__hourly", "int_process__hourly", "int_disc__hourly", "int_line__hourly",
    "int_userdef__hourly", "fct_cpu_shift", "fct_process_shift", "fct_disc_shift", "fct_line_shift",
    "fct_userdef_shift", "fct_cpu_monthly", "fct_process_monthly", "fct_disc_monthly", "fct_line_monthly",
    "fct_userdef_monthly", "fct_cpu_yearly", "fct_process_yearly", "fct_disc_yearly", "fct_line_yearly",
    "fct_userdef_yearly", "int_zos_cpu__logical_interval", "fct_zos_cpu_logical_interval", "fct_zos_cpu_type_interval",
    "int_cpu__hourly_spread", "int_process__daily", "fct_cpu_weekly", "fct_process_weekly", "fct_disc_weekly",
    "fct_line_weekly", "fct_userdef_weekly", "rpt_cpu_trend", "rpt_threshold_violations",
    "int_capacity__device_daily_peak", "int_counter__snapshot", "int_counter__rate", "fct_interface_interval",
    "fct_tcpip_interval", "rpt_network_threshold_violations", "fct_zos_interface_interval",
    "fct_zos_tcp_connection_hourly", "fct_zos_ftp_transfer", "rpt_process_activity", "rpt_process_summary",
    "rpt_busy_process", "rpt_discopen_summary", "rpt_file_summary", "fct_zos_lpar_interval", "rpt_threshold_exceptions",
    "fct_buffer_pool_snapshot", "fct_vse_stack_health", "int_workload__goal_interval", "fct_workload_goal_shift",
    "int_capacity__interface_hourly", "int_capacity__interface_speed", "int_capacity__transaction_hourly",
    "int_capacity__sizing_daily", "int_msu__lpar_interval", "fct_msu_lpar_interval", "fct_msu_cpc_interval",
    "fct_msu_group_interval", "fct_msu_lpar_monthly", "fct_msu_cpc_monthly", "rpt_msu_4hra_distribution",
    "rpt_msu_peak_work", "int_dasd__hourly", "fct_dasd_shift", "fct_dasd_monthly", "int_dasd__daily_peak",
}


def generate(out: Path) -> tuple[dict[dt.date, Path], dict[dt.date, Path], dict[dt.date, list[Path]]]:
    """Each day's MEASURE folder, SMF dump and command capture files."""
    spec = SystemSpec(MEASURE_SYSTEM, cpus=2, start=START, days=len(DAYS), processes=4, discs=2, lines=1,
                      file_openers=1)
    measure.generate(spec, out / "measure", ["csv"])
    dumps = smf.generate(out / "smf", ["SYSA"], START, len(DAYS), seed=7, forms={"SYSA": "vb"})
    folders = {day: out / "measure" / "csv" / "T1" / day.isoformat() for day in DAYS}
    logs = [p for p in commands.generate(out / "logs", START, len(DAYS), 240, 7) if p.parts[-3] in COMMAND_HOSTS]
    return folders, dict(zip(DAYS, sorted(dumps))), split_by_day(logs, out / "commands")


def split_by_day(logs: list[Path], out: Path) -> dict[dt.date, list[Path]]:
    """Each log's captures (``# captured: <time> host: <name>`` and what follows) by the day of their time,
    one file per log and day, as a collector that starts a file every day would land them."""
    days: dict[dt.date, list[Path]] = {}
    for log in logs:
        chunks: dict[dt.date, list[str]] = {}
        day = None
        for line in log.read_text().splitlines(keepends=True):
            if line.startswith("# captured: "):
                day = dt.date.fromisoformat(line.split()[2][:10])
            chunks.setdefault(day, []).append(line)
        for day, lines in chunks.items():
            path = out / day.isoformat() / f"{log.parts[-3]}_{log.parts[-2]}.log"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(lines))
            days.setdefault(day, []).append(path)
    return {day: sorted(paths) for day, paths in days.items()}


def smf30_dumps_cut_at_midnight(out: Path) -> list[Path]:
    """SYSB's SMF 30 records of DAYS[0] and DAYS[1], one dump per day written (the header's packed date), as a
    site that dumps its work records at midnight lands them: the started tasks' last SMF interval of a day
    (23:00 to 24:00) is written at midnight, so it arrives with the next day's dump."""
    by_day: dict[bytes, list[bytes]] = {}
    for record in (r for day in DAYS[:2] for r in day_records(plan_day(MIDNIGHT_SYSTEM, day, 7))):
        if record[5] == 30:  # RDW, flags, then the record type
            by_day.setdefault(record[10:14], []).append(record)
    return [write_dump(out / f"SMF.{MIDNIGHT_SYSTEM}.WORK{k}.dump", records, "vb") for k, records in enumerate(by_day.values())]


def perfdb(home: Home, *args: str) -> None:
    assert cli.main(["--home", str(home.root), *args]) == 0, f"perfdb {' '.join(args)} failed"


def query(home: Home, sql: str, params: list | None = None) -> list[tuple]:
    return read_only_db.rows(home.db_path, sql, params)


def touched(home: Home) -> set[tuple[str, dt.date]]:
    return set(query(home, "select system_name, day from audit.build_touched_days"))


def file_days(home: Home, paths: list[Path]) -> set[tuple[str, dt.date]]:
    names = ", ".join(f"'{p}'" for p in paths)
    return set(query(home, "select distinct days.system_name, days.day from raw.ingest_file_days as days "
                           f"inner join raw.ingest_files as files on files.file_id = days.source_file_id "
                           f"where files.path in ({names})"))


def model_results(home: Home) -> dict[str, dict]:
    results = json.loads((home.warehouse_dir / "dbt_target" / "run_results.json").read_text())["results"]
    return {r["unique_id"].split(".")[-1]: r for r in results if r["unique_id"].startswith("model.")}


def warehouse_tables(home: Home) -> list[str]:
    return [f"{schema}.{table}" for schema, table in query(
        home, "select schema_name, table_name from duckdb_tables() where schema_name in ('marts', 'intermediate') "
              "and database_name = current_database() order by 1, 2")]


def snapshot(home: Home, target: Path) -> None:
    """Every marts and intermediate table copied into the database file ``target``."""
    tables = warehouse_tables(home)
    con = duckdb.connect()
    try:
        con.execute(f"attach '{home.db_path}' as warehouse (read_only)")
        con.execute(f"attach '{target}' as snap")
        for name in tables:
            con.execute(f"create table snap.{name.replace('.', '__')} as select * from warehouse.{name}")
    finally:
        con.close()


def differences(home: Home, snap: Path) -> dict[str, int]:
    """Per table, the rows that differ between the warehouse and the snapshot. Rows pair up on their
    columns other than floating point, which may differ in their last bits only: DuckDB sums in parallel,
    so two full builds of the same data differ there too."""
    tables = warehouse_tables(home)
    con = duckdb.connect()
    out = {}
    try:
        con.execute(f"attach '{home.db_path}' as warehouse (read_only)")
        con.execute(f"attach '{snap}' as snap (read_only)")
        for name in tables:
            schema, table = name.split(".")
            columns = con.execute(
                "select column_name, data_type in ('DOUBLE', 'FLOAT') from duckdb_columns() "
                "where database_name = 'warehouse' and schema_name = ? and table_name = ? order by column_index",
                [schema, table]).fetchall()
            floats = [c for c, is_float in columns if is_float]
            keys = [c for c, is_float in columns if not is_float]
            order = ", ".join(f"round({c}, 6)" for c in floats) or "1"
            numbered = (f"select *, row_number() over (partition by {', '.join(keys) or '1'} order by {order}) "
                        "as row_in_key from {}")
            on = " and ".join(f"ours.{c} is not distinct from theirs.{c}" for c in [*keys, "row_in_key"])
            close = " and ".join(
                f"(ours.{c} is not distinct from theirs.{c} "
                f"or abs(ours.{c} - theirs.{c}) <= 1e-9 * greatest(abs(ours.{c}), abs(theirs.{c}), 1))"
                for c in floats) or "true"
            differing = con.execute(
                f"select count(*) from ({numbered.format('warehouse.' + name)}) as ours "
                f"full outer join ({numbered.format('snap.' + schema + '__' + table)}) as theirs on {on} "
                f"where ours.row_in_key is null or theirs.row_in_key is null or not ({close})").fetchall()[0][0]
            if differing:
                out[name] = differing
    finally:
        con.close()
    return out


def test_nightly_builds_rebuild_the_touched_days_and_equal_a_full_refresh(tmp_path):
    folders, dumps, captures = generate(tmp_path / "site")
    work_dumps = smf30_dumps_cut_at_midnight(tmp_path / "smf30")
    home = Home(tmp_path / "home").create()
    late_line = folders[DAYS[0]] / "line.csv"
    night_1 = [p for p in sorted(folders[DAYS[0]].iterdir()) if p != late_line]
    late_captures = [p for p in captures[DAYS[1]] if p.name == "web01_netstat-s.log"]
    assert len(late_captures) == 1

    # night 1: the first build builds everything
    perfdb(home, "ingest", *map(str, night_1), str(dumps[DAYS[0]]), *map(str, captures[DAYS[0]]), str(work_dumps[0]))
    perfdb(home, "build")
    assert query(home, "select count(*), bool_or(full_refresh) from audit.builds") == [(1, False)]
    # SYSB's started tasks' interval 23:00 to 24:00 of day 1 is written at midnight: not in day 1's dump
    late_hour = ("select count(*) from marts.fct_zos_work_hourly where system_id = ? and work_type = 'STC' "
                 "and hour_start = ?", [MIDNIGHT_SYSTEM, dt.datetime.combine(DAYS[0], dt.time(23))])
    assert query(home, *late_hour) == [(0,)]

    # night 2: only day 2 (and the minutes of day 3 that SYSA's dump of day 2 holds) is rebuilt. A row of
    # day 1, changed by hand in a day model, shows that day 1's rows are not rewritten. SYSB's dump of day 2
    # touches only day 2, but the intervals written at its midnight started on day 1: the SMF 30 pieces and
    # hours have the grain shift_date (a touched day and the day before), so 23:00 of day 1 gets its started tasks.
    night_2 = [*sorted(folders[DAYS[1]].iterdir()), dumps[DAYS[1]],
               *(p for p in captures[DAYS[1]] if p not in late_captures), work_dumps[1]]
    perfdb(home, "ingest", *map(str, night_2))
    con = duckdb.connect(str(home.db_path))
    con.execute("update intermediate.int_cpu__hourly set busy_pct = 42.4242 where system_name = ? and cpu_num = 0 "
                "and hour_start = ?", [MEASURE_SYSTEM, dt.datetime.combine(DAYS[0], dt.time(10))])
    con.close()
    perfdb(home, "build")
    assert touched(home) == file_days(home, night_2) == {
        (MEASURE_SYSTEM, DAYS[1]), ("SYSA", DAYS[1]), ("SYSA", DAYS[2]), *((host, DAYS[1]) for host in COMMAND_HOSTS),
        (MIDNIGHT_SYSTEM, DAYS[1])}
    assert query(home, *late_hour) == [(len(STARTED_TASKS),)]
    results = model_results(home)
    assert DAY_MODELS <= set(results), DAY_MODELS - set(results)
    for name in DAY_MODELS:
        assert results[name]["status"] == "success"
        assert "touched_periods" in results[name]["compiled_code"], f"{name} was not built incrementally"
    hours = dict(query(home, "select cast(hour_start as date), count(*) filter (where busy_pct = 42.4242) "
                             f"from intermediate.int_cpu__hourly where system_name = '{MEASURE_SYSTEM}' group by 1"))
    assert hours == {DAYS[0]: 1, DAYS[1]: 0}  # day 1's changed row kept, day 2 built

    # night 3: day 3, and day 1's LINE file arriving late: day 1 of \T1 is rebuilt, so the changed row too
    night_3 = [*sorted(folders[DAYS[2]].iterdir()), dumps[DAYS[2]], late_line, *captures[DAYS[2]]]
    perfdb(home, "ingest", *map(str, night_3))
    perfdb(home, "build")
    assert touched(home) == {(MEASURE_SYSTEM, DAYS[0]), (MEASURE_SYSTEM, DAYS[2]), ("SYSA", DAYS[2]), ("SYSA", DAYS[3]),
                             *((host, DAYS[2]) for host in COMMAND_HOSTS)}
    # web01's netstat -s of day 2 has not arrived: day 3's first capture counts from day 1's last
    first_of_day_3 = ("select min(interval_start) from intermediate.int_counter__rate where host = 'web01' "
                      "and command = 'netstat -s' and cast(interval_end as date) = ?")
    assert query(home, first_of_day_3, [DAYS[2]]) == [(dt.datetime.combine(DAYS[0], dt.time(20)),)]
    assert query(home, "select count(*) from intermediate.int_cpu__hourly where busy_pct = 42.4242") == [(0,)]
    assert query(home, "select count(*) from marts.fct_line_shift where shift_date = ?", [DAYS[0]]) != [(0,)]

    # night 4: day 2's DISC file removed, day 4 loaded
    perfdb(home, "remove", str(folders[DAYS[1]] / "disc.csv"))
    perfdb(home, "ingest", *map(str, [*sorted(folders[DAYS[3]].iterdir()), dumps[DAYS[3]], *captures[DAYS[3]],
                                      *late_captures]))
    perfdb(home, "build")
    last_dump_days = {("SYSA", DAYS[3]), ("SYSA", DAYS[3] + dt.timedelta(days=1))}
    assert file_days(home, [dumps[DAYS[3]]]) == last_dump_days
    # web01's late capture touches its day, and day 3, whose first netstat -s capture pairs with it now
    assert touched(home) == {(MEASURE_SYSTEM, DAYS[1]), (MEASURE_SYSTEM, DAYS[3]), *last_dump_days,
                             *((host, DAYS[3]) for host in COMMAND_HOSTS), ("web01", DAYS[1]), ("web01", DAYS[2])}
    assert query(home, first_of_day_3, [DAYS[2]]) == [(dt.datetime.combine(DAYS[1], dt.time(20)),)]
    assert query(home, "select count(*) from intermediate.int_disc__hourly where cast(hour_start as date) = ?",
                 [DAYS[1]]) == [(0,)]

    # the same raw data rebuilt in full gives the same tables, row for row
    snap = tmp_path / "nightly.duckdb"
    snapshot(home, snap)
    perfdb(home, "build", "--full-refresh")
    assert query(home, "select full_refresh from audit.builds order by finished_at desc limit 1") == [(True,)]
    assert len(warehouse_tables(home)) > 40
    assert differences(home, snap) == {}

    # a model changed since the last build: `perfdb build` names it and what reads it, for --full-refresh
    manifest = json.loads((home.warehouse_dir / "dbt_state" / "manifest.json").read_text())
    edited = copy.deepcopy(manifest)
    edited["nodes"]["model.perfdb.int_cpu__hourly"]["checksum"]["checksum"] = "edited"
    assert stale_incremental_models(manifest, manifest) == []
    assert stale_incremental_models(manifest, edited) == ["fct_busy_distribution_day", "fct_capacity_forecast_history",
        "fct_cpu_monthly", "fct_cpu_shift", "fct_cpu_weekly", "fct_cpu_yearly", "int_capacity__device_daily_peak",
        "int_capacity__transaction_hourly", "int_cpu__hourly", "int_cpu__hourly_spread", "int_workload__cpu_hourly",
        "rpt_cpu_trend", "rpt_threshold_exceptions", "rpt_threshold_violations", "rpt_workload_cost_per_transaction"]
    # a changed seed workload_definitions: every workload model that assigns by it, and what reads them
    edited = copy.deepcopy(manifest)
    edited["nodes"]["seed.perfdb.workload_definitions"]["checksum"]["checksum"] = "edited"
    assert WORKLOAD_DAY_MODELS & set(stale_incremental_models(manifest, edited)) == WORKLOAD_DAY_MODELS - {"int_zos_work__piece"}
