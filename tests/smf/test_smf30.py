"""SMF 30: a step record (fixture 5), an invalid timer (fixture 6), a short processor section (fixture 7)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ingest.formats.base import ParseContext
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from smf_dumps import parse as parse_dump
from smf_dumps import rejects

PROFILE = smf_plan.profile_for("SYSA")
STEP = smf_plan.WorkRecord(
    subtype=4, work_type="JES2", job_name="PAYR001", job_id="JOB04711", step_name="STEP010", step_number=1,
    program="IEFBR14", reader_start=dt.datetime(2026, 1, 5, 14, 58, 2), step_start=dt.datetime(2026, 1, 5, 14, 59, 0),
    written=dt.datetime(2026, 1, 5, 15, 0, 15), interval_start=None, cpu_tcb_cs=151, cpu_srb_cs=4, ziip_cs=0, excp=1234,
    service_class="BATCHMED", report_class="RPAYROLL", workload="BATCH", job_class="A",
)
PROCESSOR_TRIPLET = 56


def parse(tmp_path: Path, data: bytes) -> tuple[list[dict], ParseContext]:
    """The rows of every table: a decoded 30.4/30.5 in smf30_work, a 30.1/30.6 kept verbatim in smf_unparsed."""
    tables, ctx = parse_dump(tmp_path, data)
    return [row for rows in tables.values() for row in rows], ctx


def test_fixture5_step_record(tmp_path):
    record = smf_records.work_record(PROFILE, STEP)
    assert record[:8] == bytes.fromhex("028E0000DE1E0052")  # the docstring sample of smf30.py
    (row,), ctx = parse(tmp_path, record)
    assert {k: row[k] for k in (
        "system_id", "work_type", "record_subtype", "job_name", "job_id", "step_name", "step_number", "program_name",
        "job_class", "step_start", "reader_start", "record_time", "cpu_tcb_us", "cpu_srb_us", "initiator_tcb_us",
        "initiator_srb_us", "excp_count", "excp_count_64", "service_class", "report_class", "workload_name",
        "completion_code", "ziip_us", "system_name", "sysplex_name", "record_version",
    )} == {
        "system_id": "SYSA", "work_type": "JES2", "record_subtype": 4, "job_name": "PAYR001", "job_id": "JOB04711",
        "step_name": "STEP010", "step_number": 1, "program_name": "IEFBR14", "job_class": "A",
        "step_start": dt.datetime(2026, 1, 5, 14, 59), "reader_start": dt.datetime(2026, 1, 5, 14, 58, 2),
        "record_time": dt.datetime(2026, 1, 5, 15, 0, 15), "cpu_tcb_us": 1_510_000, "cpu_srb_us": 40_000,
        "initiator_tcb_us": 20_000, "initiator_srb_us": 10_000, "excp_count": 1234, "excp_count_64": 1234,
        "service_class": "BATCHMED", "report_class": "RPAYROLL", "workload_name": "BATCH", "completion_code": 0,
        "ziip_us": 0, "system_name": "SYSA", "sysplex_name": "PLEXP1", "record_version": "05",
    }
    assert (row["cpu_tcb_us"] + row["cpu_srb_us"]) / 1e6 == 1.55  # the step fact's cp_cpu_sec
    assert ctx.records_read == 1 and ctx.rejects == []


def _with_timer_flags(record: bytes, flags: int) -> bytes:
    at = int.from_bytes(record[PROCESSOR_TRIPLET:PROCESSOR_TRIPLET + 4], "big")
    return record[: at + 2] + flags.to_bytes(2, "big") + record[at + 4 :]


def test_fixture6_invalid_timer_is_null(tmp_path):
    job = smf_records.work_record(PROFILE, smf_plan.WorkRecord(**{**vars(STEP), "subtype": 5, "step_name": ""}))
    (row,), _ = parse(tmp_path, _with_timer_flags(job, 0x8000 | 0x4000))  # flags used + bit 1: SMF30CPT invalid
    assert (row["record_subtype"], row["timer_flags"], row["cpu_tcb_us"], row["cpu_srb_us"]) == (5, 0xC000, None, 40_000)


def test_fixture7_short_processor_section_and_excp_sections(tmp_path):
    full = smf_records.work_record(PROFILE, STEP)

    def section_at(at: int) -> bytes:
        off, length = int.from_bytes(full[at:at + 4], "big"), int.from_bytes(full[at + 4:at + 6], "big")
        return full[off:off + length]

    processor = section_at(PROCESSOR_TRIPLET)[:84]  # an older release: up to SMF30CEP only
    excp = [smf_records.section(30, (4, smf_records.ebc(f"DD{k}", 8)), (12, smf_records.u(400 + k, 4))) for k in range(3)]
    record = smf_records.smf_record(30, 4, 0xDE, STEP.written, "SYSA", "JES2", [
        [section_at(24)], [section_at(32)], [section_at(40)], [section_at(48)], [processor], [], [], [section_at(80)], [], excp,
    ], trn=False)
    (row,), ctx = parse(tmp_path, record)
    assert (row["cpu_tcb_us"], row["enqueue_promotion_us"], row["zaap_us"], row["ziip_us"], row["ziip_on_cp_us"]) == (
        1_510_000, 0, None, None, None)
    assert row["excp_section_count"] == 3 and row["excp_count"] == 1234
    assert ctx.rejects == []


def test_record_without_identification_section_is_rejected(tmp_path):
    full = smf_records.work_record(PROFILE, STEP)
    bad = full[:32] + bytes(8) + full[40:]  # SMF30IOF/ILN/ION zero
    rows, ctx = parse(tmp_path, bad + full)
    assert [r["byte_offset"] for r in rows] == [len(bad)]
    assert rejects(ctx) == [
        (0, "record at offset 0 (type 30.4): record has no identification section (triplet SMF30IOF at record offset 32 is zero)")
    ]


def test_subtypes_1_and_6_are_not_decoded(tmp_path):
    start = smf_records.other_record(PROFILE, dt.datetime(2026, 1, 5, 14, 58, 3), 30, 1, 184)
    rows, ctx = parse(tmp_path, start)
    assert [(r["record_type"], r["record_subtype"], r["subsystem_id"]) for r in rows] == [(30, 1, "JES2")]
    assert ctx.records_read == 1
