"""SMF 73.1: fixture 5 (tests/fixtures/smf/README.md) decodes to its documented values; a generated day
round-trips (each channel path's busy share equals what the generator wrote)."""

from __future__ import annotations

import datetime as dt
from functools import partial

import pytest

from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from smf_dumps import interval_records, load_hex, parse_table, patched, rejects

FIXTURE5 = load_hex("fixture5_smf73_1_channels.hex")
parse = partial(parse_table, table="smf73_channel_path")


def test_fixture5_every_channel_path_is_a_row_with_its_record_interval(tmp_path):
    rows, ctx = parse(tmp_path, FIXTURE5)
    assert len(FIXTURE5) == 344 and ctx.rejects == [] and ctx.records_read == 1
    assert [(r["section_index"], r["chpid"], r["path_acronym"]) for r in rows] == [
        (0, "20", "FC_S"), (1, "40", "CTC"), (2, "41", "CTC"), (3, "42", None)]
    for r in rows:
        assert {k: r[k] for k in ("system_id", "record_time", "subsystem_id", "interval_start", "interval_us", "sample_count",
                                   "system_name", "busy_sample_count", "config_flags", "cpmf_mode")} == {
            "system_id": "SYSA", "record_time": dt.datetime(2026, 1, 5, 10, 15, 1), "subsystem_id": "RMF",
            "interval_start": dt.datetime(2026, 1, 5, 10, 0), "interval_us": 900_000_000, "sample_count": 900,
            "system_name": "SYSA", "busy_sample_count": 900, "config_flags": 0x04, "cpmf_mode": 2}
    keys = ("channel_flags", "channel_flags_ext", "path_flags", "busy_samples", "partition_busy_us", "partition_interval_us")
    assert [tuple(r[k] for k in keys) for r in rows] == [
        # 878,906 x 1,024 µs = 899,999,744 µs measured; 263,672 / 834,961 / 685,547 units busy
        (0x01, 0x02, 0x00, 270, 270_000_128, 899_999_744),
        (0x01, 0x02, 0x40, 855, 855_000_064, 899_999_744),
        (0x01, 0x02, 0x40, 702, 702_000_128, 899_999_744),
        (0x00, 0x00, 0x00, 0, 0, 0),  # a CHPID not defined: its section carries SMF73PID only
    ]
    # the channel path activity report's partition utilisation, SMF73PBY / SMF73PTI: 30 %, 95 % (seed 003 L386's MPC+
    # maximum) and 78 % (its V4R3 maximum); the sampled busy SMF73BSY / SMF73SMP says the same
    assert [round(100 * r["partition_busy_us"] / r["partition_interval_us"], 4) for r in rows[:3]] == [30.0, 95.0, 78.0]
    assert [100 * r["busy_samples"] / r["busy_sample_count"] for r in rows[:3]] == [30.0, 95.0, 78.0]


@pytest.mark.parametrize(("offset", "damage", "reason"), [
    (36, bytes(8), "record has no channel path control section (triplet SMF73HIS at record offset 36 is zero): no "
                   "sample count for the busy counts"),
    # SMF73HPN: 5 sections of 24 bytes from 248 end past the 344-byte record
    (50, (5).to_bytes(2, "big"), "triplet SMF73HPS at record offset 44 points to 5 section(s) of 24 bytes at offset 248, "
                                 "ending at 368, outside the record (data from 28 to 344)"),
])
def test_a_damaged_record_is_rejected_alone(tmp_path, offset, damage, reason):
    rows, ctx = parse(tmp_path, patched(FIXTURE5, offset, damage) + FIXTURE5)
    assert [(r["byte_offset"], r["chpid"]) for r in rows] == [(344, "20"), (344, "40"), (344, "41"), (344, "42")]
    assert rejects(ctx) == [(0, f"record at offset 0 (type 73.1): {reason}")]


def test_a_generated_day_round_trips_each_paths_busy_share(tmp_path):
    plan = smf_plan.plan_day("SYSB", dt.date(2026, 1, 7), seed=11)
    rows, ctx = parse(tmp_path, interval_records(plan.channels, partial(smf_records.channel_record, plan.profile)))
    assert ctx.rejects == [] and len(rows) == len(plan.channels) == 48 * 5
    for r, c in zip(rows, plan.channels):
        assert (r["chpid"], r["path_acronym"], r["path_flags"] == 0x40) == (f"{c.chpid:02X}", c.acronym, c.ctc)
        assert r["partition_busy_us"] / r["partition_interval_us"] == pytest.approx(c.busy, abs=1e-6)
