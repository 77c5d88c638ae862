"""From captures to marts: snapshots equal the text, rates equal differences over elapsed seconds,
restarts never give negative rates, duplicates count once, the seeds' rules report violations."""

from __future__ import annotations

import datetime as dt
import re
import shutil

import duckdb
import pytest

from command_helpers import GOLDEN, parse_file
from ingest import dbt_runner, pipeline
from ingest.generate import commands
from ingest.home import Home
from read_only_db import read_only

LINUX = GOLDEN / "linux"
REAL_S = (LINUX / "devbox__netstat-s__20261121T063246.out").read_text()
SNA_SEED = (GOLDEN / "sna" / "csaix1__snaadmin-query_buffer_availability__19980601T100000.out").read_text()
AIX_IN = (GOLDEN / "aix" / "snapper__netstat-in__20151225T000000.out").read_text()
AIX_V = (GOLDEN / "aix" / "snapper_ent0_rxq__netstat-v__20151225T000000.out").read_text()
AIX_S = (GOLDEN / "aix" / "gopsutil_aix73__netstat-s__20250101T000000.out").read_text()
# the network subject, its threshold report, the capacity peaks of interfaces and everything they are built
# from (staging, the thresholds seed)
NETWORK_MODELS = ["+tag:network", "+rpt_network_threshold_violations", "+fct_capacity_daily_peak"]
TCP = {"tcp_in_segs": "segments_in_count", "tcp_out_segs": "segments_out_count",
       "tcp_retrans_segs": "segments_retransmitted_count", "tcp_active_opens": "active_opens_count",
       "tcp_passive_opens": "passive_opens_count", "tcp_out_rsts": "resets_sent_count"}


def _renumber(text: str, f) -> str:
    """The same capture with every printed count replaced by f(count) (labels such as InType3 kept)."""
    return re.sub(r"(?<=[ :])(\d+)(?=\n)|(?<=^    )(\d+)(?= )|(?<=activated )(\d+)(?= times)",
                  lambda m: str(f(int(m.group()))), text, flags=re.M)


# netstat -s every 15 minutes, each capture the real one with every count but the zeros grown by the number given
QUARTERS = [("2026-03-01T10:00:00+01:00", 0), ("2026-03-01T10:15:00+01:00", 900),
            ("2026-03-01T10:30:00+01:00", 1800), ("2026-03-01T10:45:00+01:00", 2700)]
ORDER_LOGS = {
    "clean01": QUARTERS,
    "repeat01": [*QUARTERS[:2], QUARTERS[1], *QUARTERS[2:]],  # the 10:15 capture printed twice
    "back01": [*QUARTERS[:3], ("2026-03-01T10:10:00+01:00", 2000), QUARTERS[3]],  # the clock set back 20 minutes
    # the clocks go back at 02:00 CEST: 01:45+01:00 is followed by 01:00+00:00, 15 minutes later
    "fall01": [("2026-10-25T01:30:00+01:00", 0), ("2026-10-25T01:45:00+01:00", 900),
               ("2026-10-25T01:00:00+00:00", 2700), ("2026-10-25T01:15:00+00:00", 3600)],
    # and forward: 00:45+00:00 is followed by 02:00+01:00, 15 minutes later
    "spring01": [("2026-03-29T00:30:00+00:00", 0), ("2026-03-29T00:45:00+00:00", 900),
                 ("2026-03-29T02:00:00+01:00", 1800), ("2026-03-29T02:15:00+01:00", 2700)],
}
CAPTURE_LINES = 1 + REAL_S.count("\n")  # a capture's header and text


def _log(host: str, captures: list[tuple[str, int]]) -> str:
    return "".join(f"# captured: {t} host: {host}\n" + _renumber(REAL_S, lambda v, g=grown: v + g if v else 0)
                   for t, grown in captures)


@pytest.fixture(scope="module")
def network_home(tmp_path_factory) -> Home:
    home = Home(tmp_path_factory.mktemp("network_home")).create()
    land = home.landing
    for name in ("devbox_netstat_s_log.out", "devbox_netstat_i_log.out", "devbox__netstat-s__20261121T063246.out",
                 "devbox__netstat-i__20261121T063246.out"):
        shutil.copy(LINUX / name, land / name)
    # the single capture again, inside another collector's log: must count once
    (land / "devbox_copy.log").write_text("# captured: 2026-11-21T06:32:46 host: devbox\n" + REAL_S)
    # web02 reboots between its first and second capture (every counter restarts near zero)
    (land / "web02.log").write_text(
        "# captured: 2026-01-05T10:00:00 host: web02\n" + REAL_S
        + "# captured: 2026-01-05T10:05:00 host: web02\n" + _renumber(REAL_S, lambda v: v // 100)
        + "# captured: 2026-01-05T10:10:00 host: web02\n" + _renumber(REAL_S, lambda v: v // 100 + 50 if v else 0)
    )
    # CS/AIX: the seed's snapshot, then one after a node restart with congested buffers
    (land / "csaix1.log").write_text(
        "# captured: 1998-06-01T10:00:00 host: csaix1\n" + SNA_SEED
        + "# captured: 1998-06-01T10:30:00 host: csaix1\n" + SNA_SEED
        .replace("buf_total_count = 75", "buf_total_count = 12").replace("throttle_status = 30\n", "throttle_status = 75\n")
        .replace("buf_use_status = UNCONGESTED\nmax_buf_total_count", "buf_use_status = CONGESTED\nmax_buf_total_count")
    )
    # AIX: the real netstat -in, -v and -s captures, and five minutes later the same with traffic added
    (land / "aix22.log").write_text(
        "# captured: 2026-02-02T10:00:00 host: aix22\n" + AIX_IN + "# captured: 2026-02-02T10:00:00 host: aix22\n" + AIX_V
        + "# captured: 2026-02-02T10:00:00 host: aix22\n" + AIX_S
        + "# captured: 2026-02-02T10:05:00 host: aix22\n" + AIX_IN.replace("190896", "191896").replace("210601", "211101")
        + "# captured: 2026-02-02T10:05:00 host: aix22\n" + AIX_V.replace("463507064", "463517064")
        .replace("Bytes: 480756412571", "Bytes: 480793912571")  # 37.5 MB received: 125,000 bytes/s
        .replace("Number of receive packets: 210174400", "Number of receive packets: 210184400")
        + "# captured: 2026-02-02T10:05:00 host: aix22\n" + AIX_S.replace("13907119 packets received", "13937119 packets received")
        .replace("8864927 packets sent", "8874927 packets sent").replace("26849 data packets", "26949 data packets")
    )
    for name in ("vse/vse1_console.out", "vtam/zos1_syslog_bfruse.out", "zos/zos1_netstat_stats.out"):
        shutil.copy(GOLDEN / name, land / name.split("/")[1])
    first = pipeline.ingest_paths(home, [land])
    assert all(r.ok for r in first), [m for r in first for m in r.messages]
    again = pipeline.ingest_paths(home, [land])
    assert {r.status for r in again} == {"duplicate"}
    # captures out of time order, each log ingested with its one reject (tests below)
    order = tmp_path_factory.mktemp("order")
    for host, captures in ORDER_LOGS.items():
        (order / f"{host}.log").write_text(_log(host, captures))
    pipeline.ingest_paths(home, [order])
    # clean01's 10:15 capture again in two later files: once as it was, once with other values
    copies = tmp_path_factory.mktemp("copies")
    (copies / "clean01_same.log").write_text(_log("clean01", [QUARTERS[1]]))
    (copies / "clean01_other.log").write_text(_log("clean01", [(QUARTERS[1][0], 1000)]))
    pipeline.ingest_paths(home, [copies])
    assert dbt_runner.run_dbt(home, ["build", "--select", *NETWORK_MODELS], quiet=True) == 0
    return home


@pytest.fixture(scope="module")
def db(network_home):
    yield from read_only(network_home.db_path)


def _recorded_snapshots():
    """{captured_at: {counter_name: value}} straight from the recorded log and single capture."""
    _, _, rows, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    _, _, single, _ = parse_file(LINUX / "devbox__netstat-s__20261121T063246.out")
    out: dict[dt.datetime, dict[str, float]] = {}
    for r in rows + single:
        out.setdefault(r["captured_at"], {})[r["counter_name"]] = r["value"]
    return out


def test_snapshot_values_equal_the_text(db):
    recorded = _recorded_snapshots()
    got = db.execute(
        "select captured_at, counter_name, value from intermediate.int_counter__snapshot "
        "where host = 'devbox' and command = 'netstat -s'"
    ).fetchall()
    assert len(got) == sum(len(v) for v in recorded.values()) == 213 + 54  # the copied capture counted once
    for captured_at, name, value in got:
        assert recorded[captured_at][name] == value
    assert db.execute(
        "select value from intermediate.int_counter__snapshot where host = 'devbox' and counter_name = 'tcp_in_segs' "
        "and captured_at = '2026-11-21 06:31:37'"
    ).fetchone() == (47679.0,)


def test_tcp_rates_are_differences_over_elapsed_seconds(db):
    recorded = _recorded_snapshots()
    times = sorted(recorded)
    rows = db.execute(
        f"select interval_start, interval_end, interval_s, {', '.join(TCP.values())}, segments_in_per_s, "
        "segments_out_per_s from marts.fct_tcpip_interval where host = 'devbox' order by interval_start"
    ).fetchall()
    assert [(r[0], r[1]) for r in rows] == list(zip(times, times[1:]))
    for row in rows:
        start, end, seconds = row[:3]
        assert seconds == (end - start).total_seconds()
        for name, got in zip(TCP, row[3:3 + len(TCP)]):
            assert got == recorded[end][name] - recorded[start][name]
        assert row[-2] == pytest.approx((recorded[end]["tcp_in_segs"] - recorded[start]["tcp_in_segs"]) / seconds)
    # 06:31:26 -> 06:31:37: 47679 - 47199 = 480 segments in 11 s
    assert rows[0][3] == 480 and rows[0][-2] == pytest.approx(480 / 11)


def test_interface_rates(db):
    row = db.execute(
        "select rx_packets_count, tx_packets_count, rx_packets_per_s, error_pct from marts.fct_interface_interval "
        "where host = 'devbox' and interface_name = 'lo' and interval_start = '2026-11-21 06:31:37'"
    ).fetchone()
    assert row == (2879 - 1919, 2879 - 1919, pytest.approx(960 / 18), 0.0)


def test_aix_interfaces_reach_the_interface_mart(db):
    """AIX netstat -in prints its link rows as 'link#N': they are the interfaces (netstat -v: the adapters)."""
    rows = db.execute(
        "select interface_name, command, interval_s, rx_packets_count, tx_packets_count, rx_packets_per_s, error_pct "
        "from marts.fct_interface_interval where host = 'aix22' order by command, interface_name"
    ).fetchall()
    assert rows == [
        ("en22", "netstat -i", 300.0, 1000.0, 500.0, pytest.approx(1000 / 300), 0.0),
        ("en9", "netstat -i", 300.0, 0.0, 0.0, 0.0, None),
        ("lo0", "netstat -i", 300.0, 0.0, 0.0, 0.0, None),
        ("ent0", "netstat -v", 300.0, 10000.0, 0.0, pytest.approx(10000 / 300), 0.0),
    ]


def test_aix_link_speed_captured_by_netstat_v_gives_the_interface_peak(db):
    """ent0 prints Media Speed Running 10 Gbps Full Duplex and the seed interface_speeds has no aix22 row:
    the hour's busier direction, 125,000 bytes/s received, is 1 Mbit/s of 10,000."""
    speeds = db.execute("select interface_name, captured_date, media_speed "
                        "from intermediate.int_capacity__interface_speed where host = 'aix22'").fetchall()
    assert speeds == [("ent0", dt.date(2026, 2, 2), "10 Gbps Full Duplex")]
    peaks = db.execute("select resource_name, peak_date, peak_pct, peak_hour_start, measured_hours "
                       "from marts.fct_capacity_daily_peak where resource_type = 'interface' and system_name = 'aix22'"
                       ).fetchall()
    assert peaks == [("ent0", dt.date(2026, 2, 2), pytest.approx(0.01), dt.datetime(2026, 2, 2, 10), 1)]


def test_aix_per_queue_counters_give_rates_per_queue(db):
    rows = db.execute(
        "select entity, delta_value, rate_per_s from intermediate.int_counter__rate "
        "where host = 'aix22' and counter_name = 'number_of_receive_packets' order by entity"
    ).fetchall()
    assert rows == [("ent0 RXQ 0", 0.0, 0.0), ("ent0 RXQ 1", 10000.0, pytest.approx(10000 / 300)), ("ent0 RXQ 2", 0.0, 0.0)]


def test_aix_netstat_s_reaches_the_tcp_mart(db):
    row = db.execute(
        "select interval_s, segments_in_count, segments_out_count, segments_retransmitted_count, retransmitted_pct "
        "from marts.fct_tcpip_interval where host = 'aix22'"
    ).fetchone()
    assert row == (300.0, 30000.0, 10000.0, 100.0, pytest.approx(1.0))


def test_a_restart_drops_the_interval_and_never_gives_a_negative_rate(db):
    reset = db.execute(
        "select bool_and(counter_reset), count(delta_value), count(rate_per_s) from intermediate.int_counter__rate "
        "where host = 'web02' and interval_end = '2026-01-05 10:05:00'"
    ).fetchone()
    assert reset == (True, 0, 0)
    assert db.execute(
        "select min(delta_value) >= 0 and min(rate_per_s) >= 0 from intermediate.int_counter__rate"
    ).fetchone() == (True,)
    rows = db.execute(
        "select interval_start, segments_in_count, segments_in_per_s from marts.fct_tcpip_interval where host = 'web02'"
    ).fetchall()
    assert rows == [(dt.datetime(2026, 1, 5, 10, 5), 50.0, pytest.approx(50 / 300))]


def test_snaadmin_levels_kept_as_printed_across_a_restart(db):
    rows = db.execute(
        "select captured_at, buffers_in_use_count, bytes_in_use, bytes_limit, throttle_status, is_congested "
        "from marts.fct_buffer_pool_snapshot where host = 'csaix1' order by captured_at"
    ).fetchall()
    assert rows == [
        (dt.datetime(1998, 6, 1, 10, 0), 75.0, 34504.0, 25058340.0, 30.0, False),
        (dt.datetime(1998, 6, 1, 10, 30), 12.0, 34504.0, 25058340.0, 75.0, True),
    ]
    # gauges only: nothing of snaadmin is differenced
    assert db.execute("select count(*) from intermediate.int_counter__rate where host = 'csaix1'").fetchone() == (0,)


def test_vse_health_and_vtam_pools(db):
    vse = db.execute(
        "select interval_s, datagrams_in_count, non_ip_count, misrouted_count, misrouted_pct, inbound_rejections_count, "
        "tcp_bytes_sent_per_s, telnet_daemons_active_count from marts.fct_vse_stack_health where host = 'VSE1'"
    ).fetchall()
    assert vse == [(900.0, 11900.0, 4.0, 0.0, 0.0, 2.0, pytest.approx(5401800 / 900), 25.0)]
    io00 = db.execute(
        "select captured_at, buffers_in_use_count, in_use_pct, max_used_pct, expansions_count, expansion_failed "
        "from marts.fct_buffer_pool_snapshot where host = 'SYSA' and pool_name = 'IO00' order by captured_at"
    ).fetchall()
    assert io00 == [
        (dt.datetime(2026, 1, 5, 10, 0, 0, 50000), 234.0, pytest.approx(100 * 234 / 275), pytest.approx(100 * 251 / 275), None, False),
        (dt.datetime(2026, 1, 5, 10, 15, 0, 50000), 330.0, 100.0, 100.0, 1.0, True),
    ]


def test_threshold_report_rows_name_host_interval_and_observed_value(db):
    rows = db.execute(
        "select rule_id, host, entity, interval_start, interval_end, observed_value, limit_value "
        "from marts.rpt_network_threshold_violations order by rule_id, host, interval_end"
    ).fetchall()
    assert ("VSE-R1", "VSE1", None, dt.datetime(2026, 1, 5, 10, 0), dt.datetime(2026, 1, 5, 10, 15), 4.0, 0.0) in rows
    assert ("SNA-R01", "csaix1", "STREAMS buffers", dt.datetime(1998, 6, 1, 10, 0),
            dt.datetime(1998, 6, 1, 10, 30), 75.0, 30.0) in rows
    assert ("SNA-R02", "csaix1", "STREAMS buffers", dt.datetime(1998, 6, 1, 10, 0),
            dt.datetime(1998, 6, 1, 10, 30), 75.0, 70.0) in rows
    assert ("SNA-R03", "csaix1", "STREAMS buffers", dt.datetime(1998, 6, 1, 10, 0),
            dt.datetime(1998, 6, 1, 10, 30), 1.0, 1.0) in rows
    assert ("VTAM-03", "SYSA", "IO00", dt.datetime(2026, 1, 5, 10, 0, 0, 50000),
            dt.datetime(2026, 1, 5, 10, 15, 0, 50000), 1.0, 1.0) in rows
    # no rule crossed on the development machine's loopback traffic, none by the seed's own snapshot
    assert not [r for r in rows if r[1] == "devbox"]
    assert not [r for r in rows if r[1] == "csaix1" and r[4] == dt.datetime(1998, 6, 1, 10, 0)]
    # z/OS TCPCS retransmitted 121 of 12000 segments (1.008 %): under the 2 % rule
    assert not [r for r in rows if r[0] == "NET-TCP-01"]


def test_generated_captures_load_without_rejects(tmp_path):
    files = commands.generate(tmp_path, dt.date(2026, 1, 5), 1, 240, seed=7)
    assert len(files) == 13  # aix01's lsps -a and vmstat logs among them, \PROD1's and \DEV1's FastSort statistics
    for f in files:
        _, ctx, rows, unparsed = parse_file(f)
        assert not ctx.rejects and not unparsed and rows, f
    _, _, rows, _ = parse_file(next(f for f in files if "netstat-s" in f.name))
    assert len({r["captured_at"] for r in rows}) == 6  # every four hours for a day
    again = commands.generate(tmp_path / "again", dt.date(2026, 1, 5), 1, 240, seed=7)
    assert [f.read_bytes() for f in again] == [f.read_bytes() for f in files]


@pytest.mark.slow
def test_demo_warehouse_shows_the_planted_incidents(demo_home):
    con = duckdb.connect(str(demo_home.serving_path), read_only=True)
    try:
        incidents = set(con.execute(
            "select rule_id, host, cast(interval_end as date) from marts.rpt_network_threshold_violations"
        ).fetchall())
        reboot = con.execute(
            "select count(*) from marts.fct_tcpip_interval where host = 'web01' "
            "and interval_start < '2026-01-25 08:00' and interval_end >= '2026-01-25 08:00'"
        ).fetchone()
    finally:
        con.close()
    day = lambda n: commands.DEMO_START + dt.timedelta(days=n)  # noqa: E731
    assert {("AIX-M-01", "aix01", day(12)), ("VSE-R1", "VSE1", day(15)), ("NET-TCP-01", "web01", day(33)),
            ("SNA-R03", "aix01", day(41)), ("VTAM-02", "SYSA", day(50)), ("VM-POOL-01", "VM1", day(45))} <= incidents
    assert reboot == (0,)  # the interval across web01's reboot is left out, not negative


def _tcp_intervals(db, host):
    return db.execute(
        "select interval_start, interval_end, interval_s, segments_in_count, segments_in_per_s "
        "from marts.fct_tcpip_interval where host = ? order by interval_start, interval_end", [host]).fetchall()


def _rejects(db, host):
    return db.execute(
        "select f.status, f.records_loaded, r.line_number, r.record_ordinal, r.reason from raw.rejects as r "
        "inner join raw.ingest_files as f on f.file_id = r.file_id where f.file_name = ?", [f"{host}.log"]).fetchall()


def _reason(ordinal: int, line: int, stamp: str, previous: str, previous_line: int) -> str:
    return (f"capture {ordinal} (line {line}): line {line}: capture time {stamp} is not after the previous "
            f"capture's {previous} (line {previous_line}): a repeated capture or a clock set back is not differenced")


def test_a_repeated_capture_is_rejected_with_its_line_and_counts_once(db):
    """The 10:15 capture printed twice: the copy is one reject at its line, and the day's traffic is the
    single copy's: 2,700 segments in the three intervals, as in the clean log."""
    line = 1 + 2 * CAPTURE_LINES
    assert _rejects(db, "repeat01") == [("loaded_with_rejects", 4, line, 2, _reason(
        2, line, "2026-03-01 10:15:00+01:00", "2026-03-01 10:15:00+01:00", 1 + CAPTURE_LINES))]
    clean = _tcp_intervals(db, "clean01")
    assert [(r[2], r[3]) for r in clean] == [(900.0, 900.0)] * 3
    assert _tcp_intervals(db, "repeat01") == clean
    assert db.execute("select host, sum(segments_in_count) from marts.fct_tcpip_interval "
                      "where host in ('clean01', 'repeat01') group by host order by host").fetchall() == [
        ("clean01", 2700.0), ("repeat01", 2700.0)]


def test_a_capture_taken_when_the_clock_went_back_is_rejected_not_differenced(db):
    """10:00, 10:15, 10:30, then 10:10 (the clock set back), then 10:45: ordered by time, 10:10 would make
    10:00-10:10 count 2,000 segments and 10:30-10:45 900 more, 3,800 in all; rejected, the intervals and the
    day's 2,700 are the clean log's."""
    line = 1 + 3 * CAPTURE_LINES
    assert _rejects(db, "back01") == [("loaded_with_rejects", 4, line, 3, _reason(
        3, line, "2026-03-01 10:10:00+01:00", "2026-03-01 10:30:00+01:00", 1 + 2 * CAPTURE_LINES))]
    assert _tcp_intervals(db, "back01") == _tcp_intervals(db, "clean01")
    assert db.execute("select sum(segments_in_count), min(segments_in_count) from marts.fct_tcpip_interval "
                      "where host = 'back01'").fetchone() == (2700.0, 900.0)


def test_intervals_across_a_change_of_utc_offset_are_timed_on_utc_instants(db):
    """When the clocks go back (01:45+01:00, then 01:00+00:00) or forward (00:45+00:00, then 02:00+01:00) the
    local times jump, the instants go on every 15 minutes: each interval is 900 s, its rate its growth / 900."""
    fall = _tcp_intervals(db, "fall01")  # by local times: the last interval first
    assert fall == [
        (dt.datetime(2026, 10, 25, 1, 0), dt.datetime(2026, 10, 25, 1, 15), 900.0, 900.0, pytest.approx(1.0)),
        (dt.datetime(2026, 10, 25, 1, 30), dt.datetime(2026, 10, 25, 1, 45), 900.0, 900.0, pytest.approx(1.0)),
        (dt.datetime(2026, 10, 25, 1, 45), dt.datetime(2026, 10, 25, 1, 0), 900.0, 1800.0, pytest.approx(2.0)),
    ]
    spring = _tcp_intervals(db, "spring01")
    assert spring == [
        (dt.datetime(2026, 3, 29, 0, 30), dt.datetime(2026, 3, 29, 0, 45), 900.0, 900.0, pytest.approx(1.0)),
        (dt.datetime(2026, 3, 29, 0, 45), dt.datetime(2026, 3, 29, 2, 0), 900.0, 900.0, pytest.approx(1.0)),
        (dt.datetime(2026, 3, 29, 2, 0), dt.datetime(2026, 3, 29, 2, 15), 900.0, 900.0, pytest.approx(1.0)),
    ]
    assert _rejects(db, "fall01") == _rejects(db, "spring01") == []
    assert db.execute("select captured_at, utc_offset_s, captured_utc from intermediate.int_counter__snapshot "
                      "where host = 'fall01' and counter_name = 'tcp_in_segs' order by captured_utc").fetchall() == [
        (dt.datetime(2026, 10, 25, 1, 30), 3600, dt.datetime(2026, 10, 25, 0, 30)),
        (dt.datetime(2026, 10, 25, 1, 45), 3600, dt.datetime(2026, 10, 25, 0, 45)),
        (dt.datetime(2026, 10, 25, 1, 0), 0, dt.datetime(2026, 10, 25, 1, 0)),
        (dt.datetime(2026, 10, 25, 1, 15), 0, dt.datetime(2026, 10, 25, 1, 15)),
    ]


def test_a_later_file_holding_a_capture_with_other_values_is_listed_and_never_differenced(db):
    """clean01's 10:15 capture again in two later files: the identical copy is a duplicate; the copy whose
    counts are 100 higher is listed with its file and line, and the intervals stay the first copy's (above)."""
    rows = db.execute(
        "select host, command, captured_at, utc_offset_s, captured_utc, file_path, line_number, kept_file_path, "
        "kept_line_number, differing_value_count, counter_count, kept_counter_count "
        "from intermediate.int_counter__conflicting_copy").fetchall()
    nonzero = db.execute(
        "select count(*) from intermediate.int_counter__snapshot where host = 'clean01' "
        "and captured_at = '2026-03-01 10:15:00' and value <> 0").fetchone()[0]
    assert [(*r[:5], r[5].rsplit("/", 1)[-1], r[6], r[7].rsplit("/", 1)[-1], *r[8:]) for r in rows] == [
        ("clean01", "netstat -s", dt.datetime(2026, 3, 1, 10, 15), 3600, dt.datetime(2026, 3, 1, 9, 15),
         "clean01_other.log", 1, "clean01.log", 1 + CAPTURE_LINES, 43, 54, 54)]
    assert nonzero == 43  # of the capture's 54 values, the 43 not zero were raised by 100
    assert sorted(_tcp_intervals(db, "clean01")) == sorted(_tcp_intervals(db, "repeat01"))
