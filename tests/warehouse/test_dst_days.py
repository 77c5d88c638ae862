"""Days that are not 24 hours: a fall-back day (25 local hours) and a spring-forward day (23) of one MEASURE system
and one SMF system in Europe/Berlin, ingested from files the real writers produce.

* MEASURE (``\\DEV1``, CSV of CPU, DISC, LINE and PROCESS records): hourly intervals stamped in local civil time with no offset; the seed
  system_time_zones names the system's zone. On 2026-10-25 the clock goes back from 03:00 CEST to 02:00 CET, so
  two intervals start at 02:00 local (the first ends at 02:00 again, 3600 s later); on 2026-03-29 it goes forward
  from 02:00 CET to 03:00 CEST, so one interval runs from 01:00 to 03:00 local in 3600 s.
* SMF (``SYSD``, types 70.1, 72.3, 74.1 and 30): 30-minute RMF intervals, the header local, SMF70LGO (SMF72LGO,
  SMF74LGO) +2 h before and +1 h after the change: on the fall-back day four intervals start at 02:00 or 02:30
  local. A started task writes an SMF 30 interval record at the end of each of them, local time with no offset:
  its pieces take the RMF intervals' offsets, the record's second pass of the repeated hour the later instant.

Every interval that occurred carries its own busy value, so an hour merged, lost or counted twice shows. The
hours are 25 and 23, the night shift (0-8) holds 9 and 7 of them, and the day's hours and shifts add up to the
intervals; so do the lines', the process's and the workloads' (a NonStop program, a z/OS service class), the
DASD volume's I/Os, the started task's CPU and the hours a transaction's cost is computed over. The four-hour
rolling MSU average of SMF runs on UTC time: its window covers the hours that passed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import read_only_db

from ingest import dbt_runner
from ingest.generate._smf_dasd import DeviceInterval, Volume
from ingest.generate._smf_plan import WLM_CLASSES, ClassInterval, CpuSample, RmfInterval, WorkRecord, profile_for
from ingest.generate._smf_records import device_record, rmf_record, work_record, workload_record, write_dump
from ingest.home import Home
from ingest.warehouse import database, loading

pytestmark = pytest.mark.slow

ZONE = ZoneInfo("Europe/Berlin")  # the zone the seed system_time_zones names for \DEV1
UTC = dt.timezone.utc
FALL_BACK, SPRING_FORWARD = dt.date(2026, 10, 25), dt.date(2026, 3, 29)
MEASURE_SYSTEM, SMF_SYSTEM = "\\DEV1", "SYSD"
# the interval items every MEASURE record has, then each entity's counters: k is the hour of the day
INTERVAL_ITEMS = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error"
COUNTERS = {
    "cpu": ("cpu-busy-time,cpu-qtime", lambda k: f"{measure_busy_pct(k) * 36_000_000},0"),
    "disc": ("device-name,request-qtime,requests,reads,writes,input-bytes,output-bytes,read-busy-time,write-busy-time,"
             "device-qbusy-time", lambda k: f"$DATA01,0,{100 + k},{100 + k},0,4096,0,{measure_busy_pct(k) * 36_000_000},0,0"),
    "line": ("device-name,read-busy-time,write-busy-time,requests,input-bytes,output-bytes,reads,writes,transactions,"
             "response-time", lambda k: f"$LINE1,{measure_busy_pct(k) * 36_000_000},0,{100 + k},1000,1000,10,10,{10 + k},"
                                        f"{(10 + k) * 50_000}"),
    # one process all day (program ORDRSRV: workload ORDERS of the seed workload_definitions) in CPU 0
    "process": ("pin,process-name,priority,program-file-name,cpu-busy-time,ready-time,dispatches,messages-sent,"
                "messages-received,recv-qtime", lambda k: f"5,$ORD1,150,$DATA1.ORDERS.ORDRSRV,"
                                                          f"{measure_busy_pct(k) * 36_000_000},0,100,10,{100 + k},0"),
}
WORKLOAD_CLASS = WLM_CLASSES[0]  # CICSHIGH: workload ONLINE
VOLUME = Volume(device_number=0x0A40, volser="DST001", lcu=1, exposures=1, base_rate=0.0, connect_ms=1.0,
                disconnect_ms=0.5, pending_ms=0.2)
BUILD = ["build", "--select", "+fct_cpu_shift +int_cpu__hourly_spread +fct_msu_lpar_interval +fct_disc_shift "
         "+fct_line_shift +fct_process_shift +int_process__daily +fct_workload_shift +int_workload__daily "
         "+fct_workload_hourly +int_workload__cpu_hourly +fct_msu_cpc_interval +fct_dasd_shift +int_dasd__daily_peak "
         "+fct_busy_distribution_day +int_zos_work__daily +rpt_msu_peak_work +int_capacity__transaction_hourly "
         "+rpt_workload_cost_per_transaction", "--exclude-resource-type", "unit_test"]


def instants(day: dt.date, step: dt.timedelta) -> list[dt.datetime]:
    """The UTC instants from the local midnight that starts ``day`` to the one that ends it, every ``step``."""
    start = dt.datetime.combine(day, dt.time(), ZONE).astimezone(UTC)
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), ZONE).astimezone(UTC)
    return [start + k * step for k in range(int((end - start) / step))]


def local(instant: dt.datetime) -> dt.datetime:
    return instant.astimezone(ZONE).replace(tzinfo=None)


def measure_busy_pct(k: int) -> int:
    return 10 + k  # the k-th hour of the day


def smf_busy_pct(k: int) -> float:
    return 20 + 0.5 * k  # the k-th RMF interval of the day


def measure_csv(day: dt.date, entity: str) -> str:
    """Processor 0's (or its disc $DATA01's, line $LINE1's, process $ORD1's) hourly intervals of ``day``, 10 + k
    percent busy in the k-th hour that occurred."""
    names, values = COUNTERS[entity]
    rows = [f"{MEASURE_SYSTEM},0,DST00001,{local(t)},{local(t + dt.timedelta(hours=1))},3600000000,0,{values(k)}\n"
            for k, t in enumerate(instants(day, dt.timedelta(hours=1)))]
    return f"{INTERVAL_ITEMS},{names}\n" + "".join(rows)


def smf_io_count(k: int) -> int:
    return 1000 + 10 * k  # the DASD volume's SSCHs in the k-th RMF interval of the day


def smf_task_cpu_cs(k: int) -> int:
    return 100 + k  # the started task's TCB hundredths of a second in the k-th interval


def smf_records(day: dt.date) -> list[bytes]:
    """One 70.1 record per 30-minute RMF interval of ``day`` for one CP, 20 + k/2 percent busy in the k-th, a 72.3
    record of one service class that used 90 % of that busy, a 74.1 record of one volume with 1000 + 10k I/Os
    and the SMF 30 interval record of a started task that used 1 + k/100 s of TCB and 0.1 s of SRB time."""
    records = []
    task_start = dt.datetime.combine(day - dt.timedelta(days=1), dt.time(6))
    for k, t in enumerate(instants(day, dt.timedelta(minutes=30))):
        offset_h = int(t.astimezone(ZONE).utcoffset() / dt.timedelta(hours=1))
        profile = dataclasses.replace(profile_for("SYSB"), sid=SMF_SYSTEM, cps=1, ziips=0, utc_offset_h=offset_h)
        interval_us = 1_800_000_000
        busy_us = int(interval_us * smf_busy_pct(k) / 100)
        cpu = CpuSample(cpu_id=0, cpu_type="CP", wait_us=interval_us - busy_us, parked_us=0, online_us=interval_us,
                        dispatch_us=busy_us, effective_us=busy_us, io_interrupts=1000, dispatches=5000)
        others = [("TESTLP", 2, "CP", interval_us // 10, interval_us // 10, interval_us),
                  ("PHYSICAL", 0, "CP", interval_us // 250, 0, interval_us)]
        records.append(rmf_record(profile, RmfInterval(local(t), interval_us // 1000, [cpu], others)))
        records.append(workload_record(profile, ClassInterval(
            WORKLOAD_CLASS, local(t), interval_us // 1000, local(t + dt.timedelta(minutes=30)),
            cp_s=0.9 * busy_us / 1e6, ziip_s=0.0, transactions=100 + k, dasd_io=10)))
        records.append(device_record(profile, [DeviceInterval(VOLUME, local(t), interval_us // 1000, smf_io_count(k),
                                                              connect_ms=1.0, pending_ms=0.2, disconnect_ms=0.5,
                                                              queued_requests=0)]))
        records.append(work_record(profile, WorkRecord(
            subtype=2, work_type="STC", job_name="DSTTASK", job_id="STC00042", step_name="DSTTASK", step_number=1,
            program="DSTPGM", reader_start=task_start, step_start=task_start, written=local(t + dt.timedelta(minutes=30)),
            interval_start=local(t), cpu_tcb_cs=smf_task_cpu_cs(k), cpu_srb_cs=10, ziip_cs=0, excp=smf_io_count(k),
            service_class="STCHI", report_class="", workload="STC")))
    return records


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Home:
    home = Home(tmp_path_factory.mktemp("dst") / "home").create()
    paths = []
    for day in (FALL_BACK, SPRING_FORWARD):
        for entity in COUNTERS:  # a file per entity, named after it
            csv = home.landing / "measure" / str(day) / f"{entity}.csv"
            csv.parent.mkdir(parents=True, exist_ok=True)
            csv.write_text(measure_csv(day, entity))
            paths.append(csv)
        paths.append(write_dump(home.landing / "smf" / f"sysd_{day}.smf", smf_records(day), "vb"))
    con = database.connect(home)
    results = [result for path in paths for result in loading.ingest_files(con, [path])]
    con.close()
    assert [(r.status, r.ok) for r in results] == [("loaded", True)] * len(paths)
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0
    return home


def rows(home: Home, sql: str) -> list[tuple]:
    return read_only_db.rows(home.db_path, sql)


# the hours that occurred on each day, their local clock hour and the busy of each: MEASURE one interval an
# hour, SMF the mean of the hour's two 30-minute intervals
def expected_hours(day: dt.date, system: str) -> list[tuple[dt.datetime, dt.datetime, float]]:
    if system == MEASURE_SYSTEM:
        return [(t.replace(tzinfo=None), local(t), measure_busy_pct(k))
                for k, t in enumerate(instants(day, dt.timedelta(hours=1)))]
    return [(t.replace(tzinfo=None), local(t), (smf_busy_pct(2 * k) + smf_busy_pct(2 * k + 1)) / 2)
            for k, t in enumerate(instants(day, dt.timedelta(hours=1)))]


@pytest.mark.parametrize("system", [MEASURE_SYSTEM, SMF_SYSTEM])
@pytest.mark.parametrize("day, n_hours", [(FALL_BACK, 25), (SPRING_FORWARD, 23)])
def test_every_hour_that_occurred_is_one_row_keyed_by_its_utc_instant(home, system, day, n_hours):
    hourly = rows(home, f"""select hour_start_utc, hour_start, busy_pct from intermediate.int_cpu__hourly
        where system_name = '{system.replace("'", "''")}' and cast(hour_start as date) = '{day}'
        order by hour_start_utc""")
    expected = expected_hours(day, system)
    assert len(hourly) == len(expected) == n_hours
    for (utc, clock, busy), (want_utc, want_clock, want_busy) in zip(hourly, expected):
        assert (utc, clock) == (want_utc, want_clock)
        assert busy == pytest.approx(want_busy, rel=1e-6)


@pytest.mark.parametrize("system", [MEASURE_SYSTEM, SMF_SYSTEM])
@pytest.mark.parametrize("day, night_hours", [(FALL_BACK, 9), (SPRING_FORWARD, 7)])
def test_the_night_shift_counts_the_hours_that_occurred_and_the_day_adds_up(home, system, day, night_hours):
    # the shifts seed's third shift, 0-8, holds the change at 02:00-03:00 local; the other two are 8 hours
    shifts = rows(home, f"""select shift, n_hours, busy_pct_avg from marts.fct_cpu_shift
        where system_name = '{system.replace("'", "''")}' and shift_date = '{day}' order by shift""")
    assert [(shift, n) for shift, n, _ in shifts] == [(1, 8), (2, 8), (3, night_hours)]
    expected = expected_hours(day, system)
    # the day's total busy-hours: the shifts' means times their hours equal the sum over the intervals
    assert sum(avg * n for _, n, avg in shifts) == pytest.approx(sum(busy for *_, busy in expected), rel=1e-9)
    [(measured_s, intervals)] = rows(home, f"""select sum(measured_s), sum(interval_count)
        from intermediate.int_cpu__hourly where system_name = '{system.replace("'", "''")}'
        and cast(hour_start as date) = '{day}'""")
    per_hour = 1 if system == MEASURE_SYSTEM else 2
    assert (measured_s, intervals) == pytest.approx((3600 * len(expected), per_hour * len(expected)), rel=1e-6)


def test_the_spread_across_processors_keeps_the_repeated_hour_twice(home):
    repeated = rows(home, f"""select hour_start_utc, cpu_count from intermediate.int_cpu__hourly_spread
        where system_name = '{SMF_SYSTEM}' and hour_start = '{FALL_BACK} 02:00:00' order by hour_start_utc""")
    assert repeated == [(dt.datetime(2026, 10, 25, 0), 1), (dt.datetime(2026, 10, 25, 1), 1)]


@pytest.mark.parametrize("day, n_intervals", [(FALL_BACK, 50), (SPRING_FORWARD, 46)])
def test_the_4hra_window_covers_the_time_that_passed(home, day, n_intervals):
    # each day's data starts after months without: the window grows by 1800 s an interval to four hours, and
    # the 8th interval is the first valid one, across the hour repeated or skipped
    covered = rows(home, f"""select window_covered_s, is_4hra_valid from marts.fct_msu_lpar_interval
        where system_id = '{SMF_SYSTEM}' and cast(interval_start as date) = '{day}' order by interval_start_utc""")
    assert [c for c, _ in covered] == [min(1800.0 * (k + 1), 14400.0) for k in range(n_intervals)]
    assert [valid for _, valid in covered] == [k >= 7 for k in range(n_intervals)]


@pytest.mark.parametrize("day, n_intervals", [(FALL_BACK, 50), (SPRING_FORWARD, 46)])
def test_the_cpc_grid_runs_on_utc_time_one_segment_per_interval_that_occurred(home, day, n_intervals):
    # SYSD is its CPC's one image: the CPC's segments are its RMF intervals, one after the other in UTC time
    # (on local time the repeated hour's four segments would start at 02:00, 02:30, 02:00, 02:30 and overlap)
    cpc = rows(home, f"""select c.interval_start_utc, c.interval_end_utc, c.interval_start, c.msu_per_h,
            c.rolling_4h_msu_per_h, c.is_4hra_valid, i.interval_start_utc, i.interval_start, i.msu_per_h,
            i.rolling_4h_msu_per_h, i.is_4hra_valid
        from marts.fct_msu_cpc_interval as c
        inner join marts.fct_msu_lpar_interval as i
            on i.cpc_serial = c.cpc_serial and i.interval_start_utc = c.interval_start_utc
        where i.system_id = '{SMF_SYSTEM}' and cast(c.interval_start as date) = '{day}'
        order by c.interval_start_utc""")
    [(segments,)] = rows(home, f"""select count(*) from marts.fct_msu_cpc_interval
        where cpc_serial = '{profile_for("SYSB").cpc_serial}' and cast(interval_start as date) = '{day}'""")
    assert len(cpc) == segments == n_intervals
    starts = [t.replace(tzinfo=None) for t in instants(day, dt.timedelta(minutes=30))]
    assert [r[0] for r in cpc] == starts
    assert [r[1] for r in cpc] == starts[1:] + [starts[-1] + dt.timedelta(minutes=30)]  # no overlap, no gap
    for (_, _, local_start, msu, rolling, valid, _, image_local_start, image_msu, image_rolling, image_valid) in cpc:
        assert (local_start, valid) == (image_local_start, image_valid)
        assert (msu, rolling) == (pytest.approx(image_msu, rel=1e-9),
                                  None if image_rolling is None or not valid else pytest.approx(image_rolling, rel=1e-9))


DAYS = [(FALL_BACK, 25, 9), (SPRING_FORWARD, 23, 7)]
# each MEASURE entity's hourly model, its busy measure and raw busy counters, and its shift fact
ENTITIES = {
    "disc": ("int_disc__hourly", "busy_pct", "read_busy_time + write_busy_time", "fct_disc_shift"),
    "line": ("int_line__hourly", "busy_pct", "read_busy_time + write_busy_time", "fct_line_shift"),
    "process": ("int_process__hourly", "cpu_busy_pct", "cpu_busy_time", "fct_process_shift"),
}


def raw_day(home: Home, table: str, columns: str, day: dt.date) -> tuple:
    """Sums over the raw records whose local start falls on ``day``: what the hours must add up to."""
    [sums] = rows(home, f"select {columns} from raw.{table} where cast(from_timestamp as date) = '{day}'")
    return sums


@pytest.mark.parametrize("entity", ENTITIES)
@pytest.mark.parametrize("day, n_hours, night_hours", DAYS)
def test_the_measure_entities_hours_and_shifts_count_the_hours_that_occurred(home, entity, day, n_hours, night_hours):
    hourly_model, busy, busy_counters, shift_model = ENTITIES[entity]
    hourly = rows(home, f"""select hour_start_utc, hour_start, {busy}, measured_s from intermediate.{hourly_model}
        where system_name = '\\DEV1' and cast(hour_start as date) = '{day}' order by hour_start_utc""")
    expected = expected_hours(day, MEASURE_SYSTEM)
    assert [(utc, clock) for utc, clock, *_ in hourly] == [(utc, clock) for utc, clock, _ in expected]
    assert [pct for _, _, pct, _ in hourly] == pytest.approx([pct for *_, pct in expected], rel=1e-9)
    # the day's measured seconds and busy percent-hours (busy µs / 36e6: every interval is an hour) from raw
    measured_s, busy_pct_hours = raw_day(home, f"measure_{entity}",
                                         f"sum(delta_time) / 1e6, sum({busy_counters}) / 36e6", day)
    assert (sum(m for *_, m in hourly), measured_s) == (3600.0 * n_hours, 3600.0 * n_hours)
    shifts = rows(home, f"""select shift, n_hours, {busy}_avg from marts.{shift_model}
        where system_name = '\\DEV1' and shift_date = '{day}' order by shift""")
    assert [(shift, n) for shift, n, _ in shifts] == [(1, 8), (2, 8), (3, night_hours)]
    assert sum(avg * n for _, n, avg in shifts) == pytest.approx(busy_pct_hours, rel=1e-9)


@pytest.mark.parametrize("day, n_hours", [(d, n) for d, n, _ in DAYS])
def test_the_process_day_is_one_run_through_the_hour_repeated_or_skipped(home, day, n_hours):
    # the records follow one another in UTC order: the repeated hour's two intervals continue the run
    [(runs, run_time_s, cpu_busy_s, received)] = rows(home, f"""select process_runs, run_time_s, cpu_busy_s,
        messages_received_count from intermediate.int_process__daily where system_name = '\\DEV1'
        and report_date = '{day}'""")
    raw = raw_day(home, "measure_process", "sum(delta_time) / 1e6, sum(cpu_busy_time) / 1e6, sum(messages_received)", day)
    assert (runs, run_time_s, cpu_busy_s, received) == (1, *raw)
    assert run_time_s == 3600.0 * n_hours


# a workload's CPU seconds in each hour that occurred: the process's busy (NonStop), 90 % of the CP's (z/OS)
WORKLOAD_CPU_PER_BUSY_PCT = {"nonstop": 36.0, "zos": 0.9 * 36.0}


@pytest.mark.parametrize("platform, system", [("nonstop", MEASURE_SYSTEM), ("zos", SMF_SYSTEM)])
@pytest.mark.parametrize("day, n_hours, night_hours", DAYS)
def test_the_workload_hours_shifts_and_days_count_the_hours_that_occurred(home, platform, system, day, n_hours,
                                                                          night_hours):
    where = f"platform = '{platform}' and system_name = '{system}'"
    hourly = rows(home, f"""select hour_start_utc, hour_start, workload, cpu_s from intermediate.int_workload__hourly
        where {where} and cast(hour_start as date) = '{day}' order by hour_start_utc""")
    expected = expected_hours(day, system)
    assert [(utc, clock) for utc, clock, *_ in hourly] == [(utc, clock) for utc, clock, _ in expected]
    assert {workload for _, _, workload, _ in hourly} == {"ORDERS" if platform == "nonstop" else "ONLINE"}
    assert [cpu for *_, cpu in hourly] == pytest.approx(
        [WORKLOAD_CPU_PER_BUSY_PCT[platform] * busy for *_, busy in expected], abs=1e-3)
    # the day's CPU seconds: the intervals' (MEASURE's process busy; SMF 72.3's service in CP seconds, two
    # 30-minute intervals an hour, none taken for a copy of the other)
    if platform == "nonstop":
        [day_cpu_s] = raw_day(home, "measure_process", "sum(cpu_busy_time) / 1e6", day)
    else:
        [(intervals, day_cpu_s)] = rows(home, f"""select count(*), sum(cp_cpu_s) from staging.stg_smf__workload_period
            where system_id = '{system}' and cast(interval_start as date) = '{day}' and not is_report_class""")
        assert intervals == 2 * n_hours
    assert sum(cpu for *_, cpu in hourly) == pytest.approx(day_cpu_s, rel=1e-12)
    shifts = rows(home, f"""select shift, n_hours, cpu_s from marts.fct_workload_shift
        where {where} and shift_date = '{day}' order by shift""")
    assert [(shift, n) for shift, n, _ in shifts] == [(1, 8), (2, 8), (3, night_hours)]
    assert sum(cpu for *_, cpu in shifts) == pytest.approx(day_cpu_s, rel=1e-12)
    [(daily_hours, daily_cpu_s)] = rows(home, f"""select n_hours, cpu_s from intermediate.int_workload__daily
        where {where} and day = '{day}'""")
    assert (daily_hours, daily_cpu_s) == (n_hours, pytest.approx(day_cpu_s, rel=1e-12))
    # per processor (z/OS: the CP's busy share of its hour, the one CP) and as a share of the hour's workloads
    [(cpu_hours, per_cpu_s)] = rows(home, f"""select count(distinct hour_start_utc), sum(cpu_s)
        from intermediate.int_workload__cpu_hourly where {where} and cast(hour_start as date) = '{day}'""")
    assert (cpu_hours, per_cpu_s) == (n_hours, pytest.approx(day_cpu_s, rel=1e-12))
    shares = rows(home, f"""select cpu_share_pct from marts.fct_workload_hourly
        where {where} and cast(hour_start as date) = '{day}'""")
    assert [pct for pct, in shares] == pytest.approx([100.0] * n_hours, rel=1e-12)


def smf_interval_sums(day: dt.date, per_interval) -> list[float]:
    """``per_interval(k)`` of the RMF intervals added up per hour that occurred (two 30-minute intervals each)."""
    return [per_interval(2 * k) + per_interval(2 * k + 1) for k in range(len(instants(day, dt.timedelta(hours=1))))]


@pytest.mark.parametrize("day, n_hours, night_hours", DAYS)
def test_the_dasd_hours_shifts_and_day_count_the_hours_that_occurred(home, day, n_hours, night_hours):
    # SMF 74.1 by SMF74LGO: the repeated hour's two sets of intervals are not copies of each other
    hourly = rows(home, f"""select hour_start_utc, hour_start, n_intervals, ssch_count from intermediate.int_dasd__hourly
        where system_name = '{SMF_SYSTEM}' and volser = '{VOLUME.volser}' and cast(hour_start as date) = '{day}'
        order by hour_start_utc""")
    expected = expected_hours(day, SMF_SYSTEM)
    assert [(utc, clock) for utc, clock, *_ in hourly] == [(utc, clock) for utc, clock, _ in expected]
    assert [(n, io) for *_, n, io in hourly] == [(2, io) for io in smf_interval_sums(day, smf_io_count)]
    [(intervals, raw_io)] = rows(home, f"""select count(*), sum(ssch_count) from raw.smf74_device_activity
        where system_id = '{SMF_SYSTEM}' and cast(interval_start as date) = '{day}'""")
    assert (intervals, raw_io) == (2 * n_hours, sum(smf_io_count(k) for k in range(2 * n_hours)))
    assert sum(io for *_, io in hourly) == raw_io
    shifts = rows(home, f"""select shift, n_hours, ssch_count from marts.fct_dasd_shift
        where system_name = '{SMF_SYSTEM}' and shift_date = '{day}' order by shift""")
    assert [(shift, n) for shift, n, _ in shifts] == [(1, 8), (2, 8), (3, night_hours)]
    assert sum(io for *_, io in shifts) == raw_io
    # the day's peaks count every hour, as the busy distribution does
    peaks = rows(home, f"""select resource_type, measured_hours from intermediate.int_dasd__daily_peak
        where system_name = '{SMF_SYSTEM}' and peak_date = '{day}' order by resource_type""")
    assert peaks == [("dasd_busy", n_hours), ("dasd_response", n_hours)]
    distributed = rows(home, f"""select resource, sum(hours) from marts.fct_busy_distribution_day
        where system_name = '{SMF_SYSTEM}' and resource like 'dasd%' and day = '{day}' group by resource order by resource""")
    assert distributed == [("dasd_busy", n_hours), ("dasd_response", n_hours)]


@pytest.mark.parametrize("day, n_hours", [(d, n) for d, n, _ in DAYS])
def test_the_started_task_pieces_and_hours_follow_the_time_that_passed(home, day, n_hours):
    # SMF 30 has no offset: each piece takes its RMF intervals' (the repeated hour's second pass the later one)
    starts = [t.replace(tzinfo=None) for t in instants(day, dt.timedelta(minutes=30))]
    pieces = rows(home, f"""select period_start_utc, period_end_utc, elapsed_s, cpu_s from intermediate.int_zos_work__piece
        where system_id = '{SMF_SYSTEM}' and job_name = 'DSTTASK' and cast(period_start as date) = '{day}'
        order by period_start_utc""")
    assert [(start, end) for start, end, *_ in pieces] == [(t, t + dt.timedelta(minutes=30)) for t in starts]
    assert [elapsed for _, _, elapsed, _ in pieces] == [1800.0] * 2 * n_hours
    assert [cpu for *_, cpu in pieces] == pytest.approx([(smf_task_cpu_cs(k) + 10) / 100 for k in range(2 * n_hours)])
    hourly = rows(home, f"""select hour_start_utc, hour_start, record_count, cpu_s, excp_count
        from marts.fct_zos_work_hourly where system_id = '{SMF_SYSTEM}' and job_name = 'DSTTASK'
        and cast(hour_start as date) = '{day}' order by hour_start_utc""")
    expected = expected_hours(day, SMF_SYSTEM)
    assert [(utc, clock) for utc, clock, *_ in hourly] == [(utc, clock) for utc, clock, _ in expected]
    assert [(n, io) for _, _, n, _, io in hourly] == [(2, io) for io in smf_interval_sums(day, smf_io_count)]
    assert [cpu for *_, cpu, _ in hourly] == pytest.approx(
        smf_interval_sums(day, lambda k: (smf_task_cpu_cs(k) + 10) / 100), rel=1e-12)
    # the day: the records as they were read, none taken for a copy of another
    [(records, raw_cpu_s, raw_excp)] = rows(home, f"""select count(*), sum(cpu_tcb_us + cpu_srb_us) / 1e6, sum(excp_count)
        from raw.smf30_work where system_id = '{SMF_SYSTEM}' and job_name = 'DSTTASK'
        and cast(interval_start as date) = '{day}'""")
    assert records == 2 * n_hours
    [(day_cpu_s, day_excp)] = rows(home, f"""select cpu_s, excp_count from intermediate.int_zos_work__daily
        where system_id = '{SMF_SYSTEM}' and application = 'DSTTASK' and day = '{day}'""")
    assert (day_cpu_s, day_excp) == (pytest.approx(raw_cpu_s, rel=1e-12), raw_excp)
    assert sum(cpu for *_, cpu, _ in hourly) == pytest.approx(raw_cpu_s, rel=1e-12)


@pytest.mark.parametrize("day, n_hours", [(d, n) for d, n, _ in DAYS])
def test_the_transaction_hours_each_had_3600_seconds(home, day, n_hours):
    # the CP busy of the hour's two RMF intervals (fct_zos_cpu_type_interval) and the transactions its service
    # class ended (SMF 72.3), one row per hour that occurred
    hourly = rows(home, f"""select hour_start_utc, hour_start, period_s, busy_cpu_s, transactions
        from intermediate.int_capacity__transaction_hourly where system_name = '{SMF_SYSTEM}'
        and cast(hour_start as date) = '{day}' order by hour_start_utc""")
    expected = expected_hours(day, SMF_SYSTEM)
    assert [(utc, clock) for utc, clock, *_ in hourly] == [(utc, clock) for utc, clock, _ in expected]
    assert [period for _, _, period, _, _ in hourly] == [3600.0] * n_hours
    assert [busy for *_, busy, _ in hourly] == pytest.approx(smf_interval_sums(day, lambda k: 18 * smf_busy_pct(k)), rel=1e-6)
    assert [n for *_, n in hourly] == smf_interval_sums(day, lambda k: 100 + k)
    # the day's cost: the service class captured 90 % of the CP busy of every hour, none counted twice
    [(measured_cpu_s, captured_pct, transactions)] = rows(home, f"""select max(measured_cpu_s), max(capture_ratio_pct),
        max(transactions) from marts.rpt_workload_cost_per_transaction
        where system_name = '{SMF_SYSTEM}' and day = '{day}'""")
    assert measured_cpu_s == pytest.approx(sum(18 * smf_busy_pct(k) for k in range(2 * n_hours)), rel=1e-6)
    assert captured_pct == pytest.approx(90.0, rel=1e-6)
    assert transactions == sum(100 + k for k in range(2 * n_hours))


@pytest.mark.parametrize("day", [FALL_BACK, SPRING_FORWARD])
def test_the_work_in_a_4hra_peak_is_what_ran_in_its_utc_interval(home, day):
    # each day is its month's only one: its peak is its highest valid 4HRA, the busiest last interval; the
    # service class and the task are those of that one interval, matched by UTC instants
    last = len(instants(day, dt.timedelta(minutes=30))) - 1
    work = rows(home, f"""select peak_rank, interval_start_utc, work_kind, work_name, cp_cpu_s from marts.rpt_msu_peak_work
        where system_id = '{SMF_SYSTEM}' and month_start = '{day.replace(day=1)}' order by work_kind""")
    peak_utc = instants(day, dt.timedelta(minutes=30))[last].replace(tzinfo=None)
    assert [(rank, utc, kind, name) for rank, utc, kind, name, _ in work] == [
        (1, peak_utc, "job", "DSTTASK"), (1, peak_utc, "service class", WORKLOAD_CLASS.name)]
    assert [cpu for *_, cpu in work] == pytest.approx(
        [(smf_task_cpu_cs(last) + 10) / 100, 0.9 * 1800 * smf_busy_pct(last) / 100], abs=1e-3)
