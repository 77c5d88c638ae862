"""Decoded MEASURE items -> the raw contract (docs/measure_raw_contract.md), shared by every form.

Input: columns named after DDL items in snake_case, as the binary decoder or the CSV reader found them,
e.g. ``{"system_name": ["TAHITI"], "from_timestamp": [211696834500000000], "cpu_busy_time": [...],
"program_file_name_volume": ["$SYSTEM"], ...}``. Output: one Arrow table per batch with the contract's
columns, names and types first (``record_ordinal``, ``source_form``, header, entity columns; NULL where a
form lacks an item) followed by every other item as an extra column.

Rules applied here, once for all forms:
* Julian timestamps (integers) -> TIMESTAMP (local civil time, see ``julian``);
* ``system_name`` gets exactly one leading backslash (``\\TAHITI``); text items lose trailing blanks and
  a blank item is NULL (so a blank LOADID is NULL);
* version groups ``letter`` + ``number`` -> text (``os_version`` = ``G06``);
* Guardian file-name groups ``volume``/``subvol``/``filename`` -> ``$VOL.SUBVOL.FILE``;
  ``userid``/``creatorid`` groups ``group``/``user`` -> ``g,u``;
* overflow: where ``error = -1`` the 32-bit item ``x`` takes the value of its 64-bit twin ``x_f``;
* USERDEF: ZMS ``value`` -> ``counter_value``; legacy ``count-value`` (type 1, ACCUM) or ``time-value``
  (the other types); counter ``name`` upper case;
* DISC: ``cache_hits``/``cache_misses`` = sum of the cache group's ``hits``/``misses`` over the block sizes;
* FILE/DISCOPEN: ``opener_cpu`` falls back to the header ``cpu_num`` (the ZMS FILE record has no
  opener-cpu item: a FILE entity is measured in the opener's processor);
* TERMINAL: the ``terminal-name`` group's ``line-name`` and ``subdev-name`` -> ``line_name``, ``subdev_name``.

``to_items`` is the inverse used by the encoder: contract columns -> the items of a given layout.
"""

from __future__ import annotations

import re
from datetime import datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ingest.formats.measure import julian, tables

I64, STR, TS = pa.int64(), pa.string(), pa.timestamp("us")

# the contract as this module reads it: entity table -> {column: type} of the columns after the header
ENTITY_COLUMNS: dict[str, dict[str, pa.DataType]] = {
    e.table: {c.name: c.type for c in (*e.ids, *e.counters)} for e in tables.ENTITIES
}


def contract_columns(table: str) -> dict[str, pa.DataType]:
    """Column -> Arrow type for a raw table; tables outside the contract get the record and header columns."""
    return {c.name: c.type for c in tables.table_for(table).columns}


# record-name stems (zmscpu -> cpu, zmsdopen -> dopen, legacy "discopen") -> raw table entity
_ENTITY_OF_STEM = {
    "cpu": "cpu", "proc": "process", "process": "process", "disc": "disc", "udef": "userdef",
    "userdef": "userdef", "file": "file", "dopen": "discopen", "discopen": "discopen", "line": "line",
    "term": "terminal", "terminal": "terminal", "nline": "netline", "netline": "netline",
}


def table_for_record(record_name: str) -> str:
    """``zmscpu`` / ``cpu`` -> ``measure_cpu``; an unknown record ``foo`` -> ``measure_foo``."""
    stem = record_name.lower()
    stem = stem[3:] if stem.startswith("zms") and len(stem) > 3 else stem
    return "measure_" + _ENTITY_OF_STEM.get(stem, re.sub(r"[^a-z0-9]+", "_", stem).strip("_"))


LOADER_COLUMNS = ("record_ordinal", "source_form", "source_file_id")
# TERMINAL: the group terminal-name holds line-name and subdev-name, the contract's line_name and subdev_name
TERMINAL_NAME, TERMINAL_NAME_ITEMS = "terminal_name_", ("line_name", "subdev_name")
USERDEF_ACCUM = 1  # TYPE 1: 32-bit accumulating counter, read from COUNT-VALUE in legacy records
_NULL_STR = pa.scalar(None, STR)


def _arrow(values) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        return values.combine_chunks()
    if isinstance(values, pa.Array):
        return values
    return pa.array(values)


def _blank_is_null(text: pa.Array) -> pa.Array:
    text = pc.utf8_rtrim(text, characters=" ")
    return pc.if_else(pc.equal(text, ""), _NULL_STR, text)


def _is_text(a: pa.Array) -> bool:
    return pa.types.is_string(a.type) or pa.types.is_large_string(a.type)


def _as_text(a: pa.Array) -> pa.Array:
    return a if _is_text(a) else pc.cast(a, STR)


def _join_groups(c: dict[str, pa.Array]) -> None:
    """Fold the sub-items of version, file-name and user-id groups into one text column each."""
    for name in list(c):
        if name.endswith("_letter") and name[: -len("_letter")] + "_number" in c:
            base = name[: -len("_letter")]
            letter, number = c.pop(name), c.pop(base + "_number")
            number = pc.utf8_lpad(_as_text(number), 2, "0")
            # a blank letter means the version is unknown: the join of a null is null
            c[base] = pc.binary_join_element_wise(_blank_is_null(_as_text(letter)), number, "")
        elif name.endswith("_volume"):
            base = name[: -len("_volume")]
            if base + "_subvol" in c and base + "_filename" in c:
                parts = [
                    pc.fill_null(pc.utf8_trim_whitespace(_as_text(c.pop(base + part))), "")
                    for part in ("_volume", "_subvol", "_filename")
                ]
                # join, then drop the dots of blank parts (join's own null skipping loses rows when all are null)
                joined = pc.replace_substring_regex(pc.binary_join_element_wise(*parts, "."), r"\.{2,}", ".")
                joined = pc.replace_substring_regex(joined, r"^\.|\.$", "")
                c[base] = pc.if_else(pc.equal(joined, ""), _NULL_STR, joined)
        elif name.endswith("_group") and name[: -len("_group")] + "_user" in c:
            base = name[: -len("_group")]
            group, user = c.pop(name), c.pop(base + "_user")
            c[base] = pc.binary_join_element_wise(_as_text(group), _as_text(user), ",")


def _system_name(a: pa.Array) -> pa.Array:
    bare = pc.utf8_ltrim(pc.utf8_trim_whitespace(_as_text(a)), characters="\\")
    return pc.if_else(pc.equal(bare, ""), _NULL_STR, pc.binary_join_element_wise("\\", bare, ""))


def _timestamps(a: pa.Array) -> pa.Array:
    if pa.types.is_integer(a.type):
        return julian.to_timestamps(a)
    return pc.cast(a, TS)


def _apply_overflow(c: dict[str, pa.Array]) -> None:
    """ERROR = -1: a 32-bit counter overflowed and reads -1; its 64-bit ``-F`` twin holds the value."""
    if "error" not in c:
        return
    overflowed = pc.fill_null(pc.equal(c["error"], -1), False)
    if not pc.any(overflowed).as_py():
        return
    for name in list(c):
        twin = c.get(name + "_f")
        if twin is not None and not _is_text(c[name]) and not _is_text(twin):
            use_twin = pc.and_(overflowed, pc.is_valid(twin))
            c[name] = pc.if_else(use_twin, pc.cast(twin, I64), pc.cast(c[name], I64))


def _entity_rules(table: str, c: dict[str, pa.Array]) -> None:
    if table == "measure_userdef":
        if "counter_value" not in c:
            if "value" in c:
                c["counter_value"] = c.pop("value")
            else:
                count = c.pop("count_value", None)
                if count is None:
                    count = c.pop("counts_count_value", None)
                time = c.pop("time_value", None)
                if count is not None and time is not None and "type" in c:
                    is_accum = pc.fill_null(pc.equal(c["type"], USERDEF_ACCUM), False)
                    c["counter_value"] = pc.if_else(is_accum, pc.cast(count, I64), pc.cast(time, I64))
                elif count is not None or time is not None:
                    c["counter_value"] = time if time is not None else count
        if "name" in c:
            c["name"] = pc.utf8_upper(_as_text(c["name"]))
    if table == "measure_disc":
        for target, sub in (("cache_hits", "hits"), ("cache_misses", "misses")):
            parts = [c[k] for k in c if re.fullmatch(rf"c\d*_{sub}", k)]
            if target not in c and parts:
                total = pc.cast(parts[0], I64)
                for p in parts[1:]:
                    total = pc.add(total, pc.cast(p, I64))
                c[target] = total
    if table in ("measure_file", "measure_discopen") and "opener_cpu" not in c and "cpu_num" in c:
        c["opener_cpu"] = c["cpu_num"]
    if table == "measure_terminal":
        for name in TERMINAL_NAME_ITEMS:
            if name not in c and TERMINAL_NAME + name in c:
                c[name] = c.pop(TERMINAL_NAME + name)


def to_contract(table: str, columns: dict[str, object], *, source_form: str, record_ordinal) -> pa.Table:
    """Decoded item columns of one batch -> a raw-contract Arrow table (contract columns first)."""
    ordinals = pa.array(np.asarray(record_ordinal, dtype=np.int64), I64)
    n = len(ordinals)
    # columns the loader owns; a CSV header naming one of them must not replace them
    c = {name: _arrow(v) for name, v in columns.items() if name not in LOADER_COLUMNS}
    _join_groups(c)
    for name, a in c.items():
        if _is_text(a):
            c[name] = _blank_is_null(a)
    if "system_name" in c:
        c["system_name"] = _system_name(c["system_name"])
    for name in ("from_timestamp", "to_timestamp"):
        if name in c:
            c[name] = _timestamps(c[name])
    _apply_overflow(c)
    _entity_rules(table, c)

    out: dict[str, pa.Array] = {"record_ordinal": ordinals, "source_form": pa.array([source_form] * n, STR)}
    for name, typ in contract_columns(table).items():
        if name in out:
            continue
        out[name] = pc.cast(c.pop(name), typ) if name in c else pa.nulls(n, typ)
    out.update(c)
    return pa.table(out)


def to_items(layout, records: list[dict]) -> dict[str, list]:
    """Contract-keyed records -> columns keyed by the layout's field names (the encoder's input).

    Timestamps may be datetimes (converted to Julian µs) or Julian integers. A value too large for a 32-bit
    item that has a 64-bit ``_f`` twin is written the way Measure does: all ones in the 32-bit item, the
    value in the twin, ERROR = -1. Keys the layout cannot hold raise ``KeyError`` (catches typos)."""
    columns: dict[str, list] = {}
    for i, record in enumerate(records):
        for item, value in _record_items(layout, record).items():
            column = columns.get(item)
            if column is None:  # setdefault would build a throw-away list for every item of every record
                column = columns[item] = [None] * len(records)
            column[i] = value
    return columns


def _record_items(layout, record: dict) -> dict[str, object]:
    names = layout.by_name
    out: dict[str, object] = {}
    for key, value in record.items():
        if key in ("record_ordinal", "source_form") or value is None:
            continue
        if isinstance(value, datetime):
            value = julian.from_datetime(value)
        if key in names:
            out[key] = value
        elif key + "_letter" in names:  # os_version "G06" -> letter G, number 6
            out[key + "_letter"], out[key + "_number"] = value[:1], int(value[1:] or 0)
        elif key + "_volume" in names:  # $VOL.SUBVOL.FILE
            parts = (value.split(".") + ["", "", ""])[:3]
            for sub, part in zip(("_volume", "_subvol", "_filename"), parts):
                out[key + sub] = part
        elif key + "_group" in names:  # "g,u"
            group, _, user = str(value).partition(",")
            out[key + "_group"], out[key + "_user"] = int(group), int(user or 0)
        elif key == "counter_value":
            if "value" in names:
                out["value"] = value
            else:
                count_item = "count_value" if "count_value" in names else "counts_count_value"
                accum = record.get("type") == USERDEF_ACCUM and count_item in names
                out[count_item if accum else "time_value"] = value
        elif key in ("cache_hits", "cache_misses") and "c0_" + key[len("cache_"):] in names:
            out["c0_" + key[len("cache_"):]] = value  # no per-block-size detail: the 512-byte blocks carry it
        elif TERMINAL_NAME + key in names:  # line_name -> terminal-name.line-name
            out[TERMINAL_NAME + key] = value
        elif key == "opener_cpu" and "cpu_num" in names:
            if record.get("cpu_num", value) != value:
                raise ValueError(f"record {layout.name} has no opener-cpu item: opener_cpu must equal cpu_num")
            out["cpu_num"] = value
        else:
            raise KeyError(f"record {layout.name} has no item for {key!r}")
    for key in list(out):
        f, twin = names.get(key), names.get(key + "_f")
        if f is not None and twin is not None and f.size == 4 and f.kind != "char":
            out.setdefault(key + "_f", out[key])  # Measure keeps the 64-bit twin of every 32-bit counter
            limit = 0xFFFFFFFF if f.kind == "uint" else 0x7FFFFFFF
            if int(out[key]) > limit:
                out[key] = limit if f.kind == "uint" else -1
                if "error" in names and not out.get("error"):
                    out["error"] = -1
    return out
