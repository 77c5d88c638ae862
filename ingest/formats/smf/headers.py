"""The standard SMF header and the self-defining section, decoded for a whole batch of records.

Standard header (common.md §2; offsets from the first byte of the RDW)::

    0 LEN 2 | 2 SEG 2 | 4 FLG 1 | 5 RTY 1 | 6 TME 4 binary, 1/100 s since midnight, local
    10 DTE 4 packed 0cyydddF (c: 0 = 19yy, 1 = 20yy) | 14 SID 4 EBCDIC
    when FLG X'40' (subtypes used): 18 SSI 4 EBCDIC | 22 STY 2 binary

e.g. ``02A0 0000 DF 46 00384E10 0124075F E2E8E2C1 D9D4C640 0001`` = 672 bytes, type 70 subtype 1,
2024-03-15 10:15:00.00, SID 'SYSA', subsystem 'RMF '.

A self-defining section is a list of triplets (offset 4 bytes, length 2, number 2). Offsets count
from the start of the RDW, so they are used as they are on a record buffer that keeps its RDW. A
section exists only when offset, length and number are all non-zero; a triplet whose instances end
beyond the record is damage, and the record is rejected with the triplet's position.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa

from ingest.formats.smf.fields import DAY_HUNDREDTHS, Sections, text_array, ts_array
from ingest.formats.smf.records import RecordBatch

EXTENDED_HEADER_TYPE = 126  # carrier of record types above 255 (common.md §2.5)


@dataclass
class Header:
    flags: np.ndarray
    rtype: np.ndarray
    subtype: np.ndarray  # -1 when the record has no subtype (FLG X'40' off)
    record_time: np.ndarray  # datetime64[us], local time the record was written
    problem: list[str | None]  # why the header itself is unusable, per record
    sid: pa.Array
    ssi: pa.Array


HEADER_SPAN = 104  # header and triplet area of the record types decoded here (type 30: 24 + 10 triplets)


def whole_records(batch: RecordBatch) -> Sections:
    """Each record as one 'section' starting at its RDW: header and triplet fields are read through it."""
    n = len(batch)
    return Sections(batch.buf, np.arange(n), batch.start, batch.length, span=HEADER_SPAN)


def decode_header(batch: RecordBatch) -> Header:
    whole = whole_records(batch)
    flags = whole.uint(4, 1)[0]
    rtype = whole.uint(5, 1)[0]
    record_time, ok = whole.date_time(10, 6)
    has_subtype = ((flags & 0x40) != 0) & (batch.length >= 24)
    subtype = np.where(has_subtype, whole.uint(22, 2)[0], -1)
    problem: list[str | None] = [None] * len(batch)
    for i in np.flatnonzero(~ok).tolist():
        raw = batch.record_bytes(i)
        tme, dte = int.from_bytes(raw[6:10], "big"), raw[10:14].hex().upper()
        if tme >= DAY_HUNDREDTHS:
            problem[i] = f"header time SMFxxTME at record offset 6 is {tme} hundredths of a second, more than a day"
        else:
            problem[i] = f"header date SMFxxDTE at record offset 10 is X'{dte}', not a packed date 0cyydddF"
    ssi_m, _ = whole.matrix(18, 4)
    return Header(
        flags=flags,
        rtype=rtype,
        subtype=subtype,
        record_time=record_time,
        problem=problem,
        sid=whole.text_col(14, 4),
        ssi=text_array(ssi_m, has_subtype),
    )


def common_columns(batch: RecordBatch, header: Header, rec: np.ndarray) -> dict[str, pa.Array]:
    """The columns every raw SMF table starts with, for rows owned by records ``rec``."""
    return {
        "record_ordinal": pa.array(batch.ordinal[rec], pa.int64()),
        "byte_offset": pa.array(batch.offset[rec], pa.int64()),
        "system_id": header.sid.take(pa.array(rec)),
        "record_time": ts_array(header.record_time[rec], np.ones(len(rec), dtype=bool)),
    }


@dataclass
class Triplet:
    name: str  # e.g. "SMF70CPS" (the offset field's name)
    at: int  # record offset of the triplet
    offset: np.ndarray
    length: np.ndarray
    number: np.ndarray

    @cached_property
    def exists(self) -> np.ndarray:
        return (self.offset > 0) & (self.length > 0) & (self.number > 0)

    def take(self, rows: np.ndarray) -> "Triplet":
        return Triplet(self.name, self.at, self.offset[rows], self.length[rows], self.number[rows])


def read_triplet(whole: Sections, name: str, at: int, defined: np.ndarray) -> Triplet:
    """The triplet at record offset ``at`` of the records in ``whole``; zero where ``defined`` is False."""
    off, p1 = whole.uint(at, 4)
    length, p2 = whole.uint(at + 4, 2)
    number, p3 = whole.uint(at + 6, 2)
    keep = defined & p1 & p2 & p3
    return Triplet(name, at, np.where(keep, off, 0), np.where(keep, length, 0), np.where(keep, number, 0))


def read_triplets(whole: Sections, layout: list[tuple[str, int]], count: np.ndarray | None = None) -> list[Triplet]:
    """The triplets of ``layout`` (name, record offset) in order. A triplet is only read where the
    record's triplet count (SMFxxTRN, for record types that have one) covers it and where it lies
    before the first section: the triplet area ends where section data begins, whatever a damaged
    count says."""
    data_start = np.full(len(whole), np.iinfo(np.int64).max)
    out = []
    for k, (name, at) in enumerate(layout):
        defined = at + 8 <= data_start
        if count is not None:
            defined &= count > k
        t = read_triplet(whole, name, at, defined)
        data_start = np.where(t.exists, np.minimum(data_start, t.offset), data_start)
        out.append(t)
    return out


def triplet_problems(batch: RecordBatch, rows: np.ndarray, triplets: list[Triplet], first_data: int) -> list[str | None]:
    """Why a record's triplets cannot be right (section before ``first_data`` or past the record end)."""
    lengths = batch.length[rows]
    problems: list[str | None] = [None] * len(rows)
    for t in triplets:
        end = t.offset + t.length * t.number
        bad = t.exists & ((t.offset < first_data) | (end > lengths))
        for i in np.flatnonzero(bad).tolist():
            if problems[i] is None:
                problems[i] = (
                    f"triplet {t.name} at record offset {t.at} points to {t.number[i]} section(s) of {t.length[i]} bytes "
                    f"at offset {t.offset[i]}, ending at {end[i]}, outside the record (data from {first_data} to {lengths[i]})"
                )
    return problems


def triplet_area(batch: RecordBatch, rows: np.ndarray, layout: list[tuple[str, int]], first_data: int,
                 count_at: int | None = None) -> tuple[list[Triplet], list[str | None]]:
    """The triplets of ``layout`` of records ``rows`` (bounded by the triplet count at record offset ``count_at``,
    for the types that have one) and each record's problem with them (``triplet_problems``), for a decoder to
    add its own to before ``split_rejects``."""
    whole = whole_records(batch).take(rows)
    count = None if count_at is None else whole.uint(count_at, 2)[0]
    triplets = read_triplets(whole, layout, count)
    return triplets, triplet_problems(batch, rows, triplets, first_data)


def require_section(problems: list[str | None], t: Triplet, section: str, consequence: str = "") -> None:
    """A record without the section of ``t`` (its triplet zero) has that problem, unless it has one already."""
    for i in np.flatnonzero(~t.exists).tolist():
        problems[i] = problems[i] or (f"record has no {section} (triplet {t.name} at record offset {t.at} is zero)"
                                      + (f": {consequence}" if consequence else ""))


def split_rejects(rows: np.ndarray, problems: list[str | None]) -> tuple[np.ndarray, list[tuple[int, str]]]:
    """The positions (in ``rows``) of the records without a problem, and (batch row, problem) of the others."""
    keep = np.flatnonzero([p is None for p in problems])
    return keep, [(int(rows[i]), p) for i, p in enumerate(problems) if p is not None]


def expand(batch: RecordBatch, rows: np.ndarray, t: Triplet) -> Sections:
    """One Sections row per instance of the section described by ``t`` (records ``rows`` of the batch)."""
    number = np.where(t.exists, t.number, 0)
    rec = np.repeat(rows, number)
    first = np.repeat(np.cumsum(number) - number, number)
    inst = np.arange(len(rec), dtype=np.int64) - first
    length = np.repeat(t.length, number)
    start = batch.start[rec] + np.repeat(t.offset, number) + inst * length
    return Sections(batch.buf, rec, start, length, inst)


def first_instance(batch: RecordBatch, rows: np.ndarray, t: Triplet) -> Sections:
    """The first instance of a one-per-record section, one row per record (length 0 = absent: all NULL)."""
    length = np.where(t.exists, t.length, 0)
    return Sections(batch.buf, rows, batch.start[rows] + t.offset, length)


@dataclass
class Decoded:
    """What a record-type decoder returns for the records it was given."""

    tables: dict[str, pa.Table]
    rejects: list[tuple[int, str]]  # (batch row, why the record is unusable)
    records: int  # records decoded into rows (the rest were rejected)

    @property
    def extra_rows(self) -> int:
        """Rows beyond one per decoded record: section instances unfolded into their own tables."""
        return sum(t.num_rows for t in self.tables.values()) - self.records
