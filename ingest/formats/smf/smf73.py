"""SMF type 73 subtype 1 (RMF channel path activity) -> ``raw.smf73_channel_path``.

Input (z/OS MVS System Management Facilities (SMF), record type 73: header/self-defining section, channel path
control section, channel path data section): RMF writes, each interval, one 73.1 record per channel subsystem.
Header, then 3 triplets from offset 28 (RMF product section SMF73PRS, channel path control section SMF73HIS,
channel path data section SMF73HPS), bounded by SMF73TRN. The start of fixture 5
(``tests/fixtures/smf/README.md``: three channel paths)::

    0000  01880000 DE490038 4E740126 005FE2E8   LL=392, FLG X'DE', type 73, 10:15:01.00, 2026 day 005
    0010  E2C1D9D4 C6400001 00030000 00000034   SID 'SYSA', 'RMF ', subtype 1, TRN 3, product at 52 ...
    0020  00680001 0000009C 005C0001 000000F8   ... 104 x1; control at 156, 92 x1; channel path data at 248 ...
    0030  00180003 ...                          ... 24 bytes x3

Channel path data section (one per channel path; RMF writes one for every CHPID X'00'-X'FF', those not
defined carry only SMF73PID): 0 SMF73PID CHPID, 1 SMF73FG2 channel flags (X'01' online, X'02' data incorrect:
reconfigured, X'04' partial statistics), 2 SMF73FG3 (X'02' valid path, X'01' shared), 3 SMF73FG4, 4 SMF73BSY
busy samples (STCPS), 8 SMF73PBY partition busy time, 12 SMF73PTI partition measurement interval (both in
1,024-µs units), 16 SMF73CPD channel path description (type code), 17 SMF73ACR 5-byte EBCDIC acronym (`CTC`,
`CNC_S`, `FC_S`, `OSD`).

Output: one row per channel path data section, with its record's interval, RMF sample count (product section)
and the control section's SMF73SMP and CPMF mode repeated on it. Times stay as RMF accumulated them, in µs; the
partition utilisation (SMF73PBY / SMF73PTI) and, without the measurement facility, the sampled busy
(SMF73BSY / SMF73SMP) are the staging model's formulas, as they are the channel path activity report's.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ingest.formats.smf.fields import columns, decode_fields
from ingest.formats.smf.headers import Decoded, Header, expand
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.rmf import interval_columns, leading_columns, record_fields, rmf_records, sampled_product
from ingest.formats.smf.tables import smf_table

RECORD_TYPE, SUBTYPES = 73, (1,)

# triplet order of subtype 1, from offset 28, 8 bytes each; only the first SMF73TRN exist
TRIPLETS = ["SMF73PRS", "SMF73HIS", "SMF73HPS"]

PRODUCT = sampled_product(RECORD_TYPE)  # RMF product section (SMF73PRS)

CONTROL = [  # channel path control section (SMF73HIS), one per record
    ("busy_sample_count", 0, 4, "int", "SMF73SMP: samples taken while the busy counts SMF73BSY were stored (the "
                                       "divisor of SMF73BSY; valid when the hardware has one channel subsystem)."),
    ("config_flags", 4, 1, "int", "SMF73CFL: X'80' configuration changed, X'08' record may hold sections that are "
                                  "not valid, X'04' CPMF (channel path measurement facility) available."),
    ("cpmf_mode", 90, 1, "int", "SMF73CMI: CPMF mode, 0 not active, 1 compatibility, 2 extended."),
]

CHANNEL = [  # channel path data section (SMF73HPS), one per channel path
    ("chpid", 0, 1, "hex", "SMF73PID: channel path identifier as 2 hex digits, e.g. `2C`."),
    ("channel_flags", 1, 1, "int", "SMF73FG2: X'20' block multiplexor, X'10' byte multiplexor, X'04' only partial "
                                   "statistics, X'02' data incorrect (reconfigured in the interval), X'01' online."),
    ("channel_flags_ext", 2, 1, "int", "SMF73FG3: X'80' ES connection channel, X'08' deleted, X'04' added, "
                                       "X'02' valid path, X'01' shared between logical partitions."),
    ("path_flags", 3, 1, "int", "SMF73FG4: X'80' CPMB entry not valid, X'40' CTC defined, X'08' DCM managed, "
                                "X'02' extended channel path measurements supported."),
    ("busy_samples", 4, 4, "int", "SMF73BSY: STCPS samples in which SRM found the channel path busy."),
    ("partition_busy_us", 8, 4, "u1024_us", "SMF73PBY: the partition's channel path busy time in the interval, µs "
                                            "(1,024-µs units in the record)."),
    ("partition_interval_us", 12, 4, "u1024_us", "SMF73PTI: the partition's channel path measurement interval, µs "
                                                 "(1,024-µs units in the record)."),
    ("path_type_code", 16, 1, "int", "SMF73CPD: channel path description (type code, as D M=CHP explains it)."),
    ("path_acronym", 17, 5, "text", "SMF73ACR: channel path acronym, e.g. `CTC`, `CNC_S`, `FC_S`, `OSD`."),
]

CHANNEL_TABLE = smf_table(
    "smf73_channel_path",
    "One row per channel path data section of a 73.1 record: a channel path's busy samples and its partition's busy "
    "time and measurement interval in one RMF interval, with the interval and sample counts of its record.",
    (*leading_columns(RECORD_TYPE), *columns(PRODUCT), *columns(CONTROL), *columns(CHANNEL)),
    ("system_id", "interval_start", "chpid"), "interval_start",
)
TABLES = (CHANNEL_TABLE,)


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    kept = rmf_records(batch, rows, RECORD_TYPE, TRIPLETS,
                       required={1: ("channel path control section", "no sample count for the busy counts")})
    paths = expand(batch, kept.rows, kept.triplets[2])
    owner, leading = interval_columns(batch, header, kept, paths)
    table = {**leading, **record_fields(batch, kept, 0, PRODUCT, owner), **record_fields(batch, kept, 1, CONTROL, owner),
             **decode_fields(paths, CHANNEL)}
    return Decoded({CHANNEL_TABLE.name: pa.table(table)}, kept.rejects, len(kept.rows))
