"""Plausibility at ingest: values no measurement can have become rejects with their position, not rows.

Checked where a parser's batch meets its ``RawTable`` (``loading``), for every table the declarations
say how: every timestamp or date column, the ``cumulative`` counters, the natural key (less its
``optional`` columns) and the declared integer widths. A record is implausible when

- a time is before 1970-01-02 (a zero or garbled clock) or more than a day after the file's own time
  (its modification time: nothing is measured after the file that holds it was written; the day covers
  the measured system's time zone),
- a cumulative counter is negative (or wrapped past its type's range into the negatives),
- a value does not fit its declared type (a 32-bit column given more than 32 bits, a float that is
  infinite or not a number),
- a float beyond ``FLOAT_LIMIT`` (2**64: no counter is wider, so no measurement derived from one is larger;
  ``1e29`` is a garbled number), in a declared column or in one an open table's file adds,
- a value beyond its column's declared bound: ``positive`` (an interval of 0 or less), ``maximum`` (a level),
  ``max_per_s`` (a counter that grew faster than its unit allows over the record's interval, e.g. a busy
  time near 2**63 µs that fits BIGINT but no interval of an hour accumulates),
- a label (a text column not declared ``verbatim``, or text an open table's file adds) holds a control
  character (U+0000-U+001F, U+007F-U+009F): the record's bytes are damaged (a misread binary field, a
  terminal escape). Rejected, not cleaned: a label is an identity (a system, a process, a volume), and a
  cleaned one would pass for a name the system never had, or merge two that differ,
- a natural-key column is NULL.

The record is rejected whole: one ``raw.rejects`` row naming its line or offset and the first check it
failed, and none of its rows in any table (``RawTable.per_record``). Each reject carries its rule
(``RULES``), which the manifest counts per file (``raw.ingest_files.rejects_by_rule``). For example a MEASURE CSV row with
``cpu-busy-time`` ``-5`` gives the reject ``line 3: implausible: cpu_busy_time -5 is negative (a
cumulative counter)``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from ingest.formats.base import Column, RawTable, Reject

# the rules a plausibility reject is counted under in the manifest (``Reject.rule``)
RULES = ("null_key", "before_1970", "after_file", "beyond_type", "not_finite", "beyond_float_limit",
         "negative_counter", "not_positive", "beyond_maximum", "beyond_rate", "control_character")
FLOAT_LIMIT = 2.0 ** 64
CONTROL = "[\\x00-\\x1f\\x7f-\\x9f]"  # RE2 class of the C0 and C1 control characters and DEL
EARLIEST = dt.datetime(1970, 1, 2)
FUTURE_SLACK = dt.timedelta(days=1)
_SHOWN_BYTES = 4096


def latest_time(path: Path) -> dt.datetime:
    """The latest plausible time in ``path``: a day after its modification time (UTC)."""
    written = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc).replace(tzinfo=None)
    return written + FUTURE_SLACK


class Screen:
    """One file's plausibility checks: the records rejected so far, by ordinal, and their rejects."""

    def __init__(self, latest: dt.datetime):
        self.latest = latest
        self.rejected: dict[int, Reject] = {}

    def check(self, table: RawTable, rows: pa.Table) -> pa.Table:
        """``rows`` without those of rejected records: records found implausible in this batch, and records
        rejected in an earlier batch (their other rows)."""
        if not table.per_record or rows.num_rows == 0:
            return rows
        bad = self._first_problem(table, rows)
        if bad:
            ordinals = rows.column("record_ordinal").to_pylist()
            for i, (rule, reason) in sorted(bad.items()):
                ordinal = ordinals[i]
                if ordinal not in self.rejected:
                    self.rejected[ordinal] = _reject(table, rows, i, ordinal, rule, reason)
        return drop_records(rows, self.rejected)

    def _first_problem(self, table: RawTable, rows: pa.Table) -> dict[int, tuple[str, str]]:
        """Row index -> (rule, reason) of the first check it fails; empty when every row is plausible (the
        usual case, which costs one vectorised test per checked column)."""
        found: dict[int, tuple[str, str]] = {}
        names = set(rows.column_names)
        declared = set(table.column_names)
        interval = rows.column(table.interval) if table.interval in names else None
        added = [Column(n, rows.column(n).type) for n in rows.column_names if n not in declared and n != "record_ordinal"]
        for column in (*table.columns, *added):
            if column.name not in names:
                if column.name in table.natural_key and not column.optional:
                    for i in range(rows.num_rows):
                        found.setdefault(i, ("null_key", f"{column.name} is NULL (part of the natural key)"))
                continue
            for i, rule, reason in _column_problems(column, rows.column(column.name), table, self.latest, interval):
                found.setdefault(i, (rule, reason))
        return found


def _column_problems(column: Column, values: pa.ChunkedArray, table: RawTable, latest: dt.datetime,
                     interval: pa.ChunkedArray | None):
    """(row index, rule, reason) for each value of ``column`` that fails a check; ``interval``: the records'
    interval lengths in µs (``RawTable.interval``), for ``Column.max_per_s``."""
    declared, given = column.type, values.type
    numeric = pa.types.is_integer(given) or pa.types.is_floating(given)
    checks = []
    if column.name in table.natural_key and not column.optional:
        checks.append(("null_key", pc.is_null(values), lambda v: f"{column.name} is NULL (part of the natural key)"))
    if pa.types.is_timestamp(given) or pa.types.is_date(given):
        earliest, last = (EARLIEST, latest) if pa.types.is_timestamp(given) else (EARLIEST.date(), latest.date())
        checks.append(("before_1970", pc.less(values, pa.scalar(earliest, given)),
                       lambda v: f"{column.name} {v} is before {EARLIEST:%Y-%m-%d}"))
        checks.append(("after_file", pc.greater(values, pa.scalar(last, given)),
                       lambda v: f"{column.name} {v} is more than a day after the file was written"))
    if pa.types.is_integer(declared) and pa.types.is_integer(given) and given.bit_width > declared.bit_width:
        info = _int_range(declared)
        checks.append(("beyond_type", pc.or_(pc.less(values, info[0]), pc.greater(values, info[1])),
                       lambda v: f"{column.name} {v} is beyond the range of {declared}"))
    if pa.types.is_floating(given):
        checks.append(("not_finite", pc.invert(pc.is_finite(values)), lambda v: f"{column.name} {v} is not a finite number"))
        checks.append(("beyond_float_limit", pc.greater(pc.abs(values), FLOAT_LIMIT),
                       lambda v: f"{column.name} {v} is beyond {FLOAT_LIMIT:.4g} (2**64, the widest counter)"))
    if column.cumulative and numeric:
        checks.append(("negative_counter", pc.less(values, pa.scalar(0, given)),
                       lambda v: f"{column.name} {v} is negative (a cumulative counter)"))
    if column.positive and numeric:
        checks.append(("not_positive", pc.less_equal(values, pa.scalar(0, given)),
                       lambda v: f"{column.name} {v} is not positive"))
    if column.maximum is not None and numeric:
        checks.append(("beyond_maximum", pc.greater(values, column.maximum),
                       lambda v: f"{column.name} {v} is beyond {column.maximum:.4g}, the most it can be"))
    if column.max_per_s is not None and numeric and interval is not None:
        most = pc.multiply(pc.divide(pc.cast(interval, pa.float64(), safe=False), 1e6), column.max_per_s)
        checks.append(("beyond_rate", pc.greater(pc.cast(values, pa.float64(), safe=False), most),
                       lambda v: f"{column.name} {v} is more than {column.max_per_s:.4g} per second of the record's "
                                 f"interval ({table.interval}) can accumulate"))
    if pa.types.is_string(given) and not column.verbatim:
        checks.append(("control_character", pc.match_substring_regex(values, CONTROL),
                       lambda v: f"{column.name} {v!r} holds a control character"))
    for rule, mask, reason in checks:
        mask = pc.fill_null(mask, False)
        if not pc.any(mask).as_py():
            continue
        for i in pc.indices_nonzero(mask).to_pylist():
            yield i, rule, reason(values[i].as_py())


def _int_range(t: pa.DataType) -> tuple[int, int]:
    bits = t.bit_width
    return (0, 2 ** bits - 1) if pa.types.is_unsigned_integer(t) else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def drop_records(rows: pa.Table, rejected: dict[int, Reject]) -> pa.Table:
    """``rows`` less those of the ``rejected`` record ordinals."""
    if not rejected or rows.num_rows == 0:
        return rows
    gone = pc.is_in(rows.column("record_ordinal"), value_set=pa.array(list(rejected), pa.int64()))
    return rows.filter(pc.invert(pc.fill_null(gone, False)))


def _reject(table: RawTable, rows: pa.Table, i: int, ordinal: int, rule: str, reason: str) -> Reject:
    """The reject of record ``ordinal`` at row ``i``: its file line or offset when the table has one, the
    reason, and the row as ``name=value`` pairs (the record's bytes are the parser's, gone by now)."""
    if rule not in RULES:  # the manifest's counts name only the rules documented
        raise ValueError(f"unknown plausibility rule {rule!r}")
    row = {name: rows.column(name)[i].as_py() for name in rows.column_names}
    shown = "; ".join(f"{k}={v}" for k, v in row.items() if v is not None)
    line = row.get("line_number")
    offset = row.get("byte_offset")
    return Reject(f"implausible in raw.{table.name}: {reason}", shown.encode("utf-8", "replace")[:_SHOWN_BYTES],
                  offset=offset if isinstance(offset, int) else None, line=line if isinstance(line, int) else None,
                  record_ordinal=ordinal, rule=rule)
