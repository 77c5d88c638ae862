"""What the RMF records that carry one row per section (72.3 per class period, 74.1 per device) share: the
triplets from offset 28, the interval of the RMF product section (always the first triplet), and the record's
interval repeated on every row its sections unfold into.

A record that lacks its product section, or a section the type cannot do without (72.3: the workload manager
control section), or whose interval is not valid packed decimal, is rejected alone with its offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ingest.formats.base import Column
from ingest.formats.smf.fields import Sections, ts_array
from ingest.formats.smf.headers import (
    Header,
    Triplet,
    common_columns,
    first_instance,
    read_triplets,
    triplet_problems,
    whole_records,
)
from ingest.formats.smf.records import RecordBatch
from ingest.formats.smf.smf70 import rmf_interval, utc_offset_us
from ingest.formats.smf.tables import I64, SECTION_INDEX, SUBSYSTEM_ID, TS

FIRST_TRIPLET = 28


def leading_columns(rtype: int) -> tuple[Column, ...]:
    """The columns ``interval_columns`` fills, declared."""
    return (SUBSYSTEM_ID,
            Column("interval_start", TS, f"SMF{rtype}DAT + SMF{rtype}IST: start of the RMF interval, local time."),
            Column("interval_us", I64, f"SMF{rtype}INT (`mmsstttF`): length of the RMF interval, µs."),
            Column("utc_offset_us", I64, f"SMF{rtype}LGO: local time minus UTC, µs (signed)."),
            SECTION_INDEX)


@dataclass
class RmfRecords:
    rows: np.ndarray  # the batch rows of the records kept
    triplets: list[Triplet]  # in the type's order, one row per kept record
    start: np.ndarray  # interval start, datetime64[us]
    interval_us: np.ndarray
    utc_offset_us: pa.Array  # SMF70LGO of the product section (the same layout in every RMF record)
    rejects: list[tuple[int, str]]


def rmf_records(batch: RecordBatch, rows: np.ndarray, rtype: int, names: list[str],
                required: dict[int, str] | None = None) -> RmfRecords:
    """The triplets ``names`` (8 bytes each from offset 28, bounded by SMFxxTRN) and interval of each record;
    ``required``: triplet index -> the reject reason without it, ``{name}`` and ``{at}`` its triplet's (the product
    section is always required)."""
    whole = whole_records(batch).take(rows)
    trn, _ = whole.uint(24, 2)
    triplets = read_triplets(whole, [(name, FIRST_TRIPLET + 8 * k) for k, name in enumerate(names)], trn)
    problems = triplet_problems(batch, rows, triplets, FIRST_TRIPLET)
    prs = triplets[0]
    start, start_ok, interval_us, interval_ok = rmf_interval(first_instance(batch, rows, prs))
    needed = {0: "RMF product section (triplet {name} at record offset {at} is zero): no interval", **(required or {})}
    for i in range(len(rows)):
        if problems[i] is not None:
            continue
        missing = [k for k in needed if not triplets[k].exists[i]]
        if missing:
            k = missing[0]
            problems[i] = "record has no " + needed[k].format(name=names[k], at=FIRST_TRIPLET + 8 * k)
        elif not (start_ok[i] and interval_ok[i]):
            at = prs.offset[i]
            problems[i] = (f"RMF product section at record offset {at}: interval start SMF{rtype}DAT/SMF{rtype}IST "
                           f"(offsets {at + 14}/{at + 10}) or length SMF{rtype}INT (offset {at + 18}) is not valid packed decimal")
    keep = np.flatnonzero([p is None for p in problems])
    rejects = [(int(rows[i]), p) for i, p in enumerate(problems) if p is not None]
    return RmfRecords(rows[keep], [t.take(keep) for t in triplets], start[keep], interval_us[keep],
                      utc_offset_us(first_instance(batch, rows[keep], prs.take(keep))), rejects)


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
