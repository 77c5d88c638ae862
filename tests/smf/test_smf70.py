"""SMF 70.1: fixture 1 of formats/smf/README.md decodes to its expected values; PR/SM and CPU types."""

from __future__ import annotations

import datetime as dt
import pytest

from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from smf_dumps import load_hex, parse, patched, rejects


FIXTURE1 = load_hex("fixture1_smf70_1_two_cps.hex")


@pytest.fixture(scope="module")
def fixture1(tmp_path_factory):
    return parse(tmp_path_factory.mktemp("f1"), FIXTURE1)


def test_header_and_product_section(fixture1):
    tables, ctx = fixture1
    (control,) = tables["smf70_cpu_control"]
    assert {k: control[k] for k in ("record_ordinal", "byte_offset", "system_id", "record_time", "subsystem_id")} == {
        "record_ordinal": 0, "byte_offset": 0, "system_id": "SYSA",
        "record_time": dt.datetime(2024, 3, 15, 10, 15), "subsystem_id": "RMF",  # 3,690,000 hundredths
    }
    assert {k: control[k] for k in (
        "rmf_version", "product_name", "interval_start", "interval_us", "sample_count", "rmf_flags", "cycle_us",
        "zos_level", "processor_complex_type", "processor_flags", "partition_number", "smf_record_level",
        "utc_offset_us", "reassembly_area_count", "sysplex_name", "system_name",
    )} == {
        "rmf_version": 25, "product_name": "RMF", "interval_start": dt.datetime(2024, 3, 15, 10, 0),
        "interval_us": 900_000_000, "sample_count": 900, "rmf_flags": 0, "cycle_us": 1_000_000,
        "zos_level": "ZV020500", "processor_complex_type": 0, "processor_flags": 0x10, "partition_number": 1,
        "smf_record_level": 0, "utc_offset_us": 3_600_000_000, "reassembly_area_count": 0,
        "sysplex_name": "PLEX1", "system_name": "SYSA",
    }


def test_cpu_control_section_is_read_only_as_far_as_its_length(fixture1):
    (control,) = fixture1[0]["smf70_cpu_control"]
    assert {k: control[k] for k in (
        "machine_type", "cpu_version", "physical_cpus", "prsm_flags", "cpu_flags", "dispatch_interval_ms", "model_capacity_id",
    )} == {"machine_type": "8561", "cpu_version": 0, "physical_cpus": 4, "prsm_flags": 0, "cpu_flags": 0,
           "dispatch_interval_ms": 0, "model_capacity_id": "701"}
    # SMF70CCL = 24: SMF70DSA (offset 24) and everything after it are not in this record
    assert [control[k] for k in ("diagnose_samples", "capacity_msu_per_h", "ziips_online", "hiperdispatch_flags")] == [None] * 4
    assert (control["cpu_section_count"], control["partition_section_count"], control["lp_section_count"]) == (2, 1, 2)


def test_cpu_data_sections(fixture1):
    cpus = fixture1[0]["smf70_cpu"]
    keys = ("section_index", "cpu_wait_us", "cpu_id", "config_flags", "cpu_serial", "cpu_type_code", "io_slih_count",
            "io_tpi_count", "cpu_parked_us", "tcb_dispatch_count", "srb_dispatch_count", "interval_start")
    assert [tuple(c[k] for k in keys) for c in cpus] == [
        (0, 540_000_000, 0, 0x09, "012345", 0, 27000, 900, 0, 0, 0, dt.datetime(2024, 3, 15, 10, 0)),
        (1, 450_000_000, 1, 0x09, "012345", 0, 9000, 0, 300_000_000, 0, 0, dt.datetime(2024, 3, 15, 10, 0)),
    ]


def test_partition_and_logical_processor_sections(fixture1):
    (part,) = fixture1[0]["smf70_partition"]
    assert {k: part[k] for k in (
        "partition_name", "partition_number", "partition_flags", "logical_cpu_count", "first_lp_index", "active_lp_accum",
        "cluster_name", "system_name", "central_storage_mb", "expanded_storage_mb",
    )} == {"partition_name": "LPAR01", "partition_number": 1, "partition_flags": 0, "logical_cpu_count": 2,
           "first_lp_index": 0, "active_lp_accum": 0, "cluster_name": "PLEX1", "system_name": "SYSA",
           "central_storage_mb": 65536, "expanded_storage_mb": 0}
    keys = ("dispatch_us", "lp_address", "weight", "lp_flags", "polarization_flags", "cpu_type_index",
            "effective_dispatch_us", "online_us", "wait_state_us", "partition_name", "partition_number", "cpu_type_name")
    assert [tuple(lp[k] for k in keys) for lp in fixture1[0]["smf70_logical_processor"]] == [
        (380_000_000, 0, 100, 0, 0x80, 0, 370_000_000, 900_000_000, 0, "LPAR01", 1, None),
        (160_000_000, 1, 100, 0, 0x80, 0, 155_000_000, 900_000_000, 0, "LPAR01", 1, None),
    ]


def test_one_record_unfolds_into_six_rows_and_is_accounted(fixture1):
    tables, ctx = fixture1
    assert {name: len(rows) for name, rows in tables.items()} == {
        "smf70_cpu_control": 1, "smf70_cpu": 2, "smf70_partition": 1, "smf70_logical_processor": 2}
    assert ctx.records_read == 1 and ctx.rejects == []  # six rows, one SMF record


def test_physical_partition_cpu_identification_and_ziips(tmp_path):
    """Fixture 8 of the spec's wish list: PHYSICAL, two LPARs, CP and IIP identification sections, zIIPs."""
    plan = smf_plan.plan_day("SYSA", dt.date(2026, 1, 6), seed=7)
    interval = plan.rmf[20]  # 10:00
    tables, ctx = parse(tmp_path, smf_records.rmf_record(plan.profile, interval))
    assert ctx.rejects == []
    lps = tables["smf70_logical_processor"]
    by_partition: dict[str, list[str]] = {}
    for lp in lps:
        by_partition.setdefault(lp["partition_name"], []).append(lp["cpu_type_name"])
    assert by_partition == {"PRODA": ["CP"] * 4 + ["IIP"] * 2, "TESTLP": ["CP"] * 2, "PHYSICAL": ["CP"] * 6 + ["IIP"] * 2}
    assert {(lp["cpu_type_name"], lp["cpu_type_physical_count"]) for lp in lps} == {("CP", 6), ("IIP", 2)}
    cpus = tables["smf70_cpu"]
    assert [c["cpu_type_code"] for c in cpus] == [0, 0, 0, 0, 2, 2]
    ziip = interval.cpus[4]
    assert (cpus[4]["cpu_wait_us"], lps[4]["dispatch_us"], lps[4]["online_us"]) == (ziip.wait_us, ziip.dispatch_us, ziip.online_us)
    assert [p["partition_name"] for p in tables["smf70_partition"]] == ["PRODA", "TESTLP", "PHYSICAL"]


def test_triplet_past_the_record_end_rejects_only_that_record(tmp_path):
    bad = patched(FIXTURE1, 50, (5).to_bytes(2, "big"))  # SMF70CPN: 5 CPU data sections of 92 bytes from offset 228 > 672
    tables, ctx = parse(tmp_path, FIXTURE1 + bad + FIXTURE1)
    assert [c["byte_offset"] for c in tables["smf70_cpu_control"]] == [0, 1344]
    assert [(r.offset, r.record_ordinal, r.reason) for r in ctx.rejects] == [(
        672, 1,
        "record at offset 672 (type 70.1): triplet SMF70CPS at record offset 44 points to 5 section(s) of 92 bytes "
        "at offset 228, ending at 688, outside the record (data from 28 to 672)",
    )]
    assert ctx.records_read == 3  # two good records and the rejected one


def test_bad_packed_dates_reject_the_record(tmp_path):
    bad_header = patched(FIXTURE1, 10, bytes.fromhex("0124400F"))  # day 400
    bad_interval = patched(FIXTURE1, 110, bytes.fromhex("0A00000F"))  # SMF70IST with a non-digit
    tables, ctx = parse(tmp_path, bad_header + bad_interval + FIXTURE1)
    assert [c["byte_offset"] for c in tables["smf70_cpu_control"]] == [1344]
    assert rejects(ctx) == [
        (0, "record at offset 0 (type 70.1): header date SMFxxDTE at record offset 10 is X'0124400F', not a packed date 0cyydddF"),
        (672, "record at offset 672 (type 70.1): RMF product section at record offset 100: interval start SMF70DAT/SMF70IST "
              "(offsets 114/110) or length SMF70INT (offset 118) is not valid packed decimal"),
    ]
