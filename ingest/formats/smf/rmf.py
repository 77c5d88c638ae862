"""What the RMF records (70.1, 72.3, 74.1) share: the triplets from offset 28, the interval of the RMF product
section (always the first triplet), and, for the types that carry one row per section (72.3 per class period,
74.1 per device), the record's interval and fields repeated on every row its sections unfold into.

A record that lacks its product section, or a section the type cannot do without (72.3: the workload manager
control section), or whose interval is not valid packed decimal, is rejected alone with its offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ingest.formats.base import Column
from ingest.formats.smf.fields import FieldSpec, Sections, decode_fields, int_array, packed_date, packed_int, ts_array
from ingest.formats.smf.headers import (
    Header,
    Triplet,
    common_columns,
    first_instance,
    require_section,
    split_rejects,
    triplet_area,
)
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.tables import I64, SECTION_INDEX, SUBSYSTEM_ID, TS

FIRST_TRIPLET = 28


def leading_columns(rtype: int) -> tuple[Column, ...]:
    """The columns ``interval_columns`` fills, declared."""
    return (SUBSYSTEM_ID,
            Column("interval_start", TS, f"SMF{rtype}DAT + SMF{rtype}IST: start of the RMF interval, local time."),
            Column("interval_us", I64, f"SMF{rtype}INT (`mmsstttF`): length of the RMF interval, µs."),
            Column("utc_offset_us", I64, f"SMF{rtype}LGO: local time minus UTC, µs (signed)."),
            SECTION_INDEX)


def sampled_product(rtype: int) -> list[FieldSpec]:
    """The RMF product section's fields a row of sampled counts repeats (74.1 devices, 73.1 channel paths): the
    sample count and the sysplex and system names, at the same offsets in types 70-79."""
    return [
        ("sample_count", 24, 4, "int", f"SMF{rtype}SAM: RMF samples in the interval (the divisor of the sampled counts)."),
        ("sysplex_name", 88, 8, "text", f"SMF{rtype}XNM: sysplex name."),
        ("system_name", 96, 8, "text", f"SMF{rtype}SNM: system name (SYSNAME)."),
    ]


def rmf_interval(product: Sections) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Interval start (SMFxxDAT + SMFxxIST ``0hhmmssF``), length (SMFxxINT ``mmsstttF``) in µs, and validity:
    the RMF product section is the same in every RMF record (types 70-79)."""
    date_m, date_present = product.matrix(14, 4)
    days, date_ok, _ = packed_date(date_m)
    ist_m, ist_present = product.matrix(10, 4)
    hhmmss, ist_ok = packed_int(ist_m)
    h, m, s = hhmmss // 10000, hhmmss // 100 % 100, hhmmss % 100
    start_ok = date_present & date_ok & ist_present & ist_ok & (h < 24) & (m < 60) & (s < 60)
    start = days.astype("datetime64[us]") + (h * 3600 + m * 60 + s) * 1_000_000
    int_m, int_present = product.matrix(18, 4)
    mmsssttt, int_ok = packed_int(int_m)
    minutes, seconds, millis = mmsssttt // 100000, mmsssttt // 1000 % 100, mmsssttt % 1000
    interval_us = (minutes * 60_000 + seconds * 1000 + millis) * 1000
    return start, start_ok, interval_us, int_present & int_ok & (seconds < 60)


def utc_offset_us(product: Sections) -> pa.Array:
    """SMFxxLGO (offset 60 of the RMF product section, the same in types 70-79): local time minus GMT in signed
    STCK units (bit 51 = 1 µs), µs; NULL where the section is too short to hold it."""
    lgo, present = product.matrix(60, 8)
    return int_array(np.ascontiguousarray(lgo).view(">i8")[:, 0].astype(np.int64) >> 12, present)


@dataclass
class RmfRecords:
    rows: np.ndarray  # the batch rows of the records kept
    triplets: list[Triplet]  # in the type's order, one row per kept record
    start: np.ndarray  # interval start, datetime64[us]
    interval_us: np.ndarray
    utc_offset_us: pa.Array  # SMFxxLGO of the product section (the same layout in every RMF record)
    rejects: list[tuple[int, str]]


def rmf_records(batch: RecordBatch, rows: np.ndarray, rtype: int, names: list[str],
                required: dict[int, tuple[str, str]] | None = None) -> RmfRecords:
    """The triplets ``names`` (8 bytes each from offset 28, bounded by SMFxxTRN) and interval of each record;
    ``required``: triplet index -> (section, what a record lacks without it), the reject reason of a record whose
    triplet is zero (the product section is always required)."""
    triplets, problems = triplet_area(batch, rows, [(name, FIRST_TRIPLET + 8 * k) for k, name in enumerate(names)],
                                      FIRST_TRIPLET, count_at=24)
    prs = triplets[0]
    for k, (section, consequence) in {0: ("RMF product section", "no interval"), **(required or {})}.items():
        require_section(problems, triplets[k], section, consequence)
    start, start_ok, interval_us, interval_ok = rmf_interval(first_instance(batch, rows, prs))
    for i in np.flatnonzero(~(start_ok & interval_ok)).tolist():
        at = prs.offset[i]
        problems[i] = problems[i] or (
            f"RMF product section at record offset {at}: interval start SMF{rtype}DAT/SMF{rtype}IST "
            f"(offsets {at + 14}/{at + 10}) or length SMF{rtype}INT (offset {at + 18}) is not valid packed decimal")
    keep, rejects = split_rejects(rows, problems)
    return RmfRecords(rows[keep], [t.take(keep) for t in triplets], start[keep], interval_us[keep],
                      utc_offset_us(first_instance(batch, rows[keep], prs.take(keep))), rejects)


def record_fields(batch: RecordBatch, kept: RmfRecords, k: int, fields: list[FieldSpec], owner: pa.Array) -> dict[str, pa.Array]:
    """The ``fields`` of the first instance of triplet ``k``'s section of each kept record, repeated on the
    section rows that record unfolds into (``owner``, from ``interval_columns``)."""
    decoded = decode_fields(first_instance(batch, kept.rows, kept.triplets[k]), fields)
    return {name: decoded[name].take(owner) for name, *_ in fields}


def interval_columns(batch: RecordBatch, header: Header, kept: RmfRecords, sections: Sections) -> tuple[pa.Array, dict[str, pa.Array]]:
    """For sections of the kept records: each one's record among them (to repeat record fields with ``take``) and
    the columns every such table starts with (common columns, subsystem, interval and its UTC offset, section
    index)."""
    by_record = np.full(len(batch), -1, dtype=np.int64)
    by_record[kept.rows] = np.arange(len(kept.rows))
    owner = pa.array(by_record[sections.rec])
    return owner, {
        **common_columns(batch, header, sections.rec),
        "subsystem_id": header.ssi.take(pa.array(kept.rows)).take(owner),
        "interval_start": ts_array(kept.start, np.ones(len(kept.rows), dtype=bool)).take(owner),
        "interval_us": pa.array(kept.interval_us, pa.int64()).take(owner),
        "utc_offset_us": kept.utc_offset_us.take(owner),
        "section_index": pa.array(sections.inst, pa.int64()),
    }
