"""The ``smf.binary`` parser: an SMF dump (VB or VBS, detected from the bytes) into raw tables.

Sample input - the first 32 bytes of an RDW-prefixed (VB) dump holding a type 70 subtype 1 record::

    02A00000 DF460038 4E100124 075FE2E8 E2C1D9D4 C6400001 00090000 00000064
    RDW LL=672  flag X'DF' type 70  time 10:15:00.00  date 2024 day 075  SID 'SYSA'  'RMF '  subtype 1 ...

and of the same record as the only record of a VBS block image (BDW, then a complete segment)::

    02A40000 02A00000 DF460038 4E100124 075FE2E8 ...

Output (schema ``raw``; columns in docs/smf_raw_contract.md), by the decoders of ``DECODERS``:

* 70.1  -> ``smf70_cpu_control``, ``smf70_cpu``, ``smf70_partition``, ``smf70_logical_processor``
* 72.3  -> ``smf72_workload_period``
* 73.1  -> ``smf73_channel_path``
* 74.1  -> ``smf74_device_activity``
* 30.2-5 -> ``smf30_work``
* 119.2 -> ``smf119_tcp_connection``; 119.6 -> ``smf119_interface``; 119.70 -> ``smf119_ftp_transfer``;
  119.20/21 -> ``smf119_tn3270_session``
* anything else (other types, other subtypes, extended-header records) -> ``smf_unparsed``, verbatim,
  counted as *skipped*, so a user sees what they sent that perfdb does not decode yet.

A decoder is a module with ``RECORD_TYPE``, ``SUBTYPES``, ``TABLES`` (the ``RawTable`` s it writes) and
``decode(batch, header, rows) -> headers.Decoded``; a new record type is one such module added to
``DECODERS`` (and a staging model for its tables).

Accounting: ``ctx.read()`` counts every logical record and every unreadable stretch of bytes; a
record decoded into rows of several tables (a 70.1 record unfolds its CPU, partition and logical
processor sections into their own tables) still counts once (``Batch.records``), so records read =
records loaded + rejected + skipped.
Records with an unusable header (bad packed date, time beyond a day) or impossible triplets are
rejected one by one with their byte offset; the records around them still load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import pyarrow as pa

from ingest.formats.base import Batch, Column, FormatError, ParseContext, RawTable
from ingest.formats.base import SNIFF_BYTES
from ingest.formats.smf import headers, smf30, smf70, smf72, smf73, smf74, smf119
from ingest.formats.smf.records import FORMS, Framer, RecordBatch, detect_form
from ingest.formats.smf.tables import I64, SUBSYSTEM_ID, smf_table

DECODERS = [smf70, smf72, smf73, smf74, smf30, smf119]

UNPARSED = smf_table(
    "smf_unparsed",
    "Every record no decoder reads (other types and subtypes), verbatim, with its header fields; counted as "
    "skipped in raw.ingest_files.",
    (
        Column("record_type", I64, "SMFxxRTY: record type."),
        Column("record_subtype", I64, "SMFxxSTY: record subtype; NULL when SMFxxFLG X'40' is off."),
        SUBSYSTEM_ID,
        Column("extended_record_type", I64, "For type 126 carriers of types above 255: the real type at offset 52."),
        Column("record_length", I64, "Record length, RDW included."),
        Column("record_bytes", pa.binary(), "The record as read, RDW included."),
    ),
)


def _route(header: headers.Header, usable: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Batch rows per decoder of ``DECODERS`` (the first that claims a record's type and subtype), and the rows
    no decoder takes."""
    taken = np.zeros(len(header.rtype), dtype=bool)
    routes = []
    for decoder in DECODERS:
        mine = usable & ~taken & (header.rtype == decoder.RECORD_TYPE) & np.isin(header.subtype, decoder.SUBTYPES)
        routes.append(np.flatnonzero(mine))
        taken |= mine
    return routes, np.flatnonzero(usable & ~taken)


def _unparsed(batch: RecordBatch, header: headers.Header, rows: np.ndarray) -> pa.Table:
    whole = headers.whole_records(batch).take(rows)
    flags = header.flags[rows]
    extended = (header.rtype[rows] == headers.EXTENDED_HEADER_TYPE) & ((flags & 0x60) == 0x60) & (batch.length[rows] >= 56)
    real_type, _ = whole.uint(52, 2)  # type 126 carries record types above 255 (common.md §2.5)
    has_subtype = header.subtype[rows] >= 0
    return pa.table({
        **headers.common_columns(batch, header, rows),
        "record_type": pa.array(header.rtype[rows], pa.int64()),
        "record_subtype": pa.array(header.subtype[rows], mask=~has_subtype, type=pa.int64()),
        "subsystem_id": header.ssi.take(pa.array(rows)),
        "extended_record_type": pa.array(real_type, mask=~extended, type=pa.int64()),
        "record_length": pa.array(batch.length[rows], pa.int64()),
        "record_bytes": pa.array([batch.record_bytes(i) for i in rows.tolist()], pa.binary()),
    })


class SmfParser:
    format = "smf.binary"
    version = "1"
    priority = 10  # binary and specific: ahead of text formats

    @property
    def tables(self) -> tuple[RawTable, ...]:
        return (*(table for decoder in DECODERS for table in decoder.TABLES), UNPARSED)

    def sniff(self, head: bytes, name: str) -> bool:
        try:
            detect_form(head)
            return True
        except FormatError as e:
            return "without record descriptor words" in str(e)  # SMF, but unusable: say so in parse()

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
            form = ctx.options.get("smf_form") or detect_form(head)
            if form not in FORMS:
                raise FormatError(f"unknown SMF form {form!r}; expected one of {', '.join(FORMS)}")
            f.seek(0)
            for batch, framing_rejects in Framer(form).frame(f):
                ctx.read(len(batch) + len(framing_rejects))
                for r in framing_rejects:
                    ctx.reject(r.reason, r.raw, offset=r.offset, record_ordinal=r.ordinal)
                if len(batch):
                    yield from self._decode(batch, ctx)

    def _decode(self, batch: RecordBatch, ctx: ParseContext) -> Iterator[Batch]:
        header = headers.decode_header(batch)
        usable = np.array([p is None for p in header.problem], dtype=bool)
        for i in np.flatnonzero(~usable).tolist():
            self._reject(ctx, batch, header, i, header.problem[i])
        routes, unparsed = _route(header, usable)
        for decoder, rows in zip(DECODERS, routes):
            if not len(rows):
                continue
            result = decoder.decode(batch, header, rows)
            for i, reason in result.rejects:
                self._reject(ctx, batch, header, i, reason)
            # one SMF record may unfold into rows of several tables (a 70.1 record: control, CPUs,
            # partitions, logical processors); the records count once, with the first table's batch
            records = result.records
            for table, rows in result.tables.items():
                yield Batch(table, rows, records=records)
                records = 0
        if len(unparsed):
            yield Batch(UNPARSED.name, _unparsed(batch, header, unparsed), skipped=True)

    @staticmethod
    def _reject(ctx: ParseContext, batch: RecordBatch, header: headers.Header, i: int, reason: str) -> None:
        offset = int(batch.offset[i])
        subtype = f".{header.subtype[i]}" if header.subtype[i] >= 0 else ""
        ctx.reject(f"record at offset {offset} (type {header.rtype[i]}{subtype}): {reason}", batch.record_bytes(i),
                   offset=offset, record_ordinal=int(batch.ordinal[i]))


PARSER = SmfParser()
