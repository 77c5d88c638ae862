"""Framing: the bytes of an SMF dump -> logical SMF records (VB and VBS, spanned records reassembled).

A binary transfer of an IFASMFDL/IFASMFDP dump arrives in one of three shapes (common.md §1):

* **VB** - RDW-prefixed records (FTP ``binary`` with ``SITE RDW``; most dump-to-PC tools). Each RDW is
  ``LL LL SS 00``: LL = length including the RDW, SS = segment code in the low two bits. Usually
  every RDW holds a complete record (SS = 00), but some tools pass segments through, so codes
  01 (first), 11 (middle), 10 (last) are honoured here too. A 70.1 record starts::

      02A0 0000  DF 46 00384E10 0124075F E2E8E2C1 ...
      LL=672 SS=0  flag type time  date     'SYSA'

* **VBS** - physical block images (RECFM=U copy, tape images): ``BDW`` (``LL LL 00 00``, block length
  including the BDW) followed by segments, each with an SDW shaped like an RDW. A spanned record's
  segments are concatenated in block order and given a rebuilt RDW ``LL 00 00`` (the logical record's
  own RDW is not stored in the segments). An SDW with X'80' in its first byte is a null segment:
  the rest of the block is padding.
* **no descriptors** - FTP ``binary`` without ``SITE RDW``: record boundaries are lost. Recognised (a
  flag byte, a record type, then a valid time and packed date right at the start of the file) and
  rejected with a message that says how to transfer the file again.

The form is detected from the first bytes (the reading under which more SMF headers line up), not
from the file name; ``ctx.options['smf_form']`` = ``vb`` or ``vbs`` overrides. The file is read in
chunks so memory stays flat; each chunk becomes a :class:`RecordBatch` (one buffer, record start
offsets into it) for the vectorised decoders.

Damage: a descriptor that cannot be right (reserved bits set, impossible length) starts a search for
the next position where a valid descriptor, a plausible SMF header and - for VB - a valid next
descriptor right after the record line up; the bytes in between are rejected as one unit with their
offset. A record longer than the bytes left (truncated transfer) is rejected with both lengths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import BinaryIO, Iterator

import numpy as np

from ingest.formats.base import FormatError

FORM_VB = "vb"
FORM_VBS = "vbs"
FORMS = (FORM_VB, FORM_VBS)

MIN_RECORD = 18  # RDW + the 14 header bytes every SMF record has
MAX_LOGICAL = 65_535  # a rebuilt RDW holds the length in 16 bits
CHUNK_BYTES = 4 << 20
LOOKAHEAD = 14  # bytes after a descriptor needed to judge the SMF header that follows
GARBAGE_FLUSH = 1 << 20  # reject unreadable bytes in pieces of at most this size while searching
REJECT_KEEP = 4096  # bytes of an unreadable stretch kept in raw.rejects
TAIL_PAD = 1024  # zero bytes after a batch's last record (see RecordBatch)
_DAY_HUNDREDTHS = 8_640_000

SEGMENT_NAMES = {0: "complete", 1: "first", 2: "last", 3: "middle"}


@dataclass
class RecordBatch:
    """Logical records of one chunk: ``buf[start[i] : start[i] + length[i]]`` is record i, RDW included."""

    buf: np.ndarray
    start: np.ndarray
    length: np.ndarray
    ordinal: np.ndarray  # position of the record among everything read from the file (0-based)
    offset: np.ndarray  # file offset of the record's first descriptor (RDW, or SDW of its first segment)

    def __len__(self) -> int:
        return len(self.start)

    def record_bytes(self, i: int) -> bytes:
        return self.buf[self.start[i] : self.start[i] + self.length[i]].tobytes()


@dataclass
class FramingReject:
    offset: int
    ordinal: int
    reason: str
    raw: bytes


# -- plausibility checks on a few bytes (used by detection and resynchronisation) ---------------------------

def plausible_date(b: bytes | memoryview) -> bool:
    """``0cyydddF``: digits 0-9, century 0-2, day 001-366, sign F or C."""
    if len(b) < 4 or b[0] >> 4 != 0 or (b[0] & 0xF) > 2 or (b[3] & 0xF) not in (0xF, 0xC):
        return False
    digits = (b[1] >> 4, b[1] & 0xF, b[2] >> 4, b[2] & 0xF, b[3] >> 4)
    return max(digits) <= 9 and 1 <= digits[2] * 100 + digits[3] * 10 + digits[4] <= 366


def plausible_header(b: bytes, p: int) -> bool:
    """An SMF header whose flag byte is at ``p``: time of day (1/100 s) then a packed date."""
    if p + 10 > len(b):
        return False
    return int.from_bytes(b[p + 2 : p + 6], "big") < _DAY_HUNDREDTHS and plausible_date(b[p + 6 : p + 10])


def _descriptor(b: bytes, p: int) -> tuple[int, int] | None:
    """(length, segment code) of an RDW/SDW at ``p`` if its reserved bits are clear, else None."""
    code = b[p + 2]
    if code > 3 or b[p + 3]:
        return None
    return (b[p] << 8) | b[p + 1], code


def _vb_evidence(head: bytes) -> int:
    """SMF headers found walking the head as RDW after RDW (0 if the first RDW is not valid)."""
    pos = found = 0
    while pos + 4 <= len(head):
        d = _descriptor(head, pos)
        if not d or d[0] < 5 or (d[1] == 0 and d[0] < MIN_RECORD):
            break
        found += d[1] in (0, 1) and plausible_header(head, pos + 4)
        pos += d[0]
    return found


def _vbs_evidence(head: bytes) -> int:
    """SMF headers found walking the head as BDW-framed blocks of segments (0 if the first BDW is not valid)."""
    pos = found = 0
    while pos + 8 <= len(head) and head[pos + 2] == 0 and head[pos + 3] == 0:
        end = pos + ((head[pos] << 8) | head[pos + 1])
        if end < pos + 8:
            break
        q = pos + 4
        while q + 4 <= min(end, len(head)) and not head[q] & 0x80:
            d = _descriptor(head, q)
            if not d or d[0] < 5 or q + d[0] > end:
                return found
            found += d[1] in (0, 1) and plausible_header(head, q + 4)
            q += d[0]
        pos = end
    return found


def detect_form(head: bytes) -> str:
    """VB or VBS from the first bytes (the form under which more SMF headers line up); FormatError otherwise."""
    if len(head) < MIN_RECORD:
        raise FormatError(f"file is {len(head)} bytes long; the smallest SMF record is {MIN_RECORD} bytes", offset=0)
    vb, vbs = _vb_evidence(head), _vbs_evidence(head)
    if vb or vbs:
        return FORM_VB if vb >= vbs else FORM_VBS
    if plausible_header(head, 0):
        raise FormatError(
            f"these are SMF records without record descriptor words (flag X'{head[0]:02X}', record type {head[1]}, "
            "then a valid time and date at the very start): the file was transferred in binary without SITE RDW, "
            "so record boundaries are lost. Transfer it again with `quote site rdw` (or LOCSITE RDW), or copy the "
            "blocks with RECFM=U",
            offset=0,
        )
    raise FormatError(
        f"not SMF data: expected an RDW (2-byte length, X'0000') or a BDW followed by an SMF header "
        f"(flag, type, time, packed date); found X'{head[:12].hex().upper()}'",
        offset=0,
    )


# -- the framer ----------------------------------------------------------------------------------------------

@dataclass
class Framer:
    form: str
    ordinal: int = 0
    _parts: list[bytes] | None = None  # data of an open spanned record
    _part_offset: int = 0
    _part_len: int = 0
    _starts: list[int] = field(default_factory=list)  # complete records inside the current chunk
    _lengths: list[int] = field(default_factory=list)
    _offsets: list[int] = field(default_factory=list)
    _ordinals: list[int] = field(default_factory=list)
    _assembled: list[tuple[bytes, int, int]] = field(default_factory=list)  # (record, file offset, ordinal)
    _rejects: list[FramingReject] = field(default_factory=list)

    def frame(self, f: BinaryIO) -> Iterator[tuple[RecordBatch, list[FramingReject]]]:
        walk = self._walk_vb if self.form == FORM_VB else self._walk_vbs
        data, base = b"", 0
        while True:
            chunk = f.read(CHUNK_BYTES)
            final = not chunk
            data += chunk
            consumed = walk(data, base, final)
            if final and self._parts is not None:
                self._reject(self._part_offset, f"file ends inside a spanned record whose first segment is at offset "
                             f"{self._part_offset}: no last segment", b"".join(self._parts))
                self._parts = None
            yield self._flush(data), self._take_rejects()
            if final:
                return
            data, base = data[consumed:], base + consumed

    # -- VB: RDW after RDW --------------------------------------------------------------------------------

    def _walk_vb(self, data: bytes, base: int, final: bool) -> int:
        n, pos = len(data), 0
        starts, lengths, offsets, ordinals = self._starts.append, self._lengths.append, self._offsets.append, self._ordinals.append
        while pos + 4 <= n:
            ll, code = (data[pos] << 8) | data[pos + 1], data[pos + 2]
            if code > 3 or data[pos + 3] or ll < 5 or (code == 0 and ll < MIN_RECORD):
                nxt = self._resync(data, pos, base, final, self._vb_start_at,
                                   f"expected an RDW (length >= {MIN_RECORD}, segment code 0-3, X'00'), found X'{data[pos:pos + 4].hex().upper()}'")
                if nxt is None:
                    return pos
                pos = nxt
                continue
            if pos + ll > n:
                return self._cut_short(data, pos, base, final, f"record at offset {base + pos}: its RDW says {ll} bytes")
            if code == 0 and self._parts is None:  # the common case, inline: one complete record
                starts(pos)
                lengths(ll)
                offsets(base + pos)
                ordinals(self.ordinal)
                self.ordinal += 1
            else:
                self._segment(code, data, pos, ll, base)
            pos += ll
        return self._walk_end(data, pos, base, final, "record (expected an RDW)")

    def _vb_start_at(self, data: bytes, p: int, final: bool) -> bool | None:
        """Does a record start at ``p``? RDW, SMF header, and a valid descriptor (or EOF) right after it."""
        d = _descriptor(data, p)
        if not d or d[1] not in (0, 1) or d[0] < (MIN_RECORD if d[1] == 0 else LOOKAHEAD) or not plausible_header(data, p + 4):
            return False
        q, n = p + d[0], len(data)
        if q + 4 > n:
            return (q == n) if final else None
        nxt = _descriptor(data, q)
        return bool(nxt and nxt[0] >= 5)

    # -- VBS: blocks of segments --------------------------------------------------------------------------

    def _walk_vbs(self, data: bytes, base: int, final: bool) -> int:
        n, pos = len(data), 0
        while pos + 4 <= n:
            extended = data[pos] & 0x80  # tape only: 31-bit block length
            bl = int.from_bytes(data[pos : pos + 4], "big") & 0x7FFFFFFF if extended else (data[pos] << 8) | data[pos + 1]
            if bl < 8 or (not extended and (data[pos + 2] or data[pos + 3])):
                nxt = self._resync(data, pos, base, final, self._vbs_start_at,
                                   f"expected a BDW (block length >= 8, X'0000'), found X'{data[pos:pos + 4].hex().upper()}'")
                if nxt is None:
                    return pos
                pos = nxt
                continue
            if pos + bl > n:
                return self._cut_short(data, pos, base, final, f"block at offset {base + pos}: its BDW says {bl} bytes")
            self._walk_block(data, pos + 4, pos + bl, base)
            pos += bl
        return self._walk_end(data, pos, base, final, "block (expected a BDW)")

    def _cut_short(self, data: bytes, pos: int, base: int, final: bool, said: str) -> int:
        """Where a walk stops at a record or block whose descriptor (``said``) runs past the bytes read: at it, to
        read it whole with the next chunk; at the end of the file, past the rest, rejected as truncated."""
        if not final:
            return pos
        self._reject(base + pos, f"{said} but only {len(data) - pos} bytes are left in the file (truncated transfer?)",
                     data[pos:])
        return len(data)

    def _walk_end(self, data: bytes, pos: int, base: int, final: bool, last: str) -> int:
        """Where a walk stops after its last whole record or block (``last``): at the end of the file, the bytes
        after it, too few for a descriptor, are rejected."""
        if final and pos < len(data):
            self._reject(base + pos, f"{len(data) - pos} bytes at the end of the file after the last {last}", data[pos:])
            return len(data)
        return pos

    def _walk_block(self, data: bytes, q: int, end: int, base: int) -> None:
        while q + 4 <= end:
            if data[q] & 0x80:  # null segment: no more segments in this block
                return
            sl, code = (data[q] << 8) | data[q + 1], data[q + 2]
            if code > 3 or data[q + 3] or sl < 5 or q + sl > end or (code == 0 and sl < MIN_RECORD):
                self._reject(base + q, f"segment descriptor at offset {base + q} is not valid (X'{data[q:q + 4].hex().upper()}', "
                             f"{end - q} bytes left in the block): rest of the block skipped", data[q:end])
                return
            self._segment(code, data, q, sl, base)
            q += sl
        if q < end:
            self._reject(base + q, f"{end - q} stray bytes at the end of the block ending at offset {base + end}", data[q:end])

    def _vbs_start_at(self, data: bytes, p: int, final: bool) -> bool | None:
        if p + 8 + 10 > len(data):  # BDW + SDW + the header's time and date
            return False if final else None
        bl = (data[p] << 8) | data[p + 1]
        sdw = _descriptor(data, p + 4)
        return bool(bl >= 8 and sdw and sdw[1] in (0, 1) and 5 <= sdw[0] <= bl - 4 and plausible_header(data, p + 8))

    # -- segments and reassembly ------------------------------------------------------------------------

    def _segment(self, code: int, data: bytes, p: int, sl: int, base: int) -> None:
        if code in (0, 1) and self._parts is not None:
            self._reject(self._part_offset, f"spanned record whose first segment is at offset {self._part_offset} has no "
                         f"last segment: a new record starts at offset {base + p}", b"".join(self._parts))
            self._parts = None
        if code == 0:
            self._starts.append(p)
            self._lengths.append(sl)
            self._offsets.append(base + p)
            self._ordinals.append(self._next())
        elif code == 1:
            self._parts, self._part_offset, self._part_len = [data[p + 4 : p + sl]], base + p, sl - 4
        elif self._parts is None:
            self._reject(base + p, f"segment at offset {base + p} is a {SEGMENT_NAMES[code]} segment (code {code:02b}) "
                         "but no first segment (01) came before it", data[p : p + sl])
        else:
            self._parts.append(data[p + 4 : p + sl])
            self._part_len += sl - 4
            if code == 2:
                total = 4 + self._part_len
                if total > MAX_LOGICAL:
                    self._reject(self._part_offset, f"spanned record at offset {self._part_offset} is {total} bytes long, "
                                 f"more than an RDW can describe ({MAX_LOGICAL})", b"".join(self._parts))
                else:
                    record = total.to_bytes(2, "big") + b"\x00\x00" + b"".join(self._parts)
                    self._assembled.append((record, self._part_offset, self._next()))
                self._parts = None

    # -- damage -------------------------------------------------------------------------------------------

    def _resync(self, data: bytes, pos: int, base: int, final: bool, starts_at, expected: str) -> int | None:
        """Position of the next safe record start after unreadable bytes at ``pos`` (rejected), or None = need more data."""
        n = len(data)
        limit = n - LOOKAHEAD
        if limit >= pos + 1:
            window = np.frombuffer(data, dtype=np.uint8, count=limit + 4 - (pos + 1), offset=pos + 1)
            # a descriptor has a segment code 0-3 in byte 2 and zero in byte 3: cheap filter before the real check
            candidates = np.flatnonzero((window[2 : limit - pos + 2] <= 3) & (window[3 : limit - pos + 3] == 0)) + pos + 1
            for p in candidates.tolist():
                verdict = starts_at(data, p, final)
                if verdict is None:
                    return None
                if verdict:
                    self._reject(base + pos, f"offset {base + pos}: {expected}; {p - pos} unreadable bytes skipped, "
                                 f"resynchronised at offset {base + p}", data[pos:p])
                    return p
        if final:
            self._reject(base + pos, f"offset {base + pos}: {expected}; no SMF record found in the remaining {n - pos} bytes", data[pos:])
            return n
        if limit - pos > GARBAGE_FLUSH:
            self._reject(base + pos, f"offset {base + pos}: {expected}; {limit - pos} unreadable bytes skipped", data[pos:limit])
            return limit
        return None

    def _reject(self, offset: int, reason: str, raw: bytes) -> None:
        self._rejects.append(FramingReject(offset, self._next(), reason, bytes(raw[:REJECT_KEEP]) if len(raw) > MAX_LOGICAL else bytes(raw)))

    def _next(self) -> int:
        self.ordinal += 1
        return self.ordinal - 1

    def _take_rejects(self) -> list[FramingReject]:
        out, self._rejects = self._rejects, []
        return out

    def _flush(self, data: bytes) -> RecordBatch:
        starts = np.array(self._starts, dtype=np.int64)
        lengths = np.array(self._lengths, dtype=np.int64)
        offsets = np.array(self._offsets, dtype=np.int64)
        ordinals = np.array(self._ordinals, dtype=np.int64)
        buffer = data
        if self._assembled:
            extra = [a[0] for a in self._assembled]
            sizes = np.array([len(r) for r in extra], dtype=np.int64)
            starts = np.concatenate([starts, len(data) + np.cumsum(sizes) - sizes])
            lengths = np.concatenate([lengths, sizes])
            offsets = np.concatenate([offsets, np.array([a[1] for a in self._assembled], dtype=np.int64)])
            ordinals = np.concatenate([ordinals, np.array([a[2] for a in self._assembled], dtype=np.int64)])
            buffer += b"".join(extra)
            order = np.argsort(ordinals, kind="stable")
            starts, lengths, offsets, ordinals = starts[order], lengths[order], offsets[order], ordinals[order]
        self._starts, self._lengths, self._offsets, self._ordinals, self._assembled = [], [], [], [], []
        # zero padding after the last record lets decoders gather fixed-width windows near the end
        return RecordBatch(np.frombuffer(buffer + bytes(TAIL_PAD), dtype=np.uint8), starts, lengths, ordinals, offsets)
