"""Vectorised decoding of SMF fields: every record of a batch at once, one numpy gather per section.

Decoding field by field with ``struct`` costs a few microseconds per record and caps a Python
decoder near 10 MB/s. Here every section instance of a batch is a row of a :class:`Sections`
object (where the instance starts in the batch buffer, how long it is); a field is read for all
rows at once as an ``(n, width)`` byte matrix (a column slice of the section's gathered bytes) and
converted as a whole (big-endian integers, EBCDIC, packed decimal, TOD clock, IP addresses, HFP).

Field presence follows the SMF rule for sections that grew over releases: a field that does not lie
wholly inside ``[start, start + length)`` of its instance is NULL, never bytes of the next section.

Units produced (see docs/smf_raw_contract.md): durations in microseconds (TOD units are shifted right
by 12 bits, bit 51 = 1 µs; hundredths of a second are multiplied by 10,000), clock times as
``datetime64[us]``, 8-byte counters as int64 (a value of 2**63 or more becomes NULL).
"""

from __future__ import annotations

import ipaddress

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.formats.base import Column
from ingest.formats.smf.ebcdic import TABLES

DAY_HUNDREDTHS = 8_640_000  # hundredths of a second in a day
EPOCH_1900 = np.datetime64("1900-01-01T00:00:00", "us")
_HEX = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)
MAX_SPAN = 512  # bytes of a section gathered at once; fields further out are gathered on demand
_POSITIVE_SIGNS = (0xA, 0xC, 0xE, 0xF)
_NEGATIVE_SIGNS = (0xB, 0xD)


class Sections:
    """Instances of one kind of section, one per row.

    ``rec``: index of the owning record in its batch; ``start``: absolute position of the instance in
    ``buf``; ``length``: the instance length from the triplet (or the record length for the header);
    ``inst``: the instance number inside its record (0-based).

    The first field read gathers the first ``span`` bytes of every instance into one ``(n, span)``
    matrix; later fields are column slices of it, so a section costs one gather, not one per field.
    """

    def __init__(self, buf: np.ndarray, rec: np.ndarray, start: np.ndarray, length: np.ndarray,
                 inst: np.ndarray | None = None, span: int | None = None, block: np.ndarray | None = None):
        self.buf = buf
        self.rec = rec
        self.start = start
        self.length = length
        self.inst = inst if inst is not None else np.zeros(len(rec), dtype=np.int64)
        self.span = span if span is not None else min(int(length.max(initial=0)), MAX_SPAN)
        self._block = block

    def __len__(self) -> int:
        return len(self.rec)

    def take(self, rows: np.ndarray) -> "Sections":
        block = self._block[rows] if self._block is not None else None
        return Sections(self.buf, self.rec[rows], self.start[rows], self.length[rows], self.inst[rows], self.span, block)

    # -- raw access ---------------------------------------------------------------------------------

    def matrix(self, rel: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        """``(n, width)`` bytes of the field and the mask of rows whose section holds all of it."""
        present = self.length >= rel + width
        if self._block is None or self._block.shape[1] < rel + width:
            self._block = gather(self.buf, self.start, max(self.span, rel + width))
        return self._block[:, rel : rel + width], present

    def uint(self, rel: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        m, present = self.matrix(rel, width)
        return be_uint(m), present

    # -- typed columns (pyarrow arrays, NULL where absent or invalid) ----------------------------------

    def int_col(self, rel: int, width: int) -> pa.Array:
        values, present = self.uint(rel, width)
        return int_array(values, present)

    def signed_col(self, rel: int, width: int) -> pa.Array:
        m, present = self.matrix(rel, width)
        return int_array(be_uint(m).astype(np.uint64).view(np.int64) if width == 8 else _signed(m), present)

    def text_col(self, rel: int, width: int, codepage: str = "cp037") -> pa.Array:
        m, present = self.matrix(rel, width)
        return text_array(m, present, codepage)

    def hex_col(self, rel: int, width: int) -> pa.Array:
        m, present = self.matrix(rel, width)
        return hex_array(m, present)

    def tod_us_col(self, rel: int) -> pa.Array:
        """An 8-byte TOD-unit duration (bit 51 = 1 µs) in microseconds."""
        values, present = self.uint(rel, 8)
        return int_array(values >> np.uint64(12), present)

    def hundredths_us_col(self, rel: int, width: int = 4) -> pa.Array:
        values, present = self.uint(rel, width)
        return int_array(values.astype(np.int64) * 10_000, present)

    def stck_col(self, rel: int) -> pa.Array:
        m, present = self.matrix(rel, 8)
        return ts_array(*stck_timestamp(m, present))

    def ip_col(self, rel: int) -> pa.Array:
        m, present = self.matrix(rel, 16)
        return ip_array(m, present)

    def hfp_col(self, rel: int) -> pa.Array:
        m, present = self.matrix(rel, 8)
        return pa.array(hfp_long(m), mask=~present, type=pa.float64())

    def packed_int_col(self, rel: int, width: int) -> pa.Array:
        m, present = self.matrix(rel, width)
        values, ok = packed_int(m)
        return int_array(values, present & ok)

    def date_time(self, date_rel: int, time_rel: int) -> tuple[np.ndarray, np.ndarray]:
        """A packed date + hundredths-of-a-second time pair: timestamps and where they are valid."""
        dm, dpresent = self.matrix(date_rel, 4)
        tm, tpresent = self.matrix(time_rel, 4)
        days, dok, _ = packed_date(dm)
        hundredths = be_uint(tm)
        ok = dpresent & tpresent & dok & (hundredths < DAY_HUNDREDTHS)
        return days.astype("datetime64[us]") + hundredths.astype(np.int64) * 10_000, ok

    def timestamp_col(self, date_rel: int, time_rel: int) -> pa.Array:
        return ts_array(*self.date_time(date_rel, time_rel))


def gather(buf: np.ndarray, start: np.ndarray, span: int) -> np.ndarray:
    """``buf[start[i] : start[i] + span]`` for every i, as one ``(n, span)`` matrix."""
    if len(start) == 0:
        return np.zeros((0, span), dtype=np.uint8)
    if len(buf) >= span and int(start.max()) + span <= len(buf):
        # a strided view of every window, indexed by row: one copy, no (n, span) index matrix
        return np.lib.stride_tricks.sliding_window_view(buf, span)[start]
    # windows reaching past the buffer end hold only absent fields (masked by the caller)
    index = np.minimum(start[:, None] + np.arange(span), max(len(buf) - 1, 0))
    return buf[index] if len(buf) else np.zeros(index.shape, dtype=np.uint8)


# -- converters on byte matrices -------------------------------------------------------------------------

def be_uint(m: np.ndarray) -> np.ndarray:
    """Big-endian unsigned integers from an ``(n, width)`` byte matrix (width 1-8)."""
    width = m.shape[1]
    if width in (1, 2, 4, 8):
        return np.ascontiguousarray(m).view(f">u{width}")[:, 0].astype(np.uint64 if width == 8 else np.int64)
    out = np.zeros(m.shape[0], dtype=np.int64)
    for i in range(width):
        out = (out << 8) | m[:, i]
    return out


def _signed(m: np.ndarray) -> np.ndarray:
    width = m.shape[1]
    return np.ascontiguousarray(m).view(f">i{width}")[:, 0].astype(np.int64)


def int_array(values: np.ndarray, present: np.ndarray) -> pa.Array:
    if values.dtype == np.uint64:  # 8-byte counters: keep them in BIGINT, values beyond it are not data
        present = present & (values < np.uint64(1 << 63))
        values = values.astype(np.int64)
    return pa.array(values, mask=~present, type=pa.int64())


def ts_array(values: np.ndarray, ok: np.ndarray) -> pa.Array:
    return pa.array(values.astype("datetime64[us]"), mask=~ok, type=pa.timestamp("us"))


def _strings(data: np.ndarray, lengths: np.ndarray) -> pa.Array:
    """Arrow strings from concatenated ASCII bytes and per-row lengths; a length of 0 is NULL."""
    n = len(lengths)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    valid = lengths > 0
    return pa.StringArray.from_buffers(
        n, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(data)),
        pa.py_buffer(np.packbits(valid, bitorder="little")), null_count=int(n - valid.sum()),
    )


def text_array(m: np.ndarray, present: np.ndarray, codepage: str = "cp037") -> pa.Array:
    """EBCDIC byte matrix to text without leading/trailing blanks and NULs; an empty field is NULL."""
    n, width = m.shape
    latin1 = TABLES[codepage][m]
    if (latin1 >= 0x80).any():  # non-ASCII Latin-1 needs two UTF-8 bytes: decode row by row (rare)
        values = [row.tobytes().decode("latin-1").strip(" \x00") if p else "" for row, p in zip(latin1, present)]
        return pa.array([v or None for v in values], pa.string())
    # trim in numpy: keep each row's bytes from its first to its last non-blank, then concatenate
    text = (latin1 != 0x20) & (latin1 != 0)
    first = text.argmax(axis=1)
    last = width - text[:, ::-1].argmax(axis=1)
    lengths = np.where(present & text.any(axis=1), last - first, 0)
    columns = np.arange(width)
    keep = (columns >= first[:, None]) & (columns < (first + lengths)[:, None])
    return _strings(latin1[keep], lengths)


def hex_array(m: np.ndarray, present: np.ndarray) -> pa.Array:
    """Bytes as upper-case hex digits (e.g. SMF70SER, documented as packed but really hex)."""
    out = np.empty((m.shape[0], m.shape[1] * 2), dtype=np.uint8)
    out[:, 0::2] = _HEX[m >> 4]
    out[:, 1::2] = _HEX[m & 0xF]
    lengths = np.where(present, out.shape[1], 0)
    return _strings(out[present], lengths)


def packed_digits(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Digits (all nibbles but the last), sign nibble, and whether every digit is 0-9."""
    n, width = m.shape
    nibbles = np.empty((n, width * 2), dtype=np.int64)
    nibbles[:, 0::2] = m >> 4
    nibbles[:, 1::2] = m & 0xF
    digits = nibbles[:, :-1]
    return digits, nibbles[:, -1], (digits <= 9).all(axis=1)


def packed_int(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Packed decimal to integers; ``ok`` is False for a non-digit nibble or an unknown sign."""
    digits, sign, digits_ok = packed_digits(m)
    powers = 10 ** np.arange(digits.shape[1] - 1, -1, -1, dtype=np.int64)
    values = np.where(digits_ok[:, None], digits, 0) @ powers
    negative = np.isin(sign, _NEGATIVE_SIGNS)
    ok = digits_ok & (np.isin(sign, _POSITIVE_SIGNS) | negative)
    return np.where(negative, -values, values), ok


def packed_date(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``0cyydddF`` (4 bytes) to dates: (datetime64[D], ok, absent).

    ``c`` is the century (0 -> 19yy, 1 -> 20yy). ``X'0000000F'`` (type 119: "no data") and all-zero
    bytes are *absent*, not bad: the field is NULL without an error.
    """
    digits, sign, digits_ok = packed_digits(m)
    absent = (m[:, :3] == 0).all(axis=1) & ((m[:, 3] == 0x0F) | (m[:, 3] == 0))
    century, yy, ddd = digits[:, 1], digits[:, 2] * 10 + digits[:, 3], digits[:, 4] * 100 + digits[:, 5] * 10 + digits[:, 6]
    year = 1900 + 100 * century + yy
    jan1 = (year - 1970).astype("datetime64[Y]").astype("datetime64[D]")
    days_in_year = ((year + 1 - 1970).astype("datetime64[Y]").astype("datetime64[D]") - jan1).astype(np.int64)
    ok = digits_ok & (digits[:, 0] == 0) & (century <= 2) & np.isin(sign, (0xC, 0xF)) & (ddd >= 1) & (ddd <= days_in_year)
    return jan1 + np.where(ok, ddd - 1, 0), ok & ~absent, absent


def stck_timestamp(m: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """8-byte STCK values (epoch 1900-01-01, bit 51 = 1 µs) to timestamps; zero means not set."""
    raw = be_uint(m)
    ok = present & (raw != 0)
    return EPOCH_1900 + (raw >> np.uint64(12)).astype(np.int64), ok


def hfp_long(m: np.ndarray) -> np.ndarray:
    """IBM hexadecimal floating point, long form: sign, excess-64 base-16 exponent, 56-bit fraction."""
    first = m[:, 0].astype(np.int64)
    fraction = (be_uint(m) & np.uint64((1 << 56) - 1)).astype(np.float64) / float(1 << 56)
    value = fraction * np.power(16.0, (first & 0x7F) - 64)
    return np.where(first & 0x80, -value, value)


def ip_array(m: np.ndarray, present: np.ndarray) -> pa.Array:
    """128-bit addresses to text: IPv4-mapped (``::ffff:a.b.c.d``) as dotted quad, others as IPv6."""
    n = m.shape[0]
    if n == 0:
        return pa.array([], pa.string())
    mapped = (m[:, :10] == 0).all(axis=1) & (m[:, 10] == 0xFF) & (m[:, 11] == 0xFF)
    unset = (m == 0).all(axis=1) | ~present
    octets = [pa.array(m[:, 12 + i]).cast(pa.string()) for i in range(4)]
    text = pc.binary_join_element_wise(*octets, ".")
    v6 = np.flatnonzero(~mapped & ~unset)
    if len(v6):  # ipaddress gives the canonical compressed form
        other: list[str | None] = [None] * n
        for i in v6.tolist():
            other[i] = str(ipaddress.IPv6Address(m[i].tobytes()))
        text = pc.if_else(pa.array(mapped), text, pa.array(other, pa.string()))
    return pc.if_else(pa.array(unset), pa.scalar(None, pa.string()), text)


# -- field tables --------------------------------------------------------------------------------------------

_KINDS = {
    "int": lambda s, rel, width: s.int_col(rel, width),
    "signed": lambda s, rel, width: s.signed_col(rel, width),
    "text": lambda s, rel, width: s.text_col(rel, width),
    "hex": lambda s, rel, width: s.hex_col(rel, width),
    "tod_us": lambda s, rel, width: s.tod_us_col(rel),
    "cs_us": lambda s, rel, width: s.hundredths_us_col(rel, width),
    "u128_us": lambda s, rel, width: _scaled(s, rel, width, 128),  # 128-microsecond units (device connect)
    "u1024_us": lambda s, rel, width: _scaled(s, rel, width, 1024),  # 1.024 ms "service units of time"
    "packed": lambda s, rel, width: s.packed_int_col(rel, width),
    "ip": lambda s, rel, width: s.ip_col(rel),
    "hfp": lambda s, rel, width: s.hfp_col(rel),
    "stck": lambda s, rel, width: s.stck_col(rel),
}


def _scaled(s: Sections, rel: int, width: int, factor: int) -> pa.Array:
    values, present = s.uint(rel, width)
    return int_array(values.astype(np.int64) * factor, present)


# A field table row: (column name, offset in the section, width, kind, description). The description is
# the column's in the raw table (``columns``): the field's SMF name and what it means.
FieldSpec = tuple[str, int, int, str, str]

# Arrow type of each kind's column
KIND_TYPES = {
    **dict.fromkeys(("int", "signed", "tod_us", "cs_us", "u128_us", "u1024_us", "packed"), pa.int64()),
    **dict.fromkeys(("text", "hex", "ip"), pa.string()),
    "hfp": pa.float64(),
    "stck": pa.timestamp("us"),
}


def decode_fields(s: Sections, spec: list[FieldSpec]) -> dict[str, pa.Array]:
    """Columns for a field table."""
    return {name: _KINDS[kind](s, rel, width) for name, rel, width, kind, *_ in spec}


# kinds decoded from unsigned binary fields: counts and accumulated times, never negative (a negative value
# is an 8-byte field beyond the range of a 64-bit integer)
CUMULATIVE_KINDS = frozenset(("int", "tod_us", "cs_us", "u128_us", "u1024_us"))


def columns(spec: list[FieldSpec]) -> tuple[Column, ...]:
    """The raw-table columns a field table decodes into."""
    return tuple(Column(name, KIND_TYPES[kind], doc, cumulative=kind in CUMULATIVE_KINDS)
                 for name, _rel, _width, kind, doc, *_ in spec)
