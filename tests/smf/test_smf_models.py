"""SMF through dbt: fixture 1's busy figures and fixture 2's FTP rate in the marts; a generated day of
the demo warehouse round-trips (busy %, CPU seconds, EXCPs, bytes and counts the generator put in)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import duckdb
import pytest
from conftest import DEMO_SEED  # the seed the shared demo warehouse is generated with

from ingest import dbt_runner, pipeline
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import smf as gen
from ingest.home import Home
from ingest.warehouse.serving import connect_serving
from read_only_db import read_only
from smf_dumps import load_hex

DAY = dt.date(2026, 1, 6)  # a Tuesday of the demo period


def rows(con: duckdb.DuckDBPyConnection, sql: str, params=()) -> list[tuple]:
    return con.execute(sql, list(params)).fetchall()


FIXTURE_MARTS = "+fct_zos_cpu_logical_interval +fct_zos_cpu_type_interval +fct_zos_lpar_interval +int_cpu__interval_smf +rpt_zos_ftp_rates_vs_published"


@pytest.fixture(scope="module")
def fixture_home(tmp_path_factory) -> Home:
    """Fixtures 1 and 2 in a warehouse of their own, built with the models that read them."""
    home = Home(tmp_path_factory.mktemp("smf_models")).create()
    (home.landing / "fixtures.smf").write_bytes(load_hex("fixture1_smf70_1_two_cps.hex") + load_hex("fixture2_smf119_70_ftp_stor.hex"))
    assert [r.status for r in pipeline.ingest_paths(home, [home.landing])] == ["loaded"]
    assert dbt_runner.build(home, select=FIXTURE_MARTS, quiet=True) == 0
    return home


@pytest.fixture(scope="module")
def fixture_db(fixture_home):
    yield from read_only(fixture_home.db_path)


def test_fixture1_per_logical_cpu(fixture_db):
    got = rows(fixture_db, """
        select cpu_id, cpu_type, round(mvs_busy_pct, 2), round(lpar_busy_pct, 2), round(effective_lpar_busy_pct, 2),
               round(parked_pct, 2), round(online_pct, 2), round(io_interrupts_per_s, 2), interval_end
        from marts.fct_zos_cpu_logical_interval where system_id = 'SYSA' order by cpu_id""")
    end = dt.datetime(2024, 3, 15, 10, 15)
    assert got == [(0, "CP", 40.0, 42.22, 41.11, 0.0, 100.0, 31.0, end), (1, "CP", 25.0, 17.78, 17.22, 33.33, 100.0, 10.0, end)]


def test_fixture1_per_cpu_type_and_partition(fixture_db):
    assert rows(fixture_db, """
        select logical_cpu_count, round(mvs_busy_pct, 2), round(lpar_busy_pct, 2), round(effective_lpar_busy_pct, 2)
        from marts.fct_zos_cpu_type_interval where system_id = 'SYSA'""") == [(2, 34.0, 30.0, 29.17)]
    assert rows(fixture_db, """
        select partition_name, cpu_type, is_reporting_image, physical_cpu_count, round(logical_busy_pct, 2),
               round(physical_share_pct, 2), round(lpar_management_pct, 4)
        from marts.fct_zos_lpar_interval where system_id = 'SYSA'""") == [("LPAR01", "CP", True, 4, 30.0, 15.0, 0.4167)]


def test_fixture1_feeds_the_conformed_cpu_interval(fixture_db):
    assert rows(fixture_db, """
        select source, system_name, cpu_num, cpu_type, os_version, interval_start, interval_s, busy_pct, ibusy_pct, qlen
        from intermediate.int_cpu__interval_smf where system_name = 'SYSA' order by cpu_num""") == [
        ("smf70", "SYSA", 0, "CP", "ZV020500", dt.datetime(2024, 3, 15, 10), 900.0, 40.0, None, None),
        ("smf70", "SYSA", 1, "CP", "ZV020500", dt.datetime(2024, 3, 15, 10), 900.0, 25.0, None, None),
    ]


def test_fixture2_ftp_rate_beside_seed_004(fixture_db):
    assert rows(fixture_db, """
        select direction, file_type, transfer_count, transfer_bytes, duration_s, round(aggregate_kb_per_s, 3),
               published_file_class, published_kb_per_s, published_seed_line, round(ratio_to_published, 4)
        from marts.rpt_zos_ftp_rates_vs_published where system_id = 'SYSA'""") == [
        ("to_host", "SEQ", 1, 1_048_576, 4.5, 227.556, "LIBR", 340.0, 4924, 0.6693)]  # 1024 KB / 4.5 s


# -- the demo warehouse: a generated day round-trips ---------------------------------------------------------

@pytest.fixture(scope="module")
def serving(demo_home):
    con = connect_serving(demo_home)
    yield con
    con.close()


@pytest.fixture(scope="module")
def plans():
    return {sid: smf_plan.plan_day(sid, DAY, seed=DEMO_SEED) for sid in gen.DEMO_SYSTEMS}


@pytest.mark.slow
@pytest.mark.parametrize("sid", gen.DEMO_SYSTEMS)
def test_busy_per_logical_cpu_round_trips(serving, plans, sid):
    expected = {}
    for interval in plans[sid].rmf:
        interval_us = interval.interval_ms * 1000
        for c in interval.cpus:
            mvs = 100 * (interval_us - c.wait_us - c.parked_us) / (interval_us - c.parked_us)
            expected[(interval.start, c.cpu_id)] = (c.cpu_type, mvs, 100 * c.dispatch_us / c.online_us)
    got = {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows(serving, """
        select c.interval_start, c.cpu_num, c.cpu_type, c.busy_pct, m.lpar_busy_pct
        from intermediate.int_cpu__interval_smf as c
        join marts.fct_zos_cpu_logical_interval as m
            on m.system_id = c.system_name and m.interval_start = c.interval_start and m.cpu_id = c.cpu_num
        where c.system_name = ? and cast(c.interval_start as date) = ?""", [sid, DAY])}
    assert got.keys() == expected.keys()
    for key, (cpu_type, mvs, lpar) in expected.items():
        assert got[key][0] == cpu_type
        assert got[key][1] == pytest.approx(mvs, abs=1e-9) and got[key][2] == pytest.approx(lpar, abs=1e-9)


def _counted_pieces(plan: smf_plan.DayPlan) -> list[smf_plan.WorkRecord]:
    """What the work marts must count: interval pieces, plus step totals of steps without them."""
    with_intervals = {(w.job_id, w.step_number) for w in plan.work if w.subtype in (2, 3)}
    return [w for w in plan.work if w.subtype in (2, 3) or (w.subtype == 4 and (w.job_id, w.step_number) not in with_intervals)]


@pytest.mark.slow
@pytest.mark.parametrize("sid", gen.DEMO_SYSTEMS)
def test_cpu_seconds_and_excps_by_job_round_trip(serving, plans, sid):
    expected: dict[str, list] = defaultdict(lambda: [0, 0])
    for w in _counted_pieces(plans[sid]):
        expected[w.job_name][0] += w.cpu_tcb_cs + w.cpu_srb_cs
        expected[w.job_name][1] += w.excp
    got = rows(serving, """
        select job_name, sum(cpu_s), sum(excp_count) from marts.fct_zos_work_hourly
        where system_id = ? and cast(hour_start as date) = ? group by job_name""", [sid, DAY])
    assert {job: (pytest.approx(cpu, abs=1e-6), excp) for job, cpu, excp in got} == {
        job: (cs / 100, excp) for job, (cs, excp) in expected.items()}


@pytest.mark.slow
@pytest.mark.parametrize("sid", gen.DEMO_SYSTEMS)
def test_tcpip_bytes_and_counts_round_trip(serving, plans, sid):
    plan = plans[sid]
    ftp: dict[tuple, list] = defaultdict(lambda: [0, 0, 0])
    for f in plan.ftp:
        key = ("from_host" if f.operation == 4 else "to_host", f.file_type)
        ftp[key][0] += 1
        ftp[key][1] += f.transfer_bytes
        ftp[key][2] += f.duration_cs
    got = rows(serving, """
        select direction, file_type, count(*), sum(transfer_bytes), round(sum(duration_s) * 100)
        from marts.fct_zos_ftp_transfer where system_id = ? and cast(completed_at as date) = ?
        group by direction, file_type""", [sid, DAY])
    assert {(d, t): [n, b, int(cs)] for d, t, n, b, cs in got} == dict(ftp)

    ports: dict[int, list] = defaultdict(lambda: [0, 0, 0])
    for c in plan.connections:
        port = c.remote_port if c.active_open else c.local_port
        ports[port][0] += 1
        ports[port][1] += c.in_bytes
        ports[port][2] += c.out_bytes
    got = rows(serving, """
        select service_port, sum(connection_count), sum(in_bytes), sum(out_bytes) from marts.fct_zos_tcp_connection_hourly
        where system_id = ? and cast(hour_start as date) = ? group by service_port""", [sid, DAY])
    assert {p: [n, i, o] for p, n, i, o in got} == dict(ports)

    interfaces: dict[str, list] = defaultdict(lambda: [0, 0])
    for x in plan.interfaces:
        interfaces[x.name][0] += x.in_bytes
        interfaces[x.name][1] += x.out_bytes
    got = rows(serving, """
        select interface_name, sum(in_bytes), sum(out_bytes) from marts.fct_zos_interface_interval
        where system_id = ? and interval_end > ? and interval_end <= ? group by interface_name""",
        [sid, dt.datetime.combine(DAY, dt.time()), dt.datetime.combine(DAY, dt.time()) + dt.timedelta(days=1)])
    assert {name: [i, o] for name, i, o in got} == dict(interfaces)


@pytest.mark.slow
def test_undecoded_records_are_counted(serving):
    day_start = dt.datetime.combine(DAY, dt.time())
    expected: dict[tuple, int] = defaultdict(int)
    for sid in gen.DEMO_SYSTEMS:
        for d in (DAY - dt.timedelta(days=1), DAY):  # the last RMF records of a day are written after midnight
            for written, rtype, subtype, _ in smf_plan.plan_day(sid, d, seed=DEMO_SEED).other:
                if day_start <= written < day_start + dt.timedelta(days=1):
                    expected[(sid, rtype, subtype)] += 1
    got = rows(serving, """
        select system_id, record_type, record_subtype, count(*) from staging.stg_smf__unparsed
        where cast(record_time as date) = ? group by all""", [DAY])
    assert {(s, t, st): n for s, t, st, n in got} == dict(expected)


@pytest.mark.slow
def test_workload_characterization_finds_the_few_big_applications(serving):
    got = rows(serving, """
        select application, cpu_rank, round(cumulative_cpu_pct, 6), is_major from marts.rpt_zos_workload_characterization
        where system_id = 'SYSA' and month_start = date '2026-02-01' order by cpu_rank""")
    majors = [r for r in got if r[3]]
    assert 3 <= len(majors) <= 4  # "the three or four applications that account for 80% to 90%" (seed 001, L1727)
    assert majors[-1][2] >= 80 and (len(majors) == 1 or majors[-2][2] < 80)
    assert {a for a, *_ in majors} <= {"CICSPRD1", "DB2PDBM1", "CICSPRD2", "DB2PDIST"}
    total = rows(serving, """
        select sum(cpu_s) from marts.fct_zos_work_hourly
        where system_id = 'SYSA' and hour_start >= '2026-02-01' and hour_start < '2026-03-01'""")[0][0]
    month = rows(serving, """select sum(cpu_s) from marts.rpt_zos_workload_characterization
        where system_id = 'SYSA' and month_start = date '2026-02-01'""")[0][0]
    assert month == pytest.approx(total, rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("sid", gen.DEMO_SYSTEMS)
def test_dasd_shifts_recomputed_from_the_generated_intervals(serving, plans, sid):
    """Each DASD volume's shift of fct_dasd_shift is its intervals summed (SMF 74.1, docs/smf74_format.md):
    the I/O rate and the four response time parts, weighted by I/Os, recomputed from the plan's intervals."""
    shift_of = {h: (s, d) for h, s, d in rows(serving, """
        select distinct hour_start, shift, shift_date from intermediate.int_dasd__hourly
        where system_name = ? and cast(hour_start as date) = ? and shift is not null""", [sid, DAY])}
    sums: dict[tuple, list[float]] = defaultdict(lambda: [0.0] * 7)
    hours: dict[tuple, set] = defaultdict(set)
    for d in plans[sid].devices:
        hour = d.start.replace(minute=0)
        if hour not in shift_of:
            continue
        key = (f"{d.volume.device_number:04X}", *shift_of[hour])
        seconds = d.interval_ms / 1000
        # interval seconds, I/Os, IOS queue seconds (the sampled queue x the interval), pending, disconnect and
        # connect ms x I/Os, connect + disconnect seconds per exposure
        for i, value in enumerate((seconds, d.ssch, d.queued_requests / d.samples * seconds, d.pending_ms * d.ssch,
                                   d.disconnect_ms * d.ssch, d.connect_ms * d.ssch,
                                   (d.connect_ms + d.disconnect_ms) * d.ssch / 1000 / d.volume.exposures)):
            sums[key][i] += value
        hours[key].add(hour)
    got = {(r[0], r[1], r[2]): r[3:] for r in rows(serving, """
        select device_number, shift, shift_date, n_hours, io_per_s, iosq_ms, pending_ms, disconnect_ms, connect_ms,
               response_ms, busy_pct
        from marts.fct_dasd_shift where system_name = ? and shift_date = ?""", [sid, DAY])}
    whole = [key for key in sums if key in got and got[key][0] == len(hours[key])]  # shifts wholly inside the day
    assert len(whole) >= 33
    for key in whole:
        seconds, ssch, iosq_s, pending, disconnect, connect, busy = sums[key]
        parts = (1000 * iosq_s / ssch, pending / ssch, disconnect / ssch, connect / ssch)
        want = (ssch / seconds, *parts, sum(parts), 100 * busy / seconds)
        assert got[key][1:] == pytest.approx(want, rel=1e-3), key
