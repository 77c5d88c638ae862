"""The MEASURE dbt models: golden values computed by hand from raw counters, time semantics, reports.

The raw tables are written directly (pyarrow -> raw.measure_*), as ingest would leave them. One dbt
build serves the whole module. Golden values come from King, "How to Set Up a Performance Data Base
with MEASURE and ENFORM", and Glasstone, "Performance Considerations for Application Processes"
(Tandem Systems Review, December 1986). All counters are in raw units: microseconds of busy, queue
length x microseconds, counts.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from ingest import cli, dbt_runner, pipeline
from ingest.home import Home
from ingest.warehouse import database, serving

from measure_raw_rows import (
    D1, D2, D3, SYSTEM, at, cpu_rows, discopen_rows, disc_rows, file_rows, line_rows, process_rows, userdef_rows,
    write_raw,
)
from read_only_db import read_only

# the subjects MEASURE feeds (with the sources and seeds they read) and the threshold marts the report reads
MY_MODELS = "+tag:cpu +tag:processes +tag:devices +tag:thresholds +rpt_measure_unparsed"
MEASCOM_FIXTURES = Path(__file__).parents[1] / "fixtures" / "measure" / "meascom"
UNPARSED_TERMINAL = (
    "16+ LIST TERMINAL *\n"
    "Terminal $X25TAH.#T1 Logical Device 171\n"
    "Local System \\COWBOY From 7 Feb 1997, 10:23:51 For 44.3 Seconds\n"
    "Requests 6.03 Reads 2.00\n"
    "17+ LIST SYSTEM *\n"
)
@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Home:
    home = Home(tmp_path_factory.mktemp("measure_dbt")).create()
    write_raw(home, {
        "measure_cpu": cpu_rows(), "measure_process": process_rows(), "measure_disc": disc_rows(),
        "measure_line": line_rows(), "measure_userdef": userdef_rows(), "measure_file": file_rows(),
        "measure_discopen": discopen_rows(),
    })
    unparsed = home.landing / "meascom-unparsed.txt"  # MEASCOM text perfdb keeps verbatim, through the real ingest
    unparsed.write_text(UNPARSED_TERMINAL + (MEASCOM_FIXTURES / "system_rate_on.txt").read_text())
    assert [r.status for r in pipeline.ingest_paths(home, [unparsed])] == ["loaded"]
    assert dbt_runner.build(home, select=MY_MODELS, quiet=True) == 0, "dbt build failed (see stderr)"
    serving.publish(home)
    return home


@pytest.fixture(scope="module")
def db(home):
    # the built warehouse; the report commands open the published copy with their own settings
    yield from read_only(home.db_path)


def rows(db, sql: str, *params) -> list[dict]:
    cur = db.execute(sql, list(params))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def one(db, sql: str, *params) -> dict:
    found = rows(db, sql, *params)
    assert len(found) == 1, found
    return found[0]


# -- CPU: hour, shift, month, year ----------------------------------------------------------------


def test_hourly_rates_equal_the_hand_computed_counters(db):
    hour = one(db, "select * from intermediate.int_cpu__hourly where cpu_num = 0 and hour_start = ?", at(D1, 14))
    assert hour["busy_pct"] == pytest.approx(55.4)      # 1,994,400,000 us / 3,600,000,000 us x 100
    assert hour["qlen"] == pytest.approx(2.5)           # 9,000,000,000 us.items / 3,600,000,000 us
    assert hour["swaps_per_s"] == pytest.approx(0.2)    # 720 swaps / 3,600 s
    assert hour["ibusy_pct"] == pytest.approx(8.5)      # 306,000,000 us / 3,600,000,000 us x 100
    assert hour["sbusy_pct"] == pytest.approx(2.0)
    assert hour["loadid"] == "DT12814"
    assert (hour["shift"], hour["shift_date"]) == (1, D1)


def test_repeated_records_are_loaded_once(db):
    assert db.execute("select count(*) from raw.measure_cpu where cpu_num = 0 and from_timestamp = ?",
                      [at(D1, 14)]).fetchone()[0] == 2
    assert db.execute("select count(*) from staging.stg_measure__cpu where cpu_num = 0 and interval_start = ?",
                      [at(D1, 14)]).fetchone()[0] == 1
    assert one(db, "select interval_count from intermediate.int_cpu__hourly where cpu_num = 0 and hour_start = ?",
               at(D1, 14))["interval_count"] == 1


def test_short_intervals_condense_to_the_hour_weighted_by_length(db):
    hour = one(db, "select * from intermediate.int_cpu__hourly where cpu_num = 0 and hour_start = ?", at(D3, 13))
    assert hour["interval_count"] == 2
    assert hour["measured_s"] == pytest.approx(3600)
    assert hour["busy_pct"] == pytest.approx(40.0)      # (30 % + 50 %) / 2, both 1,800 s


def test_records_with_a_measure_error_are_left_out(db):
    assert db.execute("select count(*) from intermediate.int_cpu__interval where cpu_num = 1 and "
                      "interval_start >= ?", [at(D3, 0)]).fetchone()[0] == 0
    conformed = one(db, "select * from intermediate.int_cpu__interval where cpu_num = 0 and interval_start = ?",
                    at(D1, 14))
    assert (conformed["source"], conformed["cpu_type"], conformed["interval_s"]) == ("measure", "2", 3600.0)


def test_each_default_shift_gets_its_eight_hours_including_the_one_ending_at_midnight(db):
    shifts = rows(db, "select shift, shift_date, n_hours, first_hour_start from marts.fct_cpu_shift "
                      "where cpu_num = 1 and shift_date = ? order by shift", D1)
    assert [(s["shift"], s["n_hours"], s["first_hour_start"]) for s in shifts] == [
        (1, 8, at(D1, 8)), (2, 8, at(D1, 16)), (3, 8, at(D1, 0))]
    evening = one(db, "select * from marts.fct_cpu_shift where cpu_num = 1 and shift = 2 and shift_date = ?", D1)
    assert evening["busy_pct_max"] == pytest.approx(75.0)   # the 23:00-24:00 hour belongs to shift 2
    assert evening["busy_pct_spread_across_hours"] == pytest.approx(35.0)
    # the hour 00:00-01:00 of the next day starts shift 3 of that day, not shift 2 of this one
    assert one(db, "select shift, shift_date from intermediate.int_cpu__hourly where cpu_num = 1 and "
                   "hour_start = ?", at(D2, 0)) == {"shift": 3, "shift_date": D2}


def test_shift_values_are_avg_max_min_of_the_hours(db):
    shift = one(db, "select * from marts.fct_cpu_shift where cpu_num = 0 and shift = 1 and shift_date = ?", D1)
    assert shift["busy_pct_avg"] == pytest.approx((7 * 40 + 55.4) / 8)
    assert (shift["busy_pct_max"], shift["busy_pct_min"]) == pytest.approx((55.4, 40.0))
    assert shift["busy_pct_spread_across_hours"] == pytest.approx(15.4)
    assert shift["qlen_avg"] == pytest.approx((7 * 0.5 + 2.5) / 8)
    assert shift["qlen_spread_across_hours"] == pytest.approx(2.0)
    assert shift["swaps_per_s_max"] == pytest.approx(0.2)
    assert shift["ibusy_pct_avg"] == pytest.approx((7 * 5 + 8.5) / 8)


def test_monthly_and_yearly_values_are_the_aggregates_of_the_shift_rows(db):
    shift_rows = rows(db, "select * from marts.fct_cpu_shift")
    condensed = {"month": rows(db, "select * from marts.fct_cpu_monthly"),
                 "year": rows(db, "select * from marts.fct_cpu_yearly")}
    assert len(condensed["month"]) == 3 + 3 + 3   # CPU 0 May and June, CPU 1 May; three shifts each
    assert len(condensed["year"]) == 3 + 3
    for period, period_rows in condensed.items():
        for row in period_rows:
            members = [s for s in shift_rows if (s["system_name"], s["cpu_num"], s["shift"]) ==
                       (row["system_name"], row["cpu_num"], row["shift"]) and
                       (s["shift_date"].replace(day=1) == row["month"] if period == "month"
                        else s["shift_date"].year == row["year"])]
            assert row["n_shifts"] == len(members) > 0
            assert row["n_hours"] == sum(s["n_hours"] for s in members)
            for column, value in row.items():
                if column not in members[0] or column in ("n_hours", "shift_date"):
                    continue
                values = [s[column] for s in members]
                if column.endswith("_avg"):
                    assert value == pytest.approx(sum(values) / len(values)), column
                elif column.endswith("_max") or "_spread_" in column:
                    assert value == pytest.approx(max(values)), column
                elif column.endswith("_min"):
                    assert value == pytest.approx(min(values)), column
    may = one(db, "select * from marts.fct_cpu_monthly where cpu_num = 0 and shift = 1 and month = ?",
              dt.date(1986, 5, 1))
    assert (may["n_shifts"], may["n_hours"]) == (2, 16)
    assert may["busy_pct_avg"] == pytest.approx(((7 * 40 + 55.4) / 8 + 40.0) / 2)
    assert may["qlen_spread_across_hours"] == pytest.approx(2.0)   # max of 2.0 (May 8) and 1.0 (May 9)


def test_spread_across_cpus_is_busiest_minus_least_busy_processor(db):
    hour = one(db, "select * from intermediate.int_cpu__hourly_spread where hour_start = ?", at(D1, 14))
    assert hour["cpu_count"] == 2
    assert hour["max_qlen_cpu_num"] == 0
    assert hour["qlen_spread_across_cpus"] == pytest.approx(2.0)      # 2.5 - .5
    assert hour["busy_pct_spread_across_cpus"] == pytest.approx(15.4)  # 55.4 - 40


# -- threshold and trend ----------------------------------------------------------------------------


def test_threshold_violations_are_exactly_the_shifts_over_the_seeded_limits(db):
    found = rows(db, "select * from marts.rpt_threshold_violations order by shift_date, shift, cpu_num")
    assert [(r["shift_date"], r["shift"], r["cpu_num"]) for r in found] == [(D1, 1, 0), (D1, 2, 1)]
    day, evening = found
    assert day["rules_crossed"] == ["qlen_max", "qlen_spread_across_hours"]
    assert (day["crossed_qlen_max"], day["crossed_qlen_spread_across_hours"], day["crossed_busy_pct_max"],
            day["crossed_swaps_per_s_max"], day["crossed_ibusy_pct_max"]) == (True, True, False, False, False)
    assert evening["rules_crossed"] == ["busy_pct_max", "busy_pct_spread_across_hours"]
    # TIME OF DAY: the hour of the processor's MAX CPU BUSY (55.4 at 14:00; 75.0 in 23:00-24:00)
    assert (day["time_of_day"], evening["time_of_day"]) == (dt.time(14), dt.time(23))
    assert (day["os_version_carried_forward"], day["os_version_measured_on"]) == (False, D1)
    assert (day["os_version"], day["shift_name"], day["n_hours"]) == ("B30", "first", 8)


def test_trend_is_the_hour_with_the_longest_queue_of_each_day(db):
    found = rows(db, "select * from marts.rpt_cpu_trend order by trend_date")
    assert [(r["trend_date"], r["hour_start"], r["loadid"], r["cpu_num"]) for r in found] == [
        (D1, at(D1, 14), "DT12814", 0),
        (D2, at(D2, 10), "DT12910", 0),
        (D3, at(D3, 0), "DT15300", 0),   # no LOADID in the data: derived; on a tie the first hour
    ]
    assert found[0]["qlen_max"] == pytest.approx(2.5)
    assert found[0]["qlen_spread_across_cpus"] == pytest.approx(2.0)
    assert found[0]["busy_pct_spread_across_cpus"] == pytest.approx(15.4)
    assert found[1]["qlen_spread_across_cpus"] == pytest.approx(1.5)
    assert (found[2]["cpu_count"], found[2]["qlen_spread_across_cpus"]) == (1, 0)


def report(capsys, home: Home, *args: str):
    rc = cli.main(["--home", str(home.root), "report", *args])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def test_threshold_report_on_the_built_warehouse(capsys, home, db):
    out = report(capsys, home, "threshold", "--date", "1986-05-08")
    assert out.count("THRESHOLD REPORT") == 2
    assert " SYSTEM: \\TEST\n DATE: 05/08/86\n SHIFT 1\n OS VERSION: B30\n" in out
    # CPU 0, shift 1: 2.5 2.0 .2 55.4 15.4 8.5 | AVG .75 -> .8, .1125 -> .1, 41.925 -> 41.9, 5.4375 -> 5.4
    assert "  0  14:00    2.5    2.0     .2   55.4   15.4    8.5     .8     .1   41.9    5.4\n" in out
    assert "  1  23:00     .5     .0     .1   75.0   35.0    5.0     .5     .1   44.4    5.0\n" in out
    objects = json.loads(report(capsys, home, "threshold", "--date", "1986-05-08", "--format", "json"))
    mart_columns = [r[0] for r in db.execute("describe marts.rpt_threshold_exceptions").fetchall()]
    assert [list(o) for o in objects] == [mart_columns] * 4  # one row per crossed rule
    assert [(o["system_name"], o["entity"], o["shift"], o["rule_id"], o["observed_value"]) for o in objects] == [
        (SYSTEM, "cpu 0", 1, "CPU-T1", pytest.approx(2.5)), (SYSTEM, "cpu 0", 1, "CPU-T2", pytest.approx(2.0)),
        (SYSTEM, "cpu 1", 2, "CPU-T4", pytest.approx(75.0)), (SYSTEM, "cpu 1", 2, "CPU-T5", pytest.approx(35.0)),
    ]
    assert (objects[2]["interval_start"], objects[2]["interval_end"]) == ("1986-05-08 16:00:00", "1986-05-09 00:00:00")
    assert report(capsys, home, "threshold", "--date", "1986-05-09") == ""


def test_busiest_day_prints_the_day_with_most_violations(capsys, home):
    from ingest.reports import threshold

    assert threshold.print_busiest_day(home, fmt="table") == 0
    assert " DATE: 05/08/86" in capsys.readouterr().out


def test_trend_report_on_the_built_warehouse(capsys, home):
    objects = json.loads(report(capsys, home, "trend", "--from", "1986-05-09", "--to", "1986-06-02",
                                "--format", "json"))
    assert [(o["trend_date"], o["loadid"]) for o in objects] == [("1986-05-09", "DT12910"), ("1986-06-02", "DT15300")]
    out = report(capsys, home, "trend", "--from", "1986-05-08", "--to", "1986-05-08")
    assert "DATES: MAY 8 TO MAY 8" in out
    assert out.splitlines()[-1] == " \\TEST  DT12814   00   02   B30     2.5    2.0     .2   55.4   15.4"


# -- PROCESS ------------------------------------------------------------------------------------------


def test_busy_process_report_lists_the_busy_user_processes(db):
    found = rows(db, "select * from marts.rpt_busy_process order by cpu_busy_s desc")
    # more than 60 s of CPU below priority 200; not MONITOR (priority 201), FUP (30 s), PO15A (24 s)
    assert [r["program_file_name"] for r in found] == [
        "$SYSTEM.SYSTEM.QP", "$SYSTEM.PRODOBJ.BATCH01", "$SYSTEM.PRODOBJ.ACTREPT", "$PROGS.SERVER1.SRV",
        "$SYSTEM.PRODOBJ.GL07C"]
    # Glasstone Fig. 2: RUN TIME 1,197.49 s, CPU UTILIZATION 0.29, 32 I/O per second, PRIORITY 190
    qp = found[0]
    assert qp["run_time_s"] == pytest.approx(1197.49)
    assert qp["cpu_busy_pct"] == pytest.approx(29.0)
    assert round(qp["io_per_s"]) == 32
    assert qp["priority"] == 190
    assert [round(r["cpu_busy_pct"] / 100, 2) for r in found[:3]] == [0.29, 0.19, 0.16]
    assert [round(r["io_per_s"]) for r in found[:3]] == [32, 24, 6]
    assert found[3]["process_name"] == "$SRV1"
    assert found[3]["cpu_busy_s"] == pytest.approx(115.2)


def test_process_summary_counts_processes_including_a_reused_pin(db):
    summary = {r["program_file_name"]: r for r in rows(db, "select * from marts.rpt_process_summary")}
    trecv = summary["$TEMPLE.TRANSFER.TRECV"]     # Glasstone Fig. 1: 4, 4.08, 36, 262
    assert (trecv["process_count"], trecv["messages_received_count"], trecv["messages_sent_count"]) == (4, 36, 262)
    assert trecv["cpu_busy_s"] == pytest.approx(4.08)
    tsched = summary["$TEMPLE.TRANSFER.TSCHED"]   # Glasstone Fig. 1: 2, 29.29, 2,615, 3,310
    assert (tsched["process_count"], tsched["messages_received_count"], tsched["messages_sent_count"]) == (
        2, 2615, 3310)
    assert tsched["cpu_busy_s"] == pytest.approx(29.29)
    pin_30 = one(db, "select * from intermediate.int_process__daily where cpu_num = 2 and pin = 30")
    assert (pin_30["process_runs"], pin_30["run_time_s"]) == (2, 1200.0)


def test_process_activity_per_transaction_and_io(db):
    gl07c = one(db, "select * from marts.rpt_process_activity where program_file_name = '$SYSTEM.PRODOBJ.GL07C'")
    assert round(gl07c["cpu_per_trans_s"], 4) == 0.0914   # Glasstone Fig. 3: .0914  13.2  .0069
    assert round(gl07c["io_per_trans"], 1) == 13.2
    assert round(gl07c["cpu_per_io_s"], 4) == 0.0069
    assert gl07c["io_per_trans_outside_oltp_band"] is False
    po15a = one(db, "select * from marts.rpt_process_activity where program_file_name = '$SYSTEM.PRODOBJ.PO15A'")
    assert (round(po15a["io_per_trans"], 1), po15a["io_per_trans_outside_oltp_band"]) == (2.9, True)


def test_the_oltp_band_as_one_rule_counts_the_servers_outside_it(db):
    # L2264, "between 5 and 20 file I/Os" (001-b6.4-8): Fig. 3's OLTP servers, GL07C's 13.2 inside the band and
    # PO15A's 2.9 below it, whichever side a server crosses
    servers = rows(db, "select program_file_name, io_per_trans_outside_oltp_band as outside "
                       "from marts.rpt_process_activity where is_oltp_server")
    status = one(db, "select * from marts.rpt_rule_status where rule_id = '001-b6.4-8'")
    assert (status["status"], status["evaluations"], status["findings"]) == (
        "evaluated", len(servers), sum(r["outside"] for r in servers))
    assert sorted((r["program_file_name"], r["outside"]) for r in servers) == [
        ("$SYSTEM.PRODOBJ.GL07C", False), ("$SYSTEM.PRODOBJ.PO15A", True)]
    assert (status["evaluations"], status["findings"]) == (2, 1)


def test_process_shift_applies_the_minimum_activity_filters(db):
    srv = one(db, "select * from marts.fct_process_shift where process_key = '$SRV1'")
    assert (srv["shift_date"], srv["shift"], srv["n_hours"]) == (D1, 1, 3)
    assert srv["pqlen_avg"] == pytest.approx(0.7)          # .5 and .9; the .2 hour is below .3
    assert srv["pqlen_max"] == pytest.approx(0.9)
    assert srv["vsems_per_s_max"] == pytest.approx(0.3)    # per second, hours with PQLEN > .3 only
    assert srv["ready_busy_ratio_avg"] == pytest.approx(1.75)  # 2 and 1.5; the .2 % busy hour is left out
    # the TRECV processes were .17 % busy with an empty $RECEIVE queue: below the minimum activity
    assert db.execute("select count(*) from marts.fct_process_shift where program_file_name = "
                      "'$TEMPLE.TRANSFER.TRECV'").fetchone()[0] == 0


# -- DISC, LINE, USERDEF, FILE, DISCOPEN --------------------------------------------------------------


def test_disc_hour_adds_the_primary_and_backup_records(db):
    disc = one(db, "select * from intermediate.int_disc__hourly where device_name = '$DATA01'")
    assert disc["busy_pct"] == pytest.approx(50.0)        # (1,080,000,000 + 720,000,000) / 3,600,000,000
    assert disc["write_busy_pct"] == pytest.approx(20.0)
    assert disc["seek_busy_pct"] == pytest.approx(10.0)
    assert disc["device_qbusy_pct"] == pytest.approx(50.0)
    assert disc["request_qlen"] == pytest.approx(1.5)
    assert disc["cache_hit_ratio"] == pytest.approx(0.9)  # 900 / (900 + 100)
    assert disc["bytes_per_s"] == pytest.approx(1500.0)   # 5,400,000 bytes / 3,600 s
    assert disc["requests_per_s"] == pytest.approx(2.0)
    shift = one(db, "select * from marts.fct_disc_shift where device_name = '$DATA01'")
    assert (shift["shift"], shift["n_hours"], shift["busy_pct_max"]) == (1, 1, pytest.approx(50.0))


def test_line_hour_and_the_contract_columns_the_records_lack(db):
    line = one(db, "select * from intermediate.int_line__hourly where device_name = '$X25TAH'")
    assert (line["busy_pct"], line["read_busy_pct"], line["write_busy_pct"]) == pytest.approx((30.0, 10.0, 20.0))
    assert line["transactions_per_s"] == pytest.approx(0.5)
    assert line["response_ms"] == pytest.approx(500.0)    # 900,000,000 us / 1,800 transactions
    assert line["bytes_per_s"] == pytest.approx(1500.0)
    assert line["retries_per_s"] is None                  # the records carried no RETRIES item
    columns = {r[0] for r in db.execute("describe raw.measure_line").fetchall()}
    assert {"retries", "input_data_bytes", "logical_device"} <= columns


def test_userdef_counters_take_the_rate_of_their_type(db):
    counters = {r["counter_name"]: r for r in rows(db, "select * from intermediate.int_userdef__hourly")}
    assert (counters["RESP-TIME"]["counter_rate"], counters["RESP-TIME"]["counter_rate_unit"]) == (
        pytest.approx(2.0), "avg_queue_length")
    assert (counters["THROUGHPUT"]["counter_rate"], counters["THROUGHPUT"]["counter_rate_unit"]) == (
        pytest.approx(10.0), "per_s")
    shift = one(db, "select * from marts.fct_userdef_shift where counter_name = 'THROUGHPUT'")
    assert (shift["process_key"], shift["n_hours"], shift["counter_rate_avg"]) == ("$SRV1", 1, pytest.approx(10.0))


def test_file_summary_counts_opens_and_leaves_out_what_the_report_excludes(db):
    found = {r["file_name"]: r for r in rows(db, "select * from marts.rpt_file_summary")}
    assert set(found) == {"$TEMPLE.TRANDBA.FOLDER", "$TEMPLE.TRANDBA.IFOLDER", "$TEMPLE.TRANDBA.PROFILE"}
    folder = found["$TEMPLE.TRANDBA.FOLDER"]   # Glasstone Fig. 6: 1, 274, 115, 0, 79
    assert (folder["open_count"], folder["read_count"], folder["write_count"], folder["update_or_reply_count"],
            folder["delete_or_writeread_count"]) == (1, 274, 115, 0, 79)
    assert (found["$TEMPLE.TRANDBA.PROFILE"]["open_count"], found["$TEMPLE.TRANDBA.PROFILE"]["read_count"]) == (3, 18)


def test_discopen_summary_and_physical_exceeds_logical_io(db):
    found = {r["file_name"]: r for r in rows(db, "select * from marts.rpt_discopen_summary")}
    assert set(found) == {"$TEMPLE.TRANDBA.FOLDER", "$TEMPLE.TRANDBA.IFOLDER", "$MAIL.TRANDBA.ITEMDATA"}
    folder = found["$TEMPLE.TRANDBA.FOLDER"]   # Glasstone Fig. 7: 1, 1,324, 1,249, 210, 4, 1
    assert (folder["open_count"], folder["driver_input_call_count"], folder["cache_hit_count"],
            folder["driver_output_call_count"], folder["block_split_count"], folder["requests_blocked_count"]) == (
        1, 1324, 1249, 210, 4, 1)
    assert round(folder["cache_hit_ratio"], 3) == 0.943
    logical = one(db, "select * from marts.rpt_file_summary where file_name = '$TEMPLE.TRANDBA.FOLDER'")
    assert folder["driver_input_call_count"] > logical["read_count"]
    assert folder["driver_output_call_count"] > logical["write_count"]


# -- a warehouse without any MEASURE file ------------------------------------------------------------


def test_staging_works_before_any_measure_file_was_ingested(home, tmp_path):
    """The staging views dbt compiled in this build, run on a warehouse that never saw a MEASURE file
    (``connect`` created its raw tables from their declarations; the seed of the systems' time zones, which a
    build loads before any model, is copied from the built warehouse)."""
    target = home.warehouse_dir / "dbt_target"
    empty = Home(tmp_path / "empty").create()
    [zones] = [built.sql("select system_name, time_zone from seeds.system_time_zones").arrow()
               for built in read_only(home.db_path)]
    con = database.connect(empty)
    try:
        con.execute("create schema seeds")
        con.register("zones", zones)
        con.execute("create table seeds.system_time_zones as select * from zones")
        for entity in ("cpu", "process", "disc", "line", "userdef", "file", "discopen"):
            view = (target / "compiled" / "perfdb" / "models" / "staging" / "measure" / f"stg_measure__{entity}.sql")
            assert con.execute(f"select count(*) from (\n{view.read_text()}\n)").fetchone()[0] == 0
    finally:
        con.close()


def test_meascom_text_kept_verbatim_is_reported_per_entity(db):
    """The TERMINAL listing (3 lines after its echo) and the SYSTEM block (8 lines) of one report."""
    assert rows(db, "select * from marts.rpt_measure_unparsed order by entity") == [
        {"entity": "SYSTEM", "file_count": 1, "block_count": 1, "line_count": 8,
         "example_first_line": "Remote System \\SSG System Number 73"},
        {"entity": "TERMINAL", "file_count": 1, "block_count": 1, "line_count": 3,
         "example_first_line": "Terminal $X25TAH.#T1 Logical Device 171"},
    ]
    assert one(db, "select line_number from staging.stg_measure__unparsed where entity = 'SYSTEM'")["line_number"] == 6
