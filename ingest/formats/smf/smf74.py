"""SMF type 74 subtype 1 (RMF device activity) -> ``raw.smf74_device_activity``.

Input (docs/smf74_format.md): RMF writes, each interval, 74.1 records for the devices of the classes it
measures (DASD here). Header, then 3 triplets from offset 28 (RMF product, device control, device data),
bounded by SMF74TRN. The start of fixture 4 (``tests/fixtures/smf/README.md``: two DASD volumes)::

    0000  01AC0000 DE4A0038 4E740126 005FE2E8   LL=428, FLG X'DE', type 74, 10:15:01.00, 2026 day 005
    0010  E2C1D9D4 C6400001 00030000 00000034   SID 'SYSA', 'RMF ', subtype 1, TRN 3, product at 52 ...
    0020  00680001 0000009C 00200001 000000BC   ... 104 x1; device control at 156, 32 x1; device data at 188 ...
    0030  00780002 ...                          ... 120 bytes x2

Output: one row per device data section, with its record's interval and RMF sample count (product
section) repeated on it, so a row carries its own natural key. Times stay as RMF accumulated them, in µs
(128-µs units converted exactly); averages per I/O, IOSQ time and device utilisation are the staging
model's formulas, as RMF's are the report's.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ingest.formats.smf.fields import columns, decode_fields
from ingest.formats.smf.headers import Decoded, Header, expand
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.rmf import interval_columns, leading_columns, record_fields, rmf_records, sampled_product
from ingest.formats.smf.tables import smf_table

RECORD_TYPE, SUBTYPES = 74, (1,)

# triplet order of subtype 1, from offset 28, 8 bytes each; only the first SMF74TRN exist
TRIPLETS = ["SMF74PRS", "SMF74DCS", "SMF74DDS"]

PRODUCT = sampled_product(RECORD_TYPE)  # RMF product section (SMF74PRS)

DEVICE = [  # device data section (SMF74DDS), one per device
    ("device_number", 0, 2, "hex", "SMF74NUM: device number as 4 hex digits, e.g. `0A40`."),
    ("lcu_number", 2, 2, "int", "SMF74LCU: logical control unit number."),
    ("device_flags", 5, 1, "int", "SMF74CNF: X'20' SMF74SSC .. SMF74DIS are incorrect, X'10' device deleted, "
                                  "X'08' partial statistics, X'02' configured during the interval, X'01' online."),
    ("volser", 6, 6, "text", "SMF74SER: volume serial of the mounted volume."),
    ("unit_type", 12, 4, "hex", "SMF74TYP: unit type (UCBTYP) as 8 hex digits, e.g. `3010200F` for a 3390."),
    ("exposures", 16, 4, "int", "SMF74NUX: unit control blocks of a parallel access volume (base and aliases); "
                                "for a HyperPAV base the accumulated alias count."),
    ("ssch_count", 20, 4, "int", "SMF74SSC: start subchannels (SSCH and RSSCH): the device's I/O count."),
    ("measured_count", 24, 4, "int", "SMF74MEC: measurement events, the SSCHs whose connect, pending and active "
                                     "times were stored (the divisor of their averages)."),
    ("connect_us", 28, 4, "u128_us", "SMF74CNN: device connect time, µs (128-µs units in the record)."),
    ("pending_us", 32, 4, "u128_us", "SMF74PEN: device pending time, µs (128-µs units in the record)."),
    ("active_us", 36, 4, "u128_us", "SMF74ATV: device active time, µs (128-µs units in the record)."),
    ("disconnect_us", 40, 4, "u128_us", "SMF74DIS: device disconnect time, µs (128-µs units in the record)."),
    ("queued_requests", 44, 4, "int", "SMF74QUE: requests found queued in IOS for the device, summed over the "
                                      "interval's samples (the average IOS queue is SMF74QUE / SMF74SAM)."),
    ("reserved_idle_samples", 48, 4, "int", "SMF74UTL: samples when the device was reserved but no SSCH had been "
                                            "issued to it."),
]

DEVICE_TABLE = smf_table(
    "smf74_device_activity",
    "One row per device data section of a 74.1 record: a device's I/O count and accumulated connect, pending, "
    "disconnect and active times in one RMF interval, with the interval and sample count of its record's RMF "
    "product section.",
    (*leading_columns(RECORD_TYPE), *columns(PRODUCT), *columns(DEVICE)),
    ("system_id", "interval_start", "device_number"), "interval_start",
)
TABLES = (DEVICE_TABLE,)


def decode(batch: RecordBatch, header: Header, rows: np.ndarray) -> Decoded:
    kept = rmf_records(batch, rows, RECORD_TYPE, TRIPLETS)
    devices = expand(batch, kept.rows, kept.triplets[2])
    owner, leading = interval_columns(batch, header, kept, devices)
    table = {**leading, **record_fields(batch, kept, 0, PRODUCT, owner), **decode_fields(devices, DEVICE)}
    return Decoded({DEVICE_TABLE.name: pa.table(table)}, kept.rejects, len(kept.rows))
