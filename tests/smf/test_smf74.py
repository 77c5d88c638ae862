"""SMF 74.1: fixture 4 (tests/fixtures/smf/README.md) decodes to its documented values; a generated day
round-trips (I/O rate and the four response time parts per device equal what the generator wrote)."""

from __future__ import annotations

import datetime as dt
from functools import partial
from pathlib import Path

import pytest

from ingest.formats.base import ParseContext
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from smf_dumps import interval_records, load_hex, parse_table, patched, rejects

FIXTURE4 = load_hex("fixture4_smf74_1_devices.hex")


def parse(tmp_path: Path, data: bytes) -> tuple[list[dict], ParseContext]:
    return parse_table(tmp_path, data, "smf74_device_activity")


def test_fixture4_every_device_is_a_row_with_its_record_interval(tmp_path):
    rows, ctx = parse(tmp_path, FIXTURE4)
    assert len(FIXTURE4) == 428 and ctx.rejects == [] and ctx.records_read == 1
    assert [(r["record_ordinal"], r["byte_offset"], r["section_index"], r["device_number"]) for r in rows] == [
        (0, 0, 0, "0A40"), (0, 0, 1, "0A41")]
    for r in rows:
        assert {k: r[k] for k in ("system_id", "record_time", "subsystem_id", "interval_start", "interval_us", "sample_count",
                                   "sysplex_name", "system_name")} == {
            "system_id": "SYSA", "record_time": dt.datetime(2026, 1, 5, 10, 15, 1), "subsystem_id": "RMF",  # 3,690,100 hundredths
            "interval_start": dt.datetime(2026, 1, 5, 10, 0), "interval_us": 900_000_000, "sample_count": 900,
            "sysplex_name": "PLEXP1", "system_name": "SYSA"}
    keys = ("lcu_number", "device_flags", "volser", "unit_type", "exposures", "ssch_count", "measured_count", "connect_us",
            "pending_us", "active_us", "disconnect_us", "queued_requests", "reserved_idle_samples")
    assert [tuple(r[k] for k in keys) for r in rows] == [
        # 0A40: a PAV base with 4 exposures, 90,000 SSCH; connect 703,125 x 128 µs = 90 s, pending 140,625 x 128 µs = 18 s,
        # disconnect 360,000 x 128 µs = 46.08 s, active their sum 1,203,750 x 128 µs; 9 requests queued in 900 samples
        (0x12, 0x01, "PRD001", "3010200F", 4, 90_000, 90_000, 90_000_000, 18_000_000, 154_080_000, 46_080_000, 9, 0),
        # 0A41: 9,000 SSCH of which 8,990 measured; 179,800 / 17,980 / 359,600 x 128 µs; 450 queued in 900 samples
        (0x12, 0x01, "PRD002", "3010200F", 1, 9_000, 8_990, 23_014_400, 2_301_440, 71_344_640, 46_028_800, 450, 3),
    ]
    # RMF's figures from them (docs/smf74_format.md): 0A40 100 I/O per s, connect 1.0 ms, pending 0.2 ms,
    # disconnect 0.512 ms, IOSQ (9 / 900) / 100 per s = 0.1 ms; 0A41 10 per s, IOSQ (450 / 900) / 10 = 50 ms
    a, b = rows
    assert a["ssch_count"] / (a["interval_us"] / 1e6) == 100.0 and b["ssch_count"] / (b["interval_us"] / 1e6) == 10.0
    assert (a["connect_us"] / a["measured_count"], a["pending_us"] / a["measured_count"], a["disconnect_us"] / a["measured_count"]) == (
        1000.0, 200.0, 512.0)
    assert (b["connect_us"] / b["measured_count"], b["pending_us"] / b["measured_count"], b["disconnect_us"] / b["measured_count"]) == (
        2560.0, 256.0, 5120.0)
    assert a["queued_requests"] / a["sample_count"] / 100 * 1e3 == pytest.approx(0.1)
    assert b["queued_requests"] / b["sample_count"] / 10 * 1e3 == pytest.approx(50.0)


def test_a_record_without_a_product_section_is_rejected(tmp_path):
    bad = patched(FIXTURE4, 28, bytes(8))  # SMF74PRS triplet zeroed
    rows, ctx = parse(tmp_path, bad + FIXTURE4)
    assert [(r["byte_offset"], r["device_number"]) for r in rows] == [(428, "0A40"), (428, "0A41")]
    assert rejects(ctx) == [(
        0, "record at offset 0 (type 74.1): record has no RMF product section (triplet SMF74PRS at record offset 28 is "
           "zero): no interval")]


def test_device_sections_past_the_record_end_are_rejected(tmp_path):
    # SMF74DDN: three devices of 120 bytes from offset 188 > 428
    rows, ctx = parse(tmp_path, patched(FIXTURE4, 50, (3).to_bytes(2, "big")))
    assert rows == [] and rejects(ctx) == [(0,
        "record at offset 0 (type 74.1): triplet SMF74DDS at record offset 44 points to 3 section(s) of 120 bytes at "
        "offset 188, ending at 548, outside the record (data from 28 to 428)")]


def test_a_generated_day_round_trips_rate_and_response_time_parts_per_device(tmp_path):
    plan = smf_plan.plan_day("SYSA", dt.date(2026, 1, 7), seed=11)
    rows, ctx = parse(tmp_path, interval_records(plan.devices, partial(smf_records.device_record, plan.profile)))
    volumes = {d.volume.volser for d in plan.devices}
    assert ctx.rejects == [] and len(rows) == len(plan.devices) == 48 * len(volumes) and 24 <= len(volumes) <= 48
    for r, d in zip(rows, plan.devices):
        assert (r["interval_start"], r["volser"], r["device_number"], r["exposures"]) == (
            d.start, d.volume.volser, f"{d.volume.device_number:04X}", d.volume.exposures)
        seconds, ios = r["interval_us"] / 1e6, r["measured_count"]
        assert r["ssch_count"] / seconds == pytest.approx(d.io_rate, rel=1e-9)
        # RMF's averages per measured I/O (docs/smf74_format.md), against the plan's truth
        assert r["connect_us"] / ios / 1000 == pytest.approx(d.connect_ms, rel=1e-3)
        assert r["pending_us"] / ios / 1000 == pytest.approx(d.pending_ms, rel=1e-3)
        assert r["disconnect_us"] / ios / 1000 == pytest.approx(d.disconnect_ms, rel=1e-3)
        iosq_ms = r["queued_requests"] / r["sample_count"] / (r["ssch_count"] / seconds) * 1000
        assert iosq_ms == pytest.approx(d.iosq_ms, rel=1e-3)
    # what the plan stands for: 1-300 I/O per second, response times of 0.5-8 ms
    response = [d.iosq_ms + d.pending_ms + d.disconnect_ms + d.connect_ms for d in plan.devices]
    assert 1 <= min(d.io_rate for d in plan.devices) and max(d.io_rate for d in plan.devices) <= 300
    assert 0.5 <= min(response) and max(response) <= 8
