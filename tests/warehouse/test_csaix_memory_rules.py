"""Seed 002's CS/AIX memory rules against the host's RAM on the demo warehouse (L650): the snaadmin snapshots of
aix01 beside the RAM of its lsattr -El sys0 listing, recomputed from the rows below, and the rules' status."""

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
