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

from ingest.formats.smf.fields import decode_fields, int_array
from ingest.formats.smf.headers import Decoded, Header, common_columns, first_instance, read_triplets, triplet_problems, whole_records
from ingest.formats.smf.records import RecordBatch

RECORD_TYPE = 30
SUBTYPES = (2, 3, 4, 5)
TABLE = "smf30_work"

TRIPLETS = [  # (offset field name, record offset)
    ("SMF30SOF", 24), ("SMF30IOF", 32), ("SMF30UOF", 40), ("SMF30TOF", 48), ("SMF30COF", 56),
    ("SMF30AOF", 64), ("SMF30ROF", 72), ("SMF30POF", 80), ("SMF30OOF", 88), ("SMF30EOF", 96),
]

SUBSYSTEM = [
    ("record_version", 4, 2, "text"),  # SMF30RVN
    ("product_name", 6, 8, "text"),  # SMF30PNM
    ("os_level", 14, 8, "text"),  # SMF30OSL
    ("system_name", 22, 8, "text"),  # SMF30SYN
    ("sysplex_name", 30, 8, "text"),  # SMF30SYP
]

IDENTIFICATION = [
    ("job_name", 0, 8, "text"),  # SMF30JBN
    ("program_name", 8, 8, "text"),  # SMF30PGM
    ("step_name", 16, 8, "text"),  # SMF30STM
    ("user_identification", 24, 8, "text"),  # SMF30UIF (exit area, not USER=)
    ("job_id", 32, 8, "text"),  # SMF30JNM, e.g. JOB12345
    ("step_number", 40, 2, "int"),  # SMF30STN
    ("job_class", 42, 1, "text"),  # SMF30CLS
    ("job_flags", 43, 1, "int"),  # SMF30JF1
    ("job_priority", 46, 2, "int"),  # SMF30JPT
    ("programmer_name", 80, 20, "text"),  # SMF30USR
    ("racf_group", 100, 8, "text"),  # SMF30GRP
    ("racf_user_id", 108, 8, "text"),  # SMF30RUD
    ("terminal_id", 116, 8, "text"),  # SMF30TID
    ("proc_step_name", 132, 8, "text"),  # SMF30PSN
    ("job_class_long", 140, 8, "text"),  # SMF30CL8
]

IO_ACTIVITY = [
    ("card_records", 0, 4, "int"),  # SMF30INP
    ("excp_count", 4, 4, "int"),  # SMF30TEP: blocks transferred, 4 bytes, may wrap
    ("tput_count", 8, 4, "int"),  # SMF30TPT
    ("tget_count", 12, 4, "int"),  # SMF30TGT
    ("device_connect_us", 18, 4, "u128_us"),  # SMF30TCN, 128 µs units
    ("io_flags", 22, 1, "int"),  # SMF30DCF
    ("dasd_connect_us", 32, 4, "u128_us"),  # SMF30AIC
    ("dasd_disconnect_us", 36, 4, "u128_us"),  # SMF30AID
    ("dasd_pending_us", 40, 4, "u128_us"),  # SMF30AIW
    ("dasd_ssch_count", 44, 4, "int"),  # SMF30AIS
    ("excp_count_64", 64, 8, "int"),  # SMF30TEX: 8-byte twin of TEP (offset unconfirmed, type30.md §4)
]

COMPLETION = [
    ("completion_code", 0, 2, "int"),  # SMF30SCC
    ("termination_flags", 2, 2, "int"),  # SMF30STI: X'0200' (bit 6) step abended
    ("abend_reason", 4, 4, "int"),  # SMF30ARC
]

# processor accounting: (column, offset, width, kind, SMF30TFL bit that marks it invalid or 0)
PROCESSOR = [
    ("cpu_tcb_us", 4, 4, "cs_us", 0x4000),  # SMF30CPT, 1/100 s, standard CPs only
    ("cpu_srb_us", 8, 4, "cs_us", 0x2000),  # SMF30CPS
    ("initiator_tcb_us", 12, 4, "cs_us", 0x0200),  # SMF30ICU
    ("initiator_srb_us", 16, 4, "cs_us", 0x0400),  # SMF30ISB
    ("io_interrupt_us", 44, 4, "cs_us", 0x0040),  # SMF30IIP
    ("region_control_us", 48, 4, "cs_us", 0x0010),  # SMF30RCT
    ("hiperspace_us", 52, 4, "cs_us", 0x0020),  # SMF30HPT
    ("crypto_count", 56, 4, "int", 0),  # SMF30CSC
    ("preemptable_srb_us", 68, 4, "cs_us", 0x0008),  # SMF30ASR
    ("independent_enclave_us", 72, 4, "cs_us", 0x0004),  # SMF30ENC
    ("dependent_enclave_us", 76, 4, "cs_us", 0x0002),  # SMF30DET
    ("enqueue_promotion_us", 80, 4, "cs_us", 0x0001),  # SMF30CEP
    ("zaap_us", 88, 4, "cs_us", 0),  # SMF30_TIME_ON_IFA (offset unconfirmed)
    ("ziip_us", 116, 4, "cs_us", 0),  # SMF30_TIME_ON_ZIIP (offset unconfirmed)
    ("ziip_on_cp_us", 128, 4, "cs_us", 0),  # SMF30_TIME_ZIIP_ON_CP (offset unconfirmed)
]

PERFORMANCE = [
    ("service_units", 0, 4, "int"),  # SMF30SRV
    ("cpu_service_units", 4, 4, "int"),  # SMF30CSU
    ("srb_service_units", 8, 4, "int"),  # SMF30SRB
    ("io_service_units", 12, 4, "int"),  # SMF30IO
    ("mso_service_units", 16, 4, "int"),  # SMF30MSO
    ("transaction_active_us", 20, 4, "u1024_us"),  # SMF30TAT
    ("transaction_residency_us", 28, 4, "u1024_us"),  # SMF30RES
    ("transaction_count", 32, 4, "int"),  # SMF30TRS
    ("workload_name", 36, 8, "text"),  # SMF30WLM
    ("service_class", 44, 8, "text"),  # SMF30SCN
    ("resource_group", 52, 8, "text"),  # SMF30GRN
    ("report_class", 60, 8, "text"),  # SMF30RCN
]


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    whole = whole_records(batch).take(rows)
    triplets = dict(zip((name for name, _ in TRIPLETS), read_triplets(whole, TRIPLETS)))
    problems = triplet_problems(batch, rows, list(triplets.values()), 24)
    ident = triplets["SMF30IOF"]
    for i in np.flatnonzero(~ident.exists).tolist():
        problems[i] = problems[i] or "record has no identification section (triplet SMF30IOF at record offset 32 is zero)"
    keep = np.array([p is None for p in problems], dtype=bool)
    rejects = [(int(rows[i]), problems[i]) for i in np.flatnonzero(~keep)]
    keep = np.flatnonzero(keep)
    rows = rows[keep]
    triplets = {name: t.take(keep) for name, t in triplets.items()}

    def section(name: str):
        return first_instance(batch, rows, triplets[name])

    ident = section("SMF30IOF")
    processor = section("SMF30COF")
    timer_flags, has_flags = processor.uint(2, 2)
    timer_flags = np.where(has_flags, timer_flags, 0)
    cpu = {}
    for name, rel, width, kind, invalid_bit in PROCESSOR:
        values, present = processor.uint(rel, width)
        # SMF30TFL says the timer is not valid: NULL, never a wrong number
        valid = present & ((timer_flags & invalid_bit) == 0)
        cpu[name] = int_array(values * (10_000 if kind == "cs_us" else 1), valid)
    columns = {
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
    return Decoded({TABLE: pa.table(columns)}, rejects, len(rows))
