"""Julian timestamps, the 64-bit time of MEASURE records (FROM-TIMESTAMP, TO-TIMESTAMP).

Guardian ``JULIANTIMESTAMP`` counts microseconds since 12:00 noon, 1 January 4713 B.C. (Julian date 0.0).
Measure stores local civil time in it and nothing in the value says which zone, so the result is a naive
wall-clock TIMESTAMP of the measured system. Worked example from the SQL/MX reference manual:

    211696834500000000  <->  1996-04-21 08:15:00

Outputs: ``to_datetime``/``from_datetime`` for one value, ``to_timestamps`` for a whole column (Arrow
``timestamp[us]``), and the plausibility range used to tell a record header from garbage.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# 1970-01-01 00:00:00 is Julian date 2440587.5; x 86 400 000 000 µs per day
UNIX_EPOCH_JULIAN_US = 210_866_760_000_000_000

_UNIX_EPOCH = datetime(1970, 1, 1)


def from_datetime(value: datetime) -> int:
    """A naive local datetime -> Julian timestamp (µs)."""
    delta = value.replace(tzinfo=None) - _UNIX_EPOCH
    return UNIX_EPOCH_JULIAN_US + (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def to_datetime(jts: int) -> datetime:
    """A Julian timestamp (µs) -> naive local datetime."""
    return _UNIX_EPOCH + timedelta(microseconds=int(jts) - UNIX_EPOCH_JULIAN_US)


# Measure runs on systems built from 1975 on; a header outside this window is not a header.
PLAUSIBLE_FROM_US = from_datetime(datetime(1975, 1, 1))
PLAUSIBLE_TO_US = from_datetime(datetime(2200, 1, 1))


def plausible(jts: np.ndarray) -> np.ndarray:
    """Element-wise: does this int64 column hold Julian timestamps of a believable measurement?"""
    return (jts >= PLAUSIBLE_FROM_US) & (jts < PLAUSIBLE_TO_US)


def to_timestamps(jts: np.ndarray | pa.Array) -> pa.Array:
    """A column of Julian timestamps -> Arrow ``timestamp[us]`` (nulls stay null)."""
    if isinstance(jts, (pa.Array, pa.ChunkedArray)):
        return pc.subtract(jts.cast(pa.int64()), UNIX_EPOCH_JULIAN_US).cast(pa.timestamp("us"))
    return pa.array(np.asarray(jts, dtype=np.int64) - UNIX_EPOCH_JULIAN_US, pa.int64()).cast(pa.timestamp("us"))
