"""Writes MEASCOM ``LIST`` report text: the inverse of ``meascom_report``.

    write_report(f, table, records, rate_on=True, *, prompt=13) -> int

``f`` is a text file open for writing; ``table`` a raw MEASURE table (``measure_cpu``, ``measure_process``,
``measure_disc``, ``measure_line``, ``measure_userdef``, ``measure_file``, ``measure_discopen``; the
``measure_`` prefix may be left off); ``records`` an iterable of mappings keyed by the contract columns of
docs/measure_raw_contract.md in raw units (busy/queue µs, counts, bytes; ``delta_time`` µs,
``from_timestamp`` a ``datetime``). Returns the next prompt number, so several listings can share a file.

Output, for ``write_report(f, "measure_cpu", [cpu2], rate_on=False)``::

    13+ SET REPORT RATE OFF
    14+ LIST CPU *
    Cpu 2 NSR-W Init Lock Pgs 144 Mem Pages 8192
    Memory MB 128 PCBs 1800 Pg Size 16384 Bytes
    Local System \\TAHITI From 7 Feb 1997, 12:03:32 For 43.6 Seconds
    Cpu-Busy-Time 1,530.36 ms Swaps
    ...
    15+ SET REPORT RATE ON

A RATE OFF listing is followed by ``SET REPORT RATE ON`` so every call leaves the session at MEASCOM's
default and a RATE ON listing needs no SET command (as in the User's Guide sample, reports.md 1.1).

Display rules (reports.md §2, counters.md §1; where the manual is silent the choice is perfdb's and the
parser accepts more than this writes): a zero (or missing) counter prints its label only; RATE ON rates and
average queue lengths print two decimals below 1,000 and a rounded integer with thousands separators from
1,000 up (``946.94``, ``1,548``); percentages print two decimals and ``%``; counts print with separators and
``#``, scaled by 1000s with ``K`` ``M`` ``G`` ``T`` (truncated) when wider than 10 characters
(``4,294,967 K``); times print two decimals in ``ms`` below 1,000,000 ms, else ``sec``, ``hr``, ``day``,
``wk``. The ``For`` duration prints one decimal of Seconds below a minute, Minutes below an hour, else
Hours. A CPU's type prints as ``cpu_type_name`` when given, else as the ``cpu_type`` number.
"""

from __future__ import annotations

import re
from datetime import datetime
from itertools import groupby
from typing import Iterable, Mapping, TextIO

from ingest.formats.measure.meascom_labels import (
    BUSY,
    ID_LINES,
    INC,
    LAYOUTS,
    MAX,
    QUEUE,
    RESP,
    RESP_COUNTS,
    SNAP,
    USERDEF_TYPE_WORDS,
    USERDEF_TYPES,
    column_of,
)

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_USERDEF_KIND = {code: kind for code, kind in USERDEF_TYPES.values()}
_USERDEF_BLOCK_KEY = (
    "system_name", "cpu_num", "pin", "process_name", "program_file_name", "priority", "userid", "creatorid",
    "from_timestamp", "delta_time",
)


def write_report(
    f: TextIO,
    table: str,
    records: Iterable[Mapping],
    rate_on: bool = True,
    *,
    prompt: int = 13,
) -> int:
    entity = table.lower().removeprefix("measure_")
    if entity not in ID_LINES:
        raise ValueError(f"write_report: no MEASCOM layout for table {table!r}; known: {', '.join(ID_LINES)}")
    if not rate_on:
        f.write(f"{prompt}+ SET REPORT RATE OFF\n")
        prompt += 1
    f.write(f"{prompt}+ LIST {entity.upper()} *\n")
    prompt += 1
    if entity == "userdef":
        # one block per process and interval; its counters are consecutive records
        for _key, group in groupby(records, key=lambda r: tuple(r.get(k) for k in _USERDEF_BLOCK_KEY)):
            group = list(group)
            _write_head(f, entity, group[0])
            for rec in group:
                f.write(_userdef_line(rec, rate_on))
    else:
        for rec in records:
            _write_head(f, entity, rec)
            _write_counters(f, entity, rec, rate_on)
    if not rate_on:
        f.write(f"{prompt}+ SET REPORT RATE ON\n")
        prompt += 1
    return prompt


def _write_head(f: TextIO, entity: str, rec: Mapping) -> None:
    values = dict(rec)
    if entity == "cpu" and values.get("cpu_type_name") is None and values.get("cpu_type") is not None:
        values["cpu_type_name"] = str(values["cpu_type"])
    for n, parts in enumerate(ID_LINES[entity]):
        printed = [_fill(part, values) for part in parts]
        if n == 0 and printed[0] is None:
            missing = ", ".join(_PLACEHOLDER.findall(parts[0]))
            raise ValueError(f"write_report: a {entity} record needs {missing} (got {dict(rec)!r})")
        line = " ".join(p for p in printed if p is not None)
        if line:
            f.write(line + "\n")
    f.write(_local_line(rec))


def _fill(part: str, values: Mapping) -> str | None:
    names = _PLACEHOLDER.findall(part)
    if any(values.get(name) is None for name in names):
        return None
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), part)


def _local_line(rec: Mapping) -> str:
    system = str(rec["system_name"])
    if not system.startswith("\\"):
        system = "\\" + system
    ts = rec["from_timestamp"]
    if not isinstance(ts, datetime) and hasattr(ts, "to_pydatetime"):
        ts = ts.to_pydatetime()
    delta = _delta(rec)
    seconds = delta / 1e6
    if seconds < 60:
        duration = f"{seconds:.1f} Seconds"
    elif seconds < 3600:
        duration = f"{seconds / 60:.1f} Minutes"
    else:
        duration = f"{seconds / 3600:.1f} Hours"
    return f"Local System {system} From {ts.day} {MONTHS[ts.month - 1]} {ts.year}, {ts:%H:%M:%S} For {duration}\n"


def _delta(rec: Mapping) -> int:
    delta = rec.get("delta_time")
    if not delta or delta <= 0:
        raise ValueError(f"write_report: delta_time must be a positive number of microseconds, got {delta!r}")
    return int(delta)


def _write_counters(f: TextIO, entity: str, rec: Mapping, rate_on: bool) -> None:
    delta = _delta(rec)
    for row in LAYOUTS[entity]:
        groups = []
        for label, kind in row:
            column = column_of(label)
            count = rec.get(RESP_COUNTS[column]) if kind == RESP else None
            value = display(kind, rec.get(column), delta, rate_on, count)
            groups.append(f"{label} {value}" if value else label)
        f.write(" ".join(groups) + "\n")


def _userdef_line(rec: Mapping, rate_on: bool) -> str:
    code = int(rec["type"])
    kind = _USERDEF_KIND.get(code)
    if kind is None:
        raise ValueError(f"write_report: USERDEF type {code} is not one of {sorted(USERDEF_TYPE_WORDS)}")
    value = display(kind, rec.get("counter_value"), _delta(rec), rate_on)
    head = f"{rec['name']} {value}" if value else str(rec["name"])
    if kind == QUEUE:
        return f"{head} Max {int(rec.get('max_value') or 0):,} # {USERDEF_TYPE_WORDS[code]} {int(rec['index'])}\n"
    return f"{head} {USERDEF_TYPE_WORDS[code]} {int(rec['index'])}\n"


def display(kind: str, raw, delta: int, rate_on: bool, count=None) -> str:
    """The printed value (with its unit) of a raw counter; '' when MEASCOM prints the label only."""
    if not raw:
        return ""
    if kind in (MAX, SNAP):
        return _count(raw)
    if not rate_on:
        return _count(raw) if kind == INC else _time(raw)
    if kind == INC:
        return _decimal(raw * 1e6 / delta)
    if kind == BUSY:
        return f"{raw * 100 / delta:.2f} %"
    if kind == QUEUE:
        return _decimal(raw / delta) + " #"
    # RESP: average time per counted event; without events there is no average to show
    return _time(raw / count) if count else ""


def _decimal(x: float) -> str:
    return f"{round(x):,}" if abs(x) >= 999.995 else f"{x:.2f}"


def _count(v) -> str:
    v = int(v)
    sign, v = ("-" if v < 0 else ""), abs(v)
    text, suffix = f"{v:,}", "#"
    for scale in "KMGT":
        if len(sign + text) <= 10:
            break
        v //= 1000  # truncated: reports.md does not say whether MEASCOM rounds
        text, suffix = f"{v:,}", scale
    return f"{sign}{text} {suffix}"


def _time(us: float) -> str:
    for unit, size in (("ms", 1e3), ("sec", 1e6), ("hr", 3.6e9), ("day", 8.64e10)):
        if abs(us / size) < 999_999.995:
            return f"{us / size:,.2f} {unit}"
    return f"{us / 6.048e11:,.2f} wk"
