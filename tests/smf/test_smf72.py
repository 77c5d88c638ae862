"""SMF 72.3: fixture 3 (tests/fixtures/smf/README.md) decodes to its documented values; a generated day
round-trips (CPU service and transactions per service class equal what the generator wrote)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from ingest.formats.base import ParseContext
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from smf_dumps import load_hex, parse_table, patched, rejects

RECORD2 = 1628  # byte offset of the second record (the report class)


FIXTURE3 = load_hex("fixture3_smf72_3_workload.hex")


def parse(tmp_path: Path, data: bytes) -> tuple[list[dict], ParseContext]:
    return parse_table(tmp_path, data, "smf72_workload_period")


@pytest.fixture(scope="module")
def fixture3(tmp_path_factory):
    return parse(tmp_path_factory.mktemp("f3"), FIXTURE3)


def test_every_period_is_a_row_with_its_record_interval_and_class(fixture3):
    rows, ctx = fixture3
    assert len(FIXTURE3) == 2680 and ctx.rejects == [] and ctx.records_read == 2
    assert [(r["record_ordinal"], r["byte_offset"], r["section_index"], r["class_name"], r["period_number"]) for r in rows] == [
        (0, 0, 0, "TSOHI", 1), (0, 0, 1, "TSOHI", 2), (1, RECORD2, 0, "RDB2DDF", 1)]
    first = rows[0]
    assert {k: first[k] for k in (
        "system_id", "record_time", "subsystem_id", "interval_start", "interval_us", "system_name", "sysplex_name",
        "class_flags", "policy_name", "workload_name", "class_description", "class_period_count",
        "cpu_coefficient_e4", "io_coefficient_e4", "storage_coefficient_e4", "srb_coefficient_e4",
        "cpu_adjustment", "ziip_normalization",
    )} == {
        "system_id": "SYSA", "record_time": dt.datetime(2026, 1, 5, 10, 15, 1), "subsystem_id": "RMF",  # 3,690,100 hundredths
        "interval_start": dt.datetime(2026, 1, 5, 10, 0), "interval_us": 900_000_000, "system_name": "SYSA",
        "sysplex_name": "PLEXP1", "class_flags": 0, "policy_name": "WEEKDAY", "workload_name": "TSO",
        "class_description": "TSO users", "class_period_count": 2, "cpu_coefficient_e4": 10_000,
        "io_coefficient_e4": 5_000, "storage_coefficient_e4": 0, "srb_coefficient_e4": 10_000,
        "cpu_adjustment": 320, "ziip_normalization": 256,
    }
    assert (rows[2]["class_flags"], rows[2]["workload_name"], rows[2]["class_period_count"]) == (0x80, "DB2", 1)


def test_period_goals_service_and_transactions(fixture3):
    rows, _ = fixture3
    keys = ("goal_time_unit_flags", "goal_flags", "goal_value", "goal_percentile", "importance", "duration_service_units",
            "service_units", "cpu_service_units", "io_service_units", "storage_service_units", "srb_service_units",
            "rct_us", "io_interrupt_us", "hiperspace_us", "transactions_ended", "transactions_abended", "elapsed_1024us",
            "execution_1024us", "cpu_using_samples", "delay_samples", "using_samples", "dasd_io_count", "ziip_service_units",
            "ziip_on_cp_service_units")
    assert [tuple(r[k] for k in keys) for r in rows] == [
        # period 1: average response time goal 500 ms, importance 2, 3,600 transactions of 0.4 s (1,406,250 x 1.024 ms)
        (0x80, 0x40, 500, 0, 2, 2000, 1_790_000.0, 1_500_000.0, 40_000.0, 0.0, 250_000.0, 0.0, 120_000.0, 0.0,
         3600, 2, 1_406_250.0, 1_318_359.375, 400, 1600, 400, 9000, 0.0, 0.0),
        # period 2: execution velocity goal 40, importance 4, 120 transactions of 8 s; velocity 300 / (300 + 700) = 30 %
        (0, 0x20, 40, 0, 4, 0, 2_510_000.0, 2_000_000.0, 10_000.0, 0.0, 500_000.0, 0.0, 30_000.0, 0.0,
         120, 0, 937_500.0, 878_906.25, 300, 700, 300, 4000, 0.0, 0.0),
        # report class: no goal; 600,000 zIIP service units inside R723CCPU's 1,000,000
        (0, 0, 0, 0, 0, 0, 1_100_000.0, 1_000_000.0, 0.0, 0.0, 100_000.0, 0.0, 0.0, 0.0,
         50_000, 0, 976_562.5, 976_562.5, 0, 0, 0, 20_000, 600_000.0, 50_000.0),
    ]
    assert [r["period_flags"] for r in rows] == [0, 0, 0]
    # the records have no response time distribution (SMF72RTS zero)
    assert {r[f"rt_bucket_{k:02d}"] for r in rows for k in range(1, 15)} == {None}


def test_a_record_without_a_control_section_is_rejected_alone(tmp_path):
    bad = patched(FIXTURE3[:RECORD2], 36, bytes(8))  # SMF72WMS triplet zeroed
    rows, ctx = parse(tmp_path, bad + FIXTURE3)
    assert [(r["byte_offset"], r["class_name"]) for r in rows] == [(RECORD2, "TSOHI"), (RECORD2, "TSOHI"), (2 * RECORD2, "RDB2DDF")]
    assert rejects(ctx) == [(
        0, "record at offset 0 (type 72.3): record has no workload manager control section (triplet SMF72WMS at "
           "record offset 36 is zero): no class")]
    assert ctx.records_read == 3


def test_a_period_section_past_the_record_end_is_rejected(tmp_path):
    # SMF72SCN: three periods of 576 bytes from offset 476 > 1628
    rows, ctx = parse(tmp_path, patched(FIXTURE3[:RECORD2], 66, (3).to_bytes(2, "big")))
    assert rows == [] and rejects(ctx) == [(0,
        "record at offset 0 (type 72.3): triplet SMF72SCS at record offset 60 points to 3 section(s) of 576 bytes at "
        "offset 476, ending at 2204, outside the record (data from 28 to 1628)")]


def test_a_generated_day_round_trips_per_service_class(tmp_path):
    plan = smf_plan.plan_day("SYSA", dt.date(2026, 1, 7), seed=11)
    records = [smf_records.workload_record(plan.profile, c) for c in plan.wlm]
    rows, ctx = parse(tmp_path, smf_records.vbs_bytes(records))
    assert ctx.rejects == [] and len(rows) == len(plan.wlm) == 48 * len(smf_plan.WLM_CLASSES)
    got: dict[str, list[float]] = {}
    want: dict[str, list[float]] = {}
    for r, c in zip(rows, plan.wlm):
        assert (r["interval_start"], r["class_name"], r["workload_name"]) == (c.start, c.wlm.name, c.wlm.workload)
        assert r["utc_offset_us"] == plan.profile.utc_offset_h * 3_600_000_000  # SMF72LGO, the product section's
        g = got.setdefault(r["class_name"], [0, 0, 0, 0])
        w = want.setdefault(c.wlm.name, [0, 0, 0, 0])
        for total, value in ((g, (r["cpu_service_units"], r["srb_service_units"], r["ziip_service_units"], r["transactions_ended"])),
                             (w, (c.cpu_service_units, c.srb_service_units, c.ziip_service_units, c.transactions))):
            for i, v in enumerate(value):
                total[i] += v
    assert got == want
    # response time goals carry their distribution: array R723CRTX of SMF72RTS, the counts the plan wrote
    buckets = [f"rt_bucket_{k:02d}" for k in range(1, 15)]
    for r, c in zip(rows, plan.wlm):
        if c.wlm.goal_flags in (0x80, 0x40):
            assert [r[b] for b in buckets] == c.response_time_counts and sum(c.response_time_counts) == c.transactions
        else:
            assert {r[b] for b in buckets} == {None}
    # the CPU time staging derives, (R723CCPU + R723CSRB - R723CSUP) x R723MADJ / 16,000,000, is the plan's CP time
    cp_s = sum((r["cpu_service_units"] + r["srb_service_units"] - r["ziip_service_units"]) * r["cpu_adjustment"] / 16e6 for r in rows)
    assert cp_s == pytest.approx(sum(c.cp_s for c in plan.wlm), abs=0.01)
