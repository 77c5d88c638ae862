"""SMF type 72 subtype 3 (RMF workload activity) -> ``raw.smf72_workload_period``.

Input (docs/smf72_format.md): RMF writes one 72.3 record per service class and per report class of
the active WLM policy each interval. Header, then 8 triplets from offset 28 (RMF product, workload
manager control, service class served, resource group, service/report class period data, response
time distribution, work/resource manager state, resource delay names), bounded by SMF72TRN. The
start of the first record of fixture 3 (``tests/fixtures/smf/README.md``: service class ``TSOHI``,
two periods)::

    0000  065C0000 DE480038 4E740126 005FE2E8   LL=1628, FLG X'DE', type 72, 10:15:01.00, 2026 day 005
    0010  E2C1D9D4 C6400003 00080000 0000005C   SID 'SYSA', 'RMF ', subtype 3, TRN 8, product at 92 ...
    0020  00680001 000000C4 01180001 00000000   ... 104 x1; WLM control at 196, 280 x1; no served classes
    0030  00000000 00000000 00000000 000001DC   no resource group; period data at 476 ...
    0040  02400002 00000000 00000000 00000000   ... 576 bytes x2; no response time distribution

Output: one row per service/report class period data section, with its record's interval (product
section) and class (workload manager control section: policy, workload, class name, report class
flag, service definition coefficients) repeated on it, so a row carries its own natural key. Service
units, CPU component times and transaction times are HFP long floating point in the record and stay
floats here; converting service units to CPU seconds (R723MADJ, R723MCPU, R723NFFS) is the staging
model's job, as the formulas of SMF 70 are dbt's.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ingest.formats.smf.fields import Sections, columns, decode_fields
from ingest.formats.smf.headers import Decoded, Header, Triplet, expand
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.rmf import interval_columns, leading_columns, record_fields, rmf_records
from ingest.formats.smf.tables import smf_table

RECORD_TYPE, SUBTYPES = 72, (3,)

# triplet order of subtype 3, from offset 28, 8 bytes each; only the first SMF72TRN exist
TRIPLETS = ["SMF72PRS", "SMF72WMS", "SMF72SSS", "SMF72RGS", "SMF72SCS", "SMF72RTS", "SMF72WRS", "SMF72DNS"]

PRODUCT = [  # RMF product section (SMF72PRS), the same layout as SMF70PRS
    ("system_name", 96, 8, "text", "SMF72SNM: system name (SYSNAME)."),
    ("sysplex_name", 88, 8, "text", "SMF72XNM: sysplex name."),
]

CONTROL = [  # workload manager control section (SMF72WMS), one per record
    ("class_flags", 0, 1, "int", "R723MSCF: X'80' this is a report class, X'40' RCAA data not available, "
                                 "X'20' service policy data not available."),
    ("policy_name", 4, 8, "text", "R723MNSP: active service policy."),
    ("cpu_coefficient_e4", 52, 4, "int", "R723MCPU: CPU service definition coefficient x 10,000."),
    ("io_coefficient_e4", 56, 4, "int", "R723MIOC: I/O service definition coefficient x 10,000."),
    ("storage_coefficient_e4", 60, 4, "int", "R723MMSO: storage service definition coefficient x 10,000."),
    ("srb_coefficient_e4", 64, 4, "int", "R723MSRB: SRB service definition coefficient x 10,000."),
    ("workload_name", 80, 8, "text", "R723MWNM: WLM workload the class belongs to."),
    ("class_name", 120, 8, "text", "R723MCNM: service or report class name."),
    ("class_description", 128, 32, "text", "R723MCDE: service or report class description."),
    ("class_period_count", 160, 2, "int", "R723MCPG: periods of the class."),
    ("cpu_adjustment", 172, 4, "int", "R723MADJ: RMCTADJC, sixteenths of a microsecond of CPU time per CPU service unit."),
    ("ziip_normalization", 244, 4, "int", "R723NFFS: zIIP normalization factor; zIIP time x R723NFFS / 256 is CP-equivalent time."),
]

PERIOD = [  # service/report class period data section (SMF72SCS), one per period
    ("period_flags", 6, 1, "int", "R723CRS1: X'80' this report class period is heterogeneous."),
    ("period_number", 8, 1, "int", "R723CPER: period number (1-based)."),
    ("goal_time_unit_flags", 9, 1, "int", "R723CRTF: unit of R723CVAL for a response time goal: X'80' ms, X'40' s, "
                                          "X'20' min, X'10' h."),
    ("goal_flags", 10, 1, "int", "R723CRGF: goal type: X'80' percentile response time, X'40' average response time, "
                                 "X'20' execution velocity, X'10' discretionary, X'08' system; 0 for a report class."),
    ("goal_value", 12, 4, "int", "R723CVAL: response time goal (in R723CRTF units) or execution velocity; 0 otherwise."),
    ("goal_percentile", 16, 2, "int", "R723CPCT: percentile of a percentile response time goal."),
    ("importance", 18, 2, "int", "R723CIMP: importance of the goal (1 highest .. 5)."),
    ("duration_service_units", 20, 4, "int", "R723CDUR: period duration in service units; 0 for the last period."),
    ("service_units", 24, 8, "hfp", "R723CSRV: total service units."),
    ("cpu_service_units", 32, 8, "hfp", "R723CCPU: TCB service units (CPs, and normalized zIIP/zAAP service)."),
    ("io_service_units", 40, 8, "hfp", "R723CIOC: I/O service units."),
    ("storage_service_units", 48, 8, "hfp", "R723CMSO: storage service units."),
    ("srb_service_units", 56, 8, "hfp", "R723CSRB: SRB service units (CPs, and normalized zIIP/zAAP service)."),
    ("rct_us", 152, 8, "hfp", "R723CRCT: region control task time, µs."),
    ("io_interrupt_us", 160, 8, "hfp", "R723CIIT: I/O interrupt processing time, µs."),
    ("hiperspace_us", 168, 8, "hfp", "R723CHST: hiperspace service time, µs."),
    ("transactions_ended", 184, 4, "int", "R723CRCP: transactions that completed in the period."),
    ("transactions_abended", 188, 4, "int", "R723CARC: transactions that completed abnormally (not in R723CRCP)."),
    ("elapsed_1024us", 200, 8, "hfp", "R723CTET: total elapsed time of the ended transactions, 1.024 ms units."),
    ("execution_1024us", 208, 8, "hfp", "R723CXET: total execution time of the ended transactions, 1.024 ms units."),
    ("cpu_using_samples", 224, 4, "int", "R723CCUS: CPU using samples (included in R723CTOU)."),
    ("delay_samples", 228, 4, "int", "R723CTOT: general execution delay samples of the velocity formula."),
    ("dasd_io_count", 340, 4, "int", "R723CIRC: non-paging DASD I/O start subchannels."),
    ("using_samples", 344, 4, "int", "R723CTOU: total using samples (CPU, I/O); execution velocity is "
                                    "R723CTOU / (R723CTOU + R723CTOT) x 100."),
    ("ziip_service_units", 544, 8, "hfp", "R723CSUP: service units on zIIPs."),
    ("ziip_on_cp_service_units", 552, 8, "hfp", "R723CSUC: service units of zIIP-eligible work that ran on CPs."),
]

# response time distribution (SMF72RTS, docs/smf72_format.md): arrays of R723TENT = 14 four-byte entries; array 0
# is the map (the bucket bounds, % of the midpoint R723RTDM: 50, 60, ... 150, 200, 400, then the rest), array
# R723CRTX of a period is its counts. For a response time goal the midpoint is the goal.
RT_BUCKET_BOUNDS = ("50 %", "60 %", "70 %", "80 %", "90 %", "100 %", "110 %", "120 %", "130 %", "140 %", "150 %",
                    "200 %", "400 %")


def _bucket_doc(k: int) -> str:
    above = f"above {RT_BUCKET_BOUNDS[k - 1]} " if k > 0 else ""
    within = f"within {RT_BUCKET_BOUNDS[k]} " if k < len(RT_BUCKET_BOUNDS) else ""
    return (f"R723TRDB entry {k + 1} of the period's response time distribution (array R723CRTX of SMF72RTS): "
            f"transactions that ended {above}{'and ' if above and within else ''}{within}of the midpoint; "
            "NULL without a distribution.")


RT_BUCKETS = [(f"rt_bucket_{k + 1:02d}", 4 * k, 4, "int", _bucket_doc(k)) for k in range(len(RT_BUCKET_BOUNDS) + 1)]
RT_ARRAY = 4 * len(RT_BUCKETS)


PERIOD_TABLE = smf_table(
    "smf72_workload_period",
    "One row per service/report class period data section of a 72.3 record, with the interval of its record's "
    "RMF product section and the class of its workload manager control section.",
    (*leading_columns(RECORD_TYPE), *columns(PRODUCT), *columns(CONTROL), *columns(PERIOD),
     *columns(RT_BUCKETS)),
    ("system_id", "interval_start", "class_name", "class_flags", "period_number"), "interval_start",
)
TABLES = (PERIOD_TABLE,)


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    kept = rmf_records(batch, rows, RECORD_TYPE, TRIPLETS,
                       {1: ("workload manager control section", "no class")})
    scs, rts = kept.triplets[4], kept.triplets[5]
    periods = expand(batch, kept.rows, scs)
    owner, leading = interval_columns(batch, header, kept, periods)
    table = {
        **leading,
        **record_fields(batch, kept, 0, PRODUCT, owner),
        **record_fields(batch, kept, 1, CONTROL, owner),
        **decode_fields(periods, PERIOD),
        **decode_fields(response_time_counts(batch, periods, rts.take(owner.to_numpy())), RT_BUCKETS),
    }
    return Decoded({PERIOD_TABLE.name: pa.table(table)}, kept.rejects, len(kept.rows))


def response_time_counts(batch: RecordBatch, periods: Sections, rts: Triplet) -> Sections:
    """Each period's count array of its record's response time distribution (``rts``, one row per period): the
    array R723CRTX (period offset 0) of SMF72RTS; absent (length 0, all NULL) where the record has no
    distribution or the index is 0 (the map) or past the section's arrays. triplet_problems has checked that
    the section lies inside the record."""
    index, present = periods.uint(0, 2)
    ok = present & rts.exists & (index > 0) & (index < rts.number) & (rts.length >= RT_ARRAY)
    start = batch.start[periods.rec] + np.where(ok, rts.offset + index * rts.length, 0)
    return Sections(batch.buf, periods.rec, start, np.where(ok, RT_ARRAY, 0))
