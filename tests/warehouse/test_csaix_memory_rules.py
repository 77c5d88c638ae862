"""Seed 002's CS/AIX memory rules against the host's RAM on the demo warehouse (L650): the snaadmin snapshots of
aix01 beside the RAM of its lsattr -El sys0 listing, recomputed from the rows below, and the rules' status; the
units formula (F22) those rows apply, thewall of the channel-attached aix01 against its RAM (R21, L1089), its
paging space day by day (R23, L412, L428) and its error log's adapter-queue-full entries (R20, L808)."""

from __future__ import annotations

import pytest

from read_only_db import dict_rows, read_only

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(demo_home):
    yield from read_only(demo_home.serving_path)


def test_memory_shares_of_ram_recompute_from_the_snapshots_and_the_listing(db):
    (ram_kb,) = db.execute("select value from staging.stg_listings__parameters where node = 'aix01' "
                           "and parameter_key = 'realmem'").fetchone()
    assert ram_kb == 262144  # 256 MB, as lsattr prints it in KB
    snapshots = {(r["source_command"], r["captured_at"]): r for r in dict_rows(
        db, "select * from marts.fct_buffer_pool_snapshot where host = 'aix01' and source_command like 'snaadmin %'")}
    rows = dict_rows(db, "select * from marts.fct_csaix_memory_snapshot where host = 'aix01'")
    assert len(rows) == len(snapshots) > 0
    for row in rows:
        snap = snapshots[row["source_command"], row["captured_at"]]
        if row["source_command"] == "snaadmin query_buffer_availability":
            # the demo's buf_avail is the document's 25,058,340 bytes (L618): 9.3 % of 256 MB, below 25 %
            assert row["buf_avail_ram_pct"] == pytest.approx(100 * snap["bytes_limit"] / (ram_kb * 1024))
            assert round(row["buf_avail_ram_pct"], 2) == 9.33 and row["unlimited_kernel_memory_ram_pct"] is None
        else:
            # limit = 0: no limit, the kernel memory in use against the 50 % CS/AIX allows itself by default
            assert snap["bytes_limit"] is None and row["buf_avail_ram_pct"] is None
            assert row["unlimited_kernel_memory_ram_pct"] == pytest.approx(100 * snap["bytes_in_use"] / (ram_kb * 1024))


def test_the_rules_compare_every_snapshot_and_the_demo_host_follows_them(db):
    counts = dict(db.execute("select source_command, count(*) from marts.fct_csaix_memory_snapshot "
                             "group by source_command").fetchall())
    status = {r["rule_id"]: (r["status"], r["evaluations"], r["findings"]) for r in dict_rows(
        db, "select * from marts.rpt_rule_status where rule_id in ('002-R07', '002-R09')")}
    assert status == {
        "002-R07": ("evaluated", counts["snaadmin query_buffer_availability"], 0),
        "002-R09": ("evaluated", counts["snaadmin query_kernel_memory_limit"], 0),
    }


def test_the_units_formula_is_applied_on_every_snapshot(db):
    # F22 (L614, L640, L822, L842): snaadmin counts bytes, lsattr and no print KB; each snapshot's RAM is realmem
    # x 1024 bytes (256 MB = 268,435,456 bytes), and thewall = 8192 KB (L842) would be 8,388,608 bytes
    rams = db.execute("select distinct ram_bytes from marts.fct_csaix_memory_snapshot").fetchall()
    assert rams == [(262144 * 1024,)] == [(268435456,)]
    (rows,) = db.execute("select count(*) from marts.fct_csaix_memory_snapshot").fetchone()
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '002-F22'")
    assert (status["kind"], status["status"], status["evaluations"], status["findings"]) == (
        "formula", "evaluated", rows, None)


def test_thewall_of_the_channel_attached_host_is_a_quarter_of_its_ram(db):
    # 002-R21 (L1089): aix01 reaches SYSA over ESCON; its thewall is the document's test rigs' 16 MB on 256 MB
    # (L969, L1111), 6.25 %, below the 25 % the channel section advises
    rows = dict_rows(db, "select * from marts.rpt_aix_host_memory")
    assert [(r["system_name"], r["channel_station"], r["thewall_kb"], r["ram_kb"], r["thewall_ram_pct"], r["fired"])
            for r in rows] == [("aix01", "aix01-sysa", 16384, 262144, 6.25, True)]
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '002-R21'")
    assert (status["status"], status["evaluations"], status["systems"], status["findings"]) == ("evaluated", 1, 1, 1)


def test_the_paging_space_of_aix01_rises_on_three_days(db):
    # 002-R23's clause "paging space %used rising" (L412, L428) on aix01's lsps -a captures: 1 % until day 39, then
    # 4, 9 and 17 % on days 39 to 41 (2026-02-13 to 02-15), held at 17 % after; 60 days captured, 59 judged
    rows = dict_rows(db, "select * from marts.rpt_paging_space order by day")
    assert {(r["system_name"], r["paging_space"], r["size_mb"]) for r in rows} == {("aix01", "hd6", 512)}
    assert len(rows) == 59
    assert [(str(r["day"]), r["previous_used_pct_peak"], r["used_pct_peak"]) for r in rows if r["fired"]] == [
        ("2026-02-13", 1, 4), ("2026-02-14", 4, 9), ("2026-02-15", 9, 17)]
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '002-R23'")
    assert (status["status"], status["evaluations"], status["systems"], status["findings"]) == ("evaluated", 59, 1, 3)


def test_the_full_adapter_queue_of_aix01_is_logged_on_the_congested_day(db):
    # 002-R20 (L808): aix01's errpt -a each evening; at the peak of day 41 (2026-02-15), when CS/AIX's buffers are
    # CONGESTED, the token-ring DLC's writes to its full adapter queue fail three times (LAN8031, SYSXDLCT). 60 days
    # captured, each judged on the entries it shows first; the error daemon's start on day 0 is no finding
    rows = dict_rows(db, "select * from marts.rpt_adapter_queue_full order by day")
    assert len(rows) == 60 and {r["system_name"] for r in rows} == {"aix01"}
    assert [(str(r["day"]), r["queue_full_entries"]) for r in rows if r["fired"]] == [("2026-02-15", 3)]
    (status,) = dict_rows(db, "select * from marts.rpt_rule_status where rule_id = '002-R20'")
    assert (status["status"], status["evaluations"], status["systems"], status["findings"]) == ("evaluated", 60, 1, 1)
