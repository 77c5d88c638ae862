"""Suites for the disc and line shift marts ("the same technique for DISC, LINE", King 1986).

* ``marts.fct_disc_shift``: one row per volume and shift; the cache hit ratio within 0-1; no negative
  busy, queue or rate; WRITE BUSY never more than DISC BUSY (DISC BUSY is read busy + write busy).
* ``marts.fct_line_shift``: one row per line and shift; no negative busy, rate or response time; read and
  write busy each never more than the line's busy (their sum).

Disc and line busy are not capped at 100 %: both add read and write busy, which a mirrored volume or a
full-duplex line can do at the same time. The ordering checks compare shift averages, which keep the
order of the hourly values they average over the same hours.
"""

from __future__ import annotations

import great_expectations.expectations as gxe

from quality import slice as slicing
from quality.suite import Suite, check, not_negative, one_row_per

ORDER_TOLERANCE = 1e-9

DEVICE_SHIFT_KEY = ("system_name", "device_name", "shift_date", "shift")
DISC_MEASURES = ("busy_pct", "write_busy_pct", "seek_busy_pct", "device_qbusy_pct", "request_qlen",
                 "cache_hit_ratio", "bytes_per_s", "requests_per_s")
LINE_MEASURES = ("busy_pct", "read_busy_pct", "write_busy_pct", "requests_per_s", "bytes_per_s",
                 "data_bytes_per_s", "retries_per_s", "transactions_per_s", "response_ms")

def _shift_filter(sliced: bool) -> str:
    return f"where {slicing.on_shift_dates('facts.system_name', 'facts.shift_date')}" if sliced else ""


def disc_query(sliced: bool) -> str:
    return f"""
select
    {", ".join(DEVICE_SHIFT_KEY)},
    {", ".join(f"{m}_{a}" for m in DISC_MEASURES for a in ("avg", "max", "min"))},
    write_busy_pct_avg - busy_pct_avg as write_busy_over_busy_pct,
from marts.fct_disc_shift as facts
{_shift_filter(sliced)}
"""

def line_query(sliced: bool) -> str:
    return f"""
select
    {", ".join(DEVICE_SHIFT_KEY)},
    {", ".join(f"{m}_min" for m in LINE_MEASURES)},
    greatest(read_busy_pct_avg, write_busy_pct_avg) - busy_pct_avg as direction_busy_over_busy_pct,
from marts.fct_line_shift as facts
{_shift_filter(sliced)}
"""


def disc_expectations():
    return [
        one_row_per("one_row_per_volume_shift", DEVICE_SHIFT_KEY, "system, volume, shift date and shift"),
        *[
            check(f"cache_hit_ratio_{a}_in_range", f"cache_hit_ratio_{a} is a ratio within 0-1",
                  gxe.ExpectColumnValuesToBeBetween(column=f"cache_hit_ratio_{a}", min_value=0, max_value=1))
            for a in ("avg", "max", "min")
        ],
        *[not_negative(f"{m}_min") for m in DISC_MEASURES if m != "cache_hit_ratio"],
        check("write_busy_within_busy", "WRITE BUSY is part of DISC BUSY, never more",
              gxe.ExpectColumnValuesToBeBetween(column="write_busy_over_busy_pct", max_value=ORDER_TOLERANCE)),
    ]


def line_expectations():
    return [
        one_row_per("one_row_per_line_shift", DEVICE_SHIFT_KEY, "system, line, shift date and shift"),
        *[not_negative(f"{m}_min") for m in LINE_MEASURES],
        check("read_and_write_busy_within_busy", "read busy and write busy are parts of the line's busy, never more",
              gxe.ExpectColumnValuesToBeBetween(column="direction_busy_over_busy_pct", max_value=ORDER_TOLERANCE)),
    ]


SUITES = [
    Suite.framed("marts.fct_disc_shift", disc_query, disc_expectations, description="disc volumes per shift",
                 row_id=DEVICE_SHIFT_KEY),
    Suite.framed("marts.fct_line_shift", line_query, line_expectations, description="communication lines per shift",
                 row_id=DEVICE_SHIFT_KEY),
]
