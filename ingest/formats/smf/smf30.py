"""SMF type 30 subtypes 2, 3, 4, 5 (common address space work) -> ``raw.smf30_work``.

Input (type30.md): a 24-byte header whose bytes 18-21 are the work type (``SMF30WID``: JES2, STC,
TSO, OMVS ...), then triplets at fixed offsets (no triplet count: the triplet area ends where the
first section begins): 24 subsystem, 32 identification, 40 I/O activity, 48 completion,
56 processor accounting, 64 accounting, 72 storage, 80 performance, 88 operator, 96 EXCP.
Subtype 2 = activity since the previous SMF interval, 3 = last interval of a step, 4 = step total,
5 = job total. Fixture 5 of the spec's list (a step record: CPT 1.51 s, CPS 0.04 s, 1234 EXCPs; built
by ``tests/smf/test_smf30.py``) starts::

    0000  028E0000 DE1E0052 6B9C0126 005FE2E8   LL=654, FLG X'DE', type 30, 15:00:15.00, 2026 day 005
    0010  E2C1D1C5 E2F20004 00000068 00260001   SID 'SYSA', work type 'JES2', subtype 4, subsystem at 104
    0020  0000008E 00B80001 00000146 00480001   identification at 142 (184 bytes), I/O activity at 326 (72)
    0030  0000018E 00080001 00000196 00880001   completion at 398 (8), processor accounting at 406 (136)

Output: one row per record - identification (job, step, program, JES job id, step number, RACF
user, reader/step start), processor accounting (TCB, SRB, initiator, enclave, zIIP CPU time in µs;
interval start for subtypes 2/3), I/O (EXCP count 4- and 8-byte, DASD connect/disconnect µs),
performance (service units, WLM workload, service class, report class, transaction times),
completion (completion code, termination flags). A CPU time whose SMF30TFL "invalid" bit is set
is NULL, as is any field beyond its section's length (short, older sections).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ingest.formats.base import Column
from ingest.formats.smf.fields import columns, decode_fields, int_array
from ingest.formats.smf.headers import (
    Decoded,
    Header,
    common_columns,
    first_instance,
    require_section,
    split_rejects,
    triplet_area,
)
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.tables import I64, STR, TS, smf_table

RECORD_TYPE = 30
SUBTYPES = (2, 3, 4, 5)

TRIPLETS = [  # (offset field name, record offset)
    ("SMF30SOF", 24), ("SMF30IOF", 32), ("SMF30UOF", 40), ("SMF30TOF", 48), ("SMF30COF", 56),
    ("SMF30AOF", 64), ("SMF30ROF", 72), ("SMF30POF", 80), ("SMF30OOF", 88), ("SMF30EOF", 96),
]

SUBSYSTEM = [
    ("record_version", 4, 2, "text", "SMF30RVN: record version, e.g. `05`."),
    ("product_name", 6, 8, "text", "SMF30PNM: product name (`SMF`)."),
    ("os_level", 14, 8, "text", "SMF30OSL: MVS software level."),
    ("system_name", 22, 8, "text", "SMF30SYN: system name (SYSNAME)."),
    ("sysplex_name", 30, 8, "text", "SMF30SYP: sysplex name."),
]

IDENTIFICATION = [
    ("job_name", 0, 8, "text", "SMF30JBN: job or session name."),
    ("program_name", 8, 8, "text", "SMF30PGM: program name."),
    ("step_name", 16, 8, "text", "SMF30STM: step name."),
    ("user_identification", 24, 8, "text", "SMF30UIF: user identification from the exit parameter area (not USER=)."),
    ("job_id", 32, 8, "text", "SMF30JNM: JES job id, e.g. `JOB12345`."),
    ("step_number", 40, 2, "int", "SMF30STN: step number."),
    ("job_class", 42, 1, "text", "SMF30CLS: job class."),
    ("job_flags", 43, 1, "int", "SMF30JF1: job flags."),
    ("job_priority", 46, 2, "int", "SMF30JPT: job priority."),
    ("programmer_name", 80, 20, "text", "SMF30USR: programmer name."),
    ("racf_group", 100, 8, "text", "SMF30GRP: RACF group."),
    ("racf_user_id", 108, 8, "text", "SMF30RUD: RACF user id."),
    ("terminal_id", 116, 8, "text", "SMF30TID: terminal id."),
    ("proc_step_name", 132, 8, "text", "SMF30PSN: procedure step name."),
    ("job_class_long", 140, 8, "text", "SMF30CL8: job class, 8 characters."),
]

IO_ACTIVITY = [
    ("card_records", 0, 4, "int", "SMF30INP: card-image records read (DD DATA, DD *)."),
    ("excp_count", 4, 4, "int", "SMF30TEP: blocks transferred (EXCP count), 4 bytes; may wrap."),
    ("tput_count", 8, 4, "int", "SMF30TPT: TSO TPUTs."),
    ("tget_count", 12, 4, "int", "SMF30TGT: TSO TGETs."),
    ("device_connect_us", 18, 4, "u128_us", "SMF30TCN: device connect time (128 µs units), µs."),
    ("io_flags", 22, 1, "int", "SMF30DCF: I/O flags (connect time incomplete, SMF30TEP invalid)."),
    ("dasd_connect_us", 32, 4, "u128_us", "SMF30AIC: DASD I/O connect time, µs."),
    ("dasd_disconnect_us", 36, 4, "u128_us", "SMF30AID: DASD I/O disconnect time, µs."),
    ("dasd_pending_us", 40, 4, "u128_us", "SMF30AIW: DASD I/O pending and control-unit queue time, µs."),
    ("dasd_ssch_count", 44, 4, "int", "SMF30AIS: DASD start-subchannel count."),
    ("excp_count_64", 64, 8, "int", "SMF30TEX: blocks transferred, 8 bytes (offset unconfirmed, type30.md §4)."),
]

COMPLETION = [
    ("completion_code", 0, 2, "int",
     "SMF30SCC: completion code (system abend X'0sss', user abend with bit 0 set, else return code)."),
    ("termination_flags", 2, 2, "int", "SMF30STI: termination indicators; X'0200' (bit 6) the step abended."),
    ("abend_reason", 4, 4, "int", "SMF30ARC: abend reason code."),
]

# processor accounting: (column, offset, width, kind, description, SMF30TFL bit that marks it invalid or 0)
PROCESSOR = [
    ("cpu_tcb_us", 4, 4, "cs_us", "SMF30CPT: CPU time under TCBs on standard CPs, µs.", 0x4000),
    ("cpu_srb_us", 8, 4, "cs_us", "SMF30CPS: CPU time under SRBs on standard CPs, µs.", 0x2000),
    ("initiator_tcb_us", 12, 4, "cs_us", "SMF30ICU: initiator CPU time under TCB, µs.", 0x0200),
    ("initiator_srb_us", 16, 4, "cs_us", "SMF30ISB: initiator CPU time under SRB, µs.", 0x0400),
    ("io_interrupt_us", 44, 4, "cs_us", "SMF30IIP: I/O interrupt processing time, µs.", 0x0040),
    ("region_control_us", 48, 4, "cs_us", "SMF30RCT: region control task time, µs.", 0x0010),
    ("hiperspace_us", 52, 4, "cs_us", "SMF30HPT: hiperspace processing time, µs.", 0x0020),
    ("crypto_count", 56, 4, "int", "SMF30CSC: cryptographic service count.", 0),
    ("preemptable_srb_us", 68, 4, "cs_us", "SMF30ASR: preemptable and client SRB time (part of cpu_tcb_us), µs.", 0x0008),
    ("independent_enclave_us", 72, 4, "cs_us", "SMF30ENC: independent enclave CPU time (part of cpu_tcb_us), µs.", 0x0004),
    ("dependent_enclave_us", 76, 4, "cs_us", "SMF30DET: dependent enclave CPU time (part of cpu_tcb_us), µs.", 0x0002),
    ("enqueue_promotion_us", 80, 4, "cs_us", "SMF30CEP: enqueue-promotion CPU time, µs.", 0x0001),
    ("zaap_us", 88, 4, "cs_us",
     "SMF30_TIME_ON_IFA: CPU time on zAAPs, µs (offset unconfirmed: NULL when the section is too short).", 0),
    ("ziip_us", 116, 4, "cs_us", "SMF30_TIME_ON_ZIIP: CPU time on zIIPs, µs (offset unconfirmed).", 0),
    ("ziip_on_cp_us", 128, 4, "cs_us",
     "SMF30_TIME_ZIIP_ON_CP: zIIP-eligible time spent on standard CPs, µs (offset unconfirmed).", 0),
]

PERFORMANCE = [
    ("service_units", 0, 4, "int", "SMF30SRV: total service units."),
    ("cpu_service_units", 4, 4, "int", "SMF30CSU: CPU service units."),
    ("srb_service_units", 8, 4, "int", "SMF30SRB: SRB service units."),
    ("io_service_units", 12, 4, "int", "SMF30IO: I/O service units."),
    ("mso_service_units", 16, 4, "int", "SMF30MSO: main-storage service units."),
    ("transaction_active_us", 20, 4, "u1024_us", "SMF30TAT: transaction active time (1.024 ms units), µs."),
    ("transaction_residency_us", 28, 4, "u1024_us", "SMF30RES: transaction residency time (1.024 ms units), µs."),
    ("transaction_count", 32, 4, "int", "SMF30TRS: transactions."),
    ("workload_name", 36, 8, "text", "SMF30WLM: WLM workload name."),
    ("service_class", 44, 8, "text", "SMF30SCN: WLM service class."),
    ("resource_group", 52, 8, "text", "SMF30GRN: WLM resource group."),
    ("report_class", 60, 8, "text", "SMF30RCN: WLM report class."),
]

WORK_TABLE = smf_table(
    "smf30_work",
    "One row per SMF 30 subtype 2, 3, 4 or 5 record (2 = activity since the previous interval, 3 = the last "
    "interval of a step, 4 = step total, 5 = job total). Subtypes 2/3 and subtype 4 describe the same "
    "consumption: never add them for one step. A CPU time whose SMF30TFL invalid bit is set is NULL.",
    (
        Column("work_type", STR, "SMF30WID: work type, e.g. `JES2`, `STC`, `TSO`, `OMVS`."),
        Column("record_subtype", I64, "SMFxxSTY: 2, 3, 4 or 5."),
        *columns(SUBSYSTEM),
        *columns(IDENTIFICATION),
        Column("step_start", TS, "SMF30STD + SMF30SIT: step start, local time."),
        Column("reader_start", TS, "SMF30RSD + SMF30RST: when the reader saw the job, local time."),
        Column("reader_end", TS, "SMF30RED + SMF30RET: when the reader finished with the job, local time."),
        Column("interval_start", TS, "SMF30IDT + SMF30IST: start of the interval (subtypes 2 and 3), local time."),
        Column("timer_flags", I64, "SMF30TFL: which CPU times are invalid."),
        *columns(PROCESSOR),
        *columns(IO_ACTIVITY),
        *columns(COMPLETION),
        *columns(PERFORMANCE),
        Column("excp_section_count", I64, "SMF30EON: EXCP sections in the record (counted, not stored)."),
    ),
    ("system_id", "record_subtype", "job_id", "job_name", "step_number", "reader_start", "interval_start", "record_time"),
)
TABLES = (WORK_TABLE,)


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    layout, problems = triplet_area(batch, rows, TRIPLETS, 24)
    triplets = {t.name: t for t in layout}
    require_section(problems, triplets["SMF30IOF"], "identification section")
    keep, rejects = split_rejects(rows, problems)
    rows = rows[keep]
    triplets = {name: t.take(keep) for name, t in triplets.items()}

    def section(name: str):
        return first_instance(batch, rows, triplets[name])

    ident = section("SMF30IOF")
    processor = section("SMF30COF")
    timer_flags, has_flags = processor.uint(2, 2)
    timer_flags = np.where(has_flags, timer_flags, 0)
    cpu = {}
    for name, rel, width, kind, _doc, invalid_bit in PROCESSOR:
        values, present = processor.uint(rel, width)
        # SMF30TFL says the timer is not valid: NULL, never a wrong number
        valid = present & ((timer_flags & invalid_bit) == 0)
        cpu[name] = int_array(values * (10_000 if kind == "cs_us" else 1), valid)
    row_columns = {
        **common_columns(batch, header, rows),
        "work_type": header.ssi.take(pa.array(rows)),  # SMF30WID
        "record_subtype": pa.array(header.subtype[rows], pa.int64()),
        **decode_fields(section("SMF30SOF"), SUBSYSTEM),
        **decode_fields(ident, IDENTIFICATION),
        "step_start": ident.timestamp_col(60, 56),  # SMF30STD + SMF30SIT
        "reader_start": ident.timestamp_col(68, 64),  # SMF30RSD + SMF30RST
        "reader_end": ident.timestamp_col(76, 72),  # SMF30RED + SMF30RET
        "interval_start": processor.timestamp_col(40, 36),  # SMF30IDT + SMF30IST (subtypes 2 and 3)
        "timer_flags": pa.array(timer_flags, mask=~has_flags, type=pa.int64()),
        **cpu,
        **decode_fields(section("SMF30UOF"), IO_ACTIVITY),
        **decode_fields(section("SMF30TOF"), COMPLETION),
        **decode_fields(section("SMF30POF"), PERFORMANCE),
        "excp_section_count": pa.array(triplets["SMF30EOF"].number, pa.int64()),
    }
    return Decoded({WORK_TABLE.name: pa.table(row_columns)}, rejects, len(rows))
