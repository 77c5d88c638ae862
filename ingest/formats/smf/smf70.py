"""SMF type 70 subtype 1 (RMF CPU, PR/SM and ICF activity) -> four raw tables.

Input: one 70.1 record per RMF interval (type70_1.md). Header, then 9 triplets from offset 28
(product, CPU control, CPU data, ASID, partition, logical processor, CPU-identification, core,
tenant), bounded by SMF70TRN. The start of a record with two logical CPs (fixture 1 of
``formats/smf/README.md``)::

    0000  02A00000 DF460038 4E100124 075FE2E8   LL=672, FLG X'DF', type 70, 10:15:00.00, 2024 day 075
    0010  E2C1D9D4 C6400001 00090000 00000064   SID 'SYSA', 'RMF ', subtype 1, TRN 9, product at 100 ...
    0020  00680001 000000CC 00180001 000000E4   ... length 104 x1; control at 204, 24 x1; CPU data at 228 ...
    0060  00000000 025FD9D4 C6404040 40400100   product: RMF version 25, 'RMF', interval start 10:00:00
    0070  000F0124 075F1500 000F0000 00000384   ... 2024-03-15, interval 15:00.000, 900 samples
    00E0  40404040 00000202 FBF00000 00000900   CPU 0: wait 540 s (TOD units), CPU id 0, flags X'09'

Output (units and column meanings in docs/smf_raw_contract.md):

* ``smf70_cpu_control`` - one row per record: product section (interval start/length, RMF cycle,
  z/OS level, PR/SM partition number of this image, GMT offset, sysplex/system name) and CPU control
  section (machine type, physical CPUs, capacity, zIIPs/zAAPs online).
* ``smf70_cpu`` - one row per CPU data section: a logical CPU of this z/OS image (wait time, parked
  time, I/O interrupts, TCB/SRB dispatches).
* ``smf70_partition`` - one row per PR/SM partition section (all partitions of the CPC, plus
  ``PHYSICAL``).
* ``smf70_logical_processor`` - one row per PR/SM logical processor section (dispatch, effective
  dispatch and online time in µs), with its partition and CPU type resolved from the record:
  a partition owns sections SMF70BDS .. SMF70BDS + SMF70BDN - 1; SMF70CIX (1-based, 0 = unknown)
  names a CPU-identification section (``CP``, ``IIP`` ...).

Formulas (MVS busy, LPAR busy, physical share) are dbt's job, not the decoder's.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ingest.formats.base import Column
from ingest.formats.smf.fields import Sections, columns, decode_fields, int_array, packed_int, ts_array
from ingest.formats.smf.headers import Decoded, Header, common_columns, expand, first_instance
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.rmf import rmf_records
from ingest.formats.smf.tables import I64, SECTION_INDEX, STR, SUBSYSTEM_ID, TS, smf_table

RECORD_TYPE, SUBTYPES = 70, (1,)

# triplet order of subtype 1, from offset 28, 8 bytes each; only the first SMF70TRN exist
TRIPLETS = ["SMF70PRS", "SMF70CCS", "SMF70CPS", "SMF70ASS", "SMF70BCS", "SMF70BVS", "SMF70CNS", "SMF70COS", "SMF70TNS"]

PRODUCT = [  # RMF product section (SMF70PRS)
    ("rmf_version", 0, 2, "packed", "SMF70MFV: RMF version."),
    ("product_name", 2, 8, "text", "SMF70PRD: product name (`RMF`)."),
    ("sample_count", 24, 4, "int", "SMF70SAM: number of RMF samples."),
    ("rmf_flags", 30, 2, "int", "SMF70FLA: RMF flags (X'0010' interval synchronised with SMF; byte 1: boost)."),
    ("zos_level", 40, 8, "text", "SMF70MVS: z/OS level, e.g. `ZV020500`."),
    ("processor_complex_type", 48, 1, "int", "SMF70IML: type of processor complex."),
    ("processor_flags", 49, 1, "int", "SMF70PRF: processor flags (X'10' z/Architecture, X'04' zIIP installed)."),
    ("partition_number", 50, 1, "int", "SMF70PTN: PR/SM partition number of this image (SMF70LPN of its partition)."),
    ("smf_record_level", 51, 1, "int", "SMF70SRL: SMF record level."),
    ("reassembly_area_count", 74, 2, "int",
     "SMF70RAN: reassembly areas; > 0 for one of several \"broken\" RMF records of an interval."),
    ("sync_s", 78, 2, "int", "SMF70SYN: SYNC value, seconds."),
    ("sysplex_name", 88, 8, "text", "SMF70XNM: sysplex name."),
    ("system_name", 96, 8, "text", "SMF70SNM: system name (SYSNAME)."),
]

CONTROL = [  # CPU control section (SMF70CCS)
    ("machine_type", 0, 2, "hex", "SMF70MOD: machine type as hex digits, e.g. `8561`."),
    ("cpu_version", 2, 1, "int", "SMF70VER: CPU version."),
    ("physical_cpus", 3, 1, "int", "SMF70BNP: physical processors PR/SM may use."),
    ("prsm_flags", 4, 1, "int", "SMF70INB: PR/SM flags (X'10' partition `PHYSICAL` presented, X'08' extended data)."),
    ("cpu_flags", 5, 1, "int", "SMF70STF: flags (X'08' SMF70MDL is the model-capacity id)."),
    ("dispatch_interval_ms", 6, 2, "int", "SMF70GTS: PR/SM dispatch interval, ms; 0 = dynamic."),
    ("model_capacity_id", 8, 16, "text", "SMF70MDL: CPC model (capacity) identifier."),
    ("diagnose_samples", 24, 2, "int", "SMF70DSA: number of Diagnose samples."),
    ("zaaps_online", 26, 2, "int", "SMF70IFA: zAAPs online at the end of the interval."),
    ("cpu_adjustment_factor", 28, 4, "int", "SMF70CPA: physical CPU adjustment factor."),
    ("capacity_msu_per_h", 32, 4, "int", "SMF70WLA: capacity available to the image, MSU/h."),
    ("long_term_avg_msu_per_h", 36, 4, "int", "SMF70LAC: long-term average CPU service, MSU/h."),
    ("hardware_model", 48, 16, "text", "SMF70HWM: CPC physical model."),
    ("ziips_online", 64, 2, "int", "SMF70SUP: zIIPs online at the end of the interval."),
    ("cpc_serial", 78, 16, "text", "SMF70CSC: CPC sequence code (serial)."),
    ("hiperdispatch_flags", 94, 1, "int", "SMF70HHF: X'80' HiperDispatch supported, X'40' active, X'20' changed."),
]

CPU = [  # CPU data section (SMF70CPS), one per logical CPU of this image
    ("cpu_wait_us", 0, 8, "tod_us", "SMF70WAT: time the CPU was in wait state, µs."),
    ("cpu_id", 8, 2, "int", "SMF70CID: logical CPU address (SMF70VPA of this image's logical processors)."),
    ("config_flags", 10, 1, "int", "SMF70CNF: X'08' data for the complete interval, X'01' online at the end."),
    ("cpu_serial", 12, 3, "hex", "SMF70SER: CPU serial number, 6 hex digits."),
    ("cpu_type_code", 15, 1, "int", "SMF70TYP: 0 CP, 1 zAAP, 2 zIIP."),
    ("io_slih_count", 16, 4, "int", "SMF70SLH: I/O interruptions handled by the I/O SLIH."),
    ("io_tpi_count", 20, 4, "int", "SMF70TPI: I/O interruptions handled by TPI."),
    ("cpu_parked_us", 32, 8, "tod_us", "SMF70PAT: time the CPU was parked (HiperDispatch), µs."),
    ("tcb_dispatch_count", 40, 8, "int", "SMF70TCB: TCB dispatches."),
    ("srb_dispatch_count", 48, 8, "int", "SMF70SRB: SRB dispatches."),
    ("io_count", 56, 8, "int", "SMF70NIO: I/Os."),
    ("sigp_count", 64, 8, "int", "SMF70SIG: SIGPs."),
    ("wait_dispatch_count", 72, 8, "int", "SMF70WTD: wait dispatches."),
    ("warning_track_issued_count", 80, 4, "int", "SMF70WTS: warning-track signals PR/SM issued."),
    ("warning_track_used_count", 84, 4, "int", "SMF70WTU: warning-track signals honoured."),
    ("warning_track_yield_ms", 88, 4, "int", "SMF70WTI: time the processor yielded to PR/SM on warning track, ms."),
]

PARTITION = [  # PR/SM partition data section (SMF70BCS)
    ("partition_name", 0, 8, "text", "SMF70LPM: partition name; `PHYSICAL` = time PR/SM did not attribute."),
    ("partition_number", 8, 1, "int", "SMF70LPN: partition number."),
    ("partition_flags", 9, 1, "int", "SMF70PFG: partition flags (X'04' SMF70WST defined)."),
    ("logical_cpu_count", 10, 2, "int", "SMF70BDN: logical CPUs of the partition = its logical processor sections."),
    ("first_lp_index", 12, 4, "int", "SMF70BDS: index of its first logical processor section."),
    ("active_lp_accum", 16, 4, "int", "SMF70BDA: accumulated number of active logical CPUs."),
    ("cluster_name", 20, 8, "text", "SMF70SPN: LPAR cluster name."),
    ("system_name", 28, 8, "text", "SMF70STN: system name of the image in the partition."),
    ("central_storage_mb", 40, 4, "int", "SMF70CSF: central storage, MB."),
    ("expanded_storage_mb", 48, 4, "int", "SMF70ESF: expanded storage, MB."),
    ("defined_capacity_msu_per_h", 52, 4, "int", "SMF70MSU: defined capacity limit, MSU/h."),
    ("partition_flags2", 56, 2, "int", "SMF70PFL: X'8000' user partition id valid, X'4000' capacity-group member."),
    ("user_partition_id", 58, 1, "int", "SMF70UPI: user partition id."),
    ("max_thread_id", 59, 1, "int", "SMF70MTID: maximum thread id (multithreading)."),
    ("capacity_group_name", 60, 8, "text", "SMF70GNM: capacity group name."),
    ("group_max_msu_per_h", 68, 4, "int", "SMF70GMU: capacity group limit, MSU/h."),
    ("hardware_group_name", 72, 8, "text", "SMF70HWGR_NAME: hardware group name."),
    ("boost_flags", 80, 1, "int", "SMF70_BOOSTINFO: X'80' zIIP boost, X'40' speed boost."),
]

LOGICAL_PROCESSOR = [  # PR/SM logical processor data section (SMF70BVS)
    ("dispatch_us", 0, 8, "int", "SMF70PDT: time a physical CPU was assigned to the logical processor, µs."),
    ("lp_address", 8, 2, "int", "SMF70VPA: logical processor address (SMF70CID of this image's CPUs)."),
    ("weight", 10, 2, "int", "SMF70BPS: processor weight; 65535 = dedicated."),
    ("lp_flags", 12, 1, "int", "SMF70VPF: X'80' wait completion enabled, X'04' varied online in the interval."),
    ("polarization_flags", 13, 1, "int", "SMF70POF: polarization, mask X'C0': 00 horizontal, 01 low, 10 medium, 11 high."),
    ("cpu_type_index", 14, 2, "int", "SMF70CIX: CPU-identification section of its CPU type (1-based); 0 = unknown."),
    ("effective_dispatch_us", 16, 8, "int", "SMF70EDT: effective dispatch time (LPAR management excluded), µs."),
    ("actual_share_accum", 24, 4, "int", "SMF70ACS: accumulated actual share."),
    ("min_share", 28, 2, "int", "SMF70MIS: minimum share."),
    ("max_share", 30, 2, "int", "SMF70MAS: maximum share."),
    ("samples_near_min", 32, 4, "int", "SMF70NSI: samples within 10 % of the minimum share."),
    ("samples_near_max", 36, 4, "int", "SMF70NSA: samples within 10 % of the maximum share."),
    ("online_us", 40, 8, "int", "SMF70ONT: time the logical processor was online, µs."),
    ("wait_state_us", 48, 8, "int", "SMF70WST: wait-state time, µs; valid only with SMF70PFG X'04'."),
    ("pricing_weight_adjustment", 56, 4, "signed", "SMF70PMA: average pricing-management weight adjustment (signed)."),
    ("capping_considered_samples", 60, 4, "int", "SMF70NSW: samples in which WLM considered capping."),
    ("polarization_weight", 64, 4, "int", "SMF70POW: polarization weight (HiperDispatch)."),
    ("capped_samples", 68, 4, "int", "SMF70NCA: samples in which capping limited the partition."),
    ("hw_cap_limit", 72, 4, "int", "SMF70HW_CAP_LIMIT: absolute hardware capping limit."),
    ("hw_group_cap_limit", 76, 4, "int", "SMF70HWGR_CAP_LIMIT: hardware-group capping limit."),
    ("mt_idle_us", 80, 8, "int", "SMF70MTIT: multithreading idle time, µs."),
]

# columns the decoder computes rather than reads from one field
INTERVAL_START = Column("interval_start", TS, "SMF70DAT + SMF70IST: start of the RMF interval, local time.")
_SECTION = (INTERVAL_START, SECTION_INDEX)
_INTERVAL_KEY = ("system_id", "interval_start")

CONTROL_TABLE = smf_table(
    "smf70_cpu_control",
    "One row per SMF 70.1 record: the RMF product section and the CPU control section.",
    (
        SUBSYSTEM_ID,
        INTERVAL_START,
        Column("interval_us", I64, "SMF70INT (`mmsstttF`): length of the RMF interval, µs."),
        Column("cycle_us", I64, "SMF70CYC: RMF sampling cycle, µs."),
        Column("utc_offset_us", I64, "SMF70LGO: local time minus UTC, µs (signed)."),
        *columns(PRODUCT),
        *columns(CONTROL),
        Column("cpu_section_count", I64, "SMF70CPN: CPU data sections in the record."),
        Column("partition_section_count", I64, "SMF70BCN: PR/SM partition sections in the record."),
        Column("lp_section_count", I64, "SMF70BVN: PR/SM logical processor sections in the record."),
    ),
    _INTERVAL_KEY, "interval_start",
)
CPU_TABLE = smf_table(
    "smf70_cpu", "One row per CPU data section of a 70.1 record: a logical CPU of the reporting image.",
    (*_SECTION, *columns(CPU)), (*_INTERVAL_KEY, "cpu_id"), "interval_start",
)
PARTITION_TABLE = smf_table(
    "smf70_partition", "One row per PR/SM partition section of a 70.1 record (every partition of the CPC, and `PHYSICAL`).",
    (*_SECTION, *columns(PARTITION)), (*_INTERVAL_KEY, "partition_name"), "interval_start",
)
LOGICAL_PROCESSOR_TABLE = smf_table(
    "smf70_logical_processor",
    "One row per PR/SM logical processor section of a 70.1 record, with its partition and CPU type resolved "
    "from the record: a partition owns sections SMF70BDS .. SMF70BDS + SMF70BDN - 1.",
    (
        *_SECTION,
        *columns(LOGICAL_PROCESSOR),
        Column("partition_name", STR, "SMF70LPM of the partition that owns the section."),
        Column("partition_number", I64, "SMF70LPN of the partition that owns the section."),
        Column("cpu_type_name", STR, "SMF70CIN of the CPU-identification section SMF70CIX names (`CP`, `IIP` ...); "
                                     "NULL when SMF70CIX is 0."),
        Column("cpu_type_physical_count", I64, "SMF70CTN of that section: physical CPUs of the type."),
    ),
    (*_INTERVAL_KEY, "partition_name", "lp_address"), "interval_start",
)
TABLES = (CONTROL_TABLE, CPU_TABLE, PARTITION_TABLE, LOGICAL_PROCESSOR_TABLE)


def _lookup(rec: np.ndarray, inst: np.ndarray, want_rec: np.ndarray, want_inst: np.ndarray) -> np.ndarray:
    """Index of the row with (rec, inst) == (want_rec, want_inst), or -1: joins sections of the same record."""
    if len(rec) == 0:
        return np.full(len(want_rec), -1, dtype=np.int64)
    keys = rec * (1 << 32) + inst
    order = np.argsort(keys, kind="stable")
    wanted = want_rec * (1 << 32) + want_inst
    pos = np.clip(np.searchsorted(keys[order], wanted), 0, len(keys) - 1)
    return np.where(keys[order][pos] == wanted, order[pos], -1)


def _owner(part: Sections, first: np.ndarray, count: np.ndarray, lps: Sections) -> np.ndarray:
    """For each logical processor section, the partition row whose SMF70BDS/SMF70BDN range covers it, or -1."""
    covered_rec = np.repeat(part.rec, count)
    group_start = np.repeat(np.cumsum(count) - count, count)
    covered_inst = np.repeat(first, count) + np.arange(len(covered_rec)) - group_start
    owner = np.repeat(np.arange(len(part)), count)
    hit = _lookup(covered_rec, covered_inst, lps.rec, lps.inst)
    return np.where(hit >= 0, owner[np.maximum(hit, 0)] if len(owner) else -1, -1)


def _take(values: pa.Array, index: np.ndarray) -> pa.Array:
    """values[index] with NULL where index is -1."""
    missing = index < 0
    return values.take(pa.array(np.where(missing, 0, index), mask=missing, type=pa.int64()))


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    kept = rmf_records(batch, rows, RECORD_TYPE, TRIPLETS)
    rows, start, interval_us, rejects = kept.rows, kept.start, kept.interval_us, kept.rejects
    prs, ccs, cps, _ass, bcs, bvs, cns = kept.triplets[:7]
    n = len(rows)
    # per-record values the section tables repeat so each row carries its own natural key
    by_record = np.full(len(batch), -1, dtype=np.int64)
    by_record[rows] = np.arange(n)
    ones = np.ones(n, dtype=bool)

    product = first_instance(batch, rows, prs)
    cycle_m, cycle_present = product.matrix(36, 4)  # SMF70CYC 000ttttF, milliseconds
    cycle_ms, cycle_ok = packed_int(cycle_m)
    control = {
        **common_columns(batch, header, rows),
        "subsystem_id": header.ssi.take(pa.array(rows)),
        "interval_start": ts_array(start, ones),
        "interval_us": pa.array(interval_us, pa.int64()),
        "cycle_us": int_array(cycle_ms * 1000, cycle_present & cycle_ok),
        "utc_offset_us": kept.utc_offset_us,
        **decode_fields(product, PRODUCT),
        **decode_fields(first_instance(batch, rows, ccs), CONTROL),
        "cpu_section_count": pa.array(cps.number, pa.int64()),
        "partition_section_count": pa.array(bcs.number, pa.int64()),
        "lp_section_count": pa.array(bvs.number, pa.int64()),
    }

    def section_table(sections: Sections, spec) -> dict[str, pa.Array]:
        owner = by_record[sections.rec]
        return {
            **common_columns(batch, header, sections.rec),
            "interval_start": ts_array(start[owner], np.ones(len(owner), dtype=bool)),
            "section_index": pa.array(sections.inst, pa.int64()),
            **decode_fields(sections, spec),
        }

    cpus = expand(batch, rows, cps)
    partitions = expand(batch, rows, bcs)
    lps = expand(batch, rows, bvs)
    cpu_ids = expand(batch, rows, cns)
    lp_columns = section_table(lps, LOGICAL_PROCESSOR)
    # a damaged SMF70BDN must not unfold into more sections than the record has
    first_lp, _ = partitions.uint(12, 4)
    lp_count = np.minimum(partitions.uint(10, 2)[0], bvs.number[by_record[partitions.rec]])
    part_of_lp = _owner(partitions, first_lp, lp_count, lps)
    lp_columns["partition_name"] = _take(partitions.text_col(0, 8), part_of_lp)
    lp_columns["partition_number"] = _take(partitions.int_col(8, 1), part_of_lp)
    cix, _ = lps.uint(14, 2)  # 1-based; 0 = no CPU-identification information
    type_of_lp = np.where(cix > 0, _lookup(cpu_ids.rec, cpu_ids.inst, lps.rec, cix - 1), -1)
    lp_columns["cpu_type_name"] = _take(cpu_ids.text_col(0, 16), type_of_lp)  # SMF70CIN: CP, IIP, ICF, IFL, AAP
    lp_columns["cpu_type_physical_count"] = _take(cpu_ids.int_col(16, 2), type_of_lp)  # SMF70CTN

    tables = {
        CONTROL_TABLE.name: pa.table(control),
        CPU_TABLE.name: pa.table(section_table(cpus, CPU)),
        PARTITION_TABLE.name: pa.table(section_table(partitions, PARTITION)),
        LOGICAL_PROCESSOR_TABLE.name: pa.table(lp_columns),
    }
    return Decoded(tables, rejects, n)
