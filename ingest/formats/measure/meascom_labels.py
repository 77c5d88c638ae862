"""MEASCOM report labels <-> raw contract columns, counter kinds, unit conversions and entity layouts.

Shared by the report's readers (``meascom_grammar`` and the two readers built on it) and the writer
(``meascom_writer``) so that they can never disagree. Sources: the LIST samples and the grammar in shared/formats/measure/reports.md, the
counter types and RATE ON/OFF formulas in counters.md, the columns in docs/measure_raw_contract.md.

A counter label is the DDL item name in Capitalized-Hyphenated form: the column is
``label.lower().replace('-', '_')`` except for the renamed fields in ``RENAMES``. The *kind* of a
counter decides how a printed value goes back to raw units (``delta_s`` = the block's ``For``
duration in seconds, ``delta_us`` the same in µs):

* INC (incrementing/accumulating): RATE ON prints a rate per second, bare in legacy style or with
  ``/s`` ``K/s`` ... in ZMS style -> rate x delta_s; RATE OFF prints the count, ``#`` or scaled by
  1000s with ``K`` ``M`` ``G`` ``T``.
* BUSY (busy and queue-busy): RATE ON ``%`` of the interval -> pct / 100 x delta_us; RATE OFF a time in
  ``ms`` ``s``/``sec`` ``min`` ``hr`` ``day`` ``wk`` (``min`` is not in the manual's list, whose end was
  cut off; accepted, never written).
* QUEUE: RATE ON the average queue length (``#``, or bare as in ``Recv-Qtime 0.12``) -> aql x delta_us;
  RATE OFF the queue time (µs x items) as a time.
* MAX (max queue) and SNAP (snapshot): the value itself, RATE does not apply.
* RESP (response time, lockwait): a time; RATE ON it is the average per counted event, so the raw
  value is average x the count in the column ``RESP_COUNTS`` names (transactions, requests blocked).

Each conversion entry is ``(factor, per_delta, rate_evidence)``: raw = value x factor (x delta_s when
``per_delta``); ``rate_evidence`` is +1 when only RATE ON prints that unit for that kind, -1 when only
RATE OFF does, 0 when both do (the parser needs it for RESP counters only).
"""

from __future__ import annotations

import re

import pyarrow as pa

from ingest.formats.measure import tables as measure_tables

INC, BUSY, QUEUE, MAX, SNAP, RESP = "inc", "busy", "queue", "max", "snap", "resp"

TIME_UNITS = {"ms": 1e3, "s": 1e6, "sec": 1e6, "min": 6e7, "hr": 3.6e9, "day": 8.64e10, "wk": 6.048e11}
SCALE_UNITS = {"#": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
RATE_UNITS = {"": 1.0, "/s": 1.0, "K/s": 1e3, "M/s": 1e6, "G/s": 1e9, "T/s": 1e12}

_ON, _OFF = 1, -1
CONVERSIONS: dict[str, dict[str, tuple[float, bool, int]]] = {
    INC: {**{u: (f, True, _ON) for u, f in RATE_UNITS.items()}, **{u: (f, False, _OFF) for u, f in SCALE_UNITS.items()}},
    BUSY: {"%": (1e4, True, _ON), **{u: (f, False, _OFF) for u, f in TIME_UNITS.items()}},
    QUEUE: {
        "": (1e6, True, _ON),
        **{u: (f * 1e6, True, _ON) for u, f in SCALE_UNITS.items()},
        **{u: (f, False, _OFF) for u, f in TIME_UNITS.items()},
    },
    MAX: {"": (1.0, False, 0), **{u: (f, False, 0) for u, f in SCALE_UNITS.items()}},
    SNAP: {"": (1.0, False, 0), **{u: (f, False, 0) for u, f in SCALE_UNITS.items()}},
    RESP: {u: (f, False, 0) for u, f in TIME_UNITS.items()},
}
# every token that can follow a value as its unit (the empty string is "no unit")
UNITS = frozenset(u for table in CONVERSIONS.values() for u in table if u)

# Renamed DDL items: the report prints the new name, the legacy record keeps the old one (reports.md).
RENAMES = {"mqc-allocations": "lcb_allocations", "mqc-alloc-failures": "lcb_alloc_failures"}
# RESP counters: the column holding the count their RATE ON average is taken over (counters.md).
RESP_COUNTS = {"response_time": "transactions", "lockwait_time": "requests_blocked"}

# Counter layouts, two label groups per line as in the CPU, PROCESS and LINE samples. CPU, PROCESS
# and LINE follow reports.md 1.2-1.4 (PROCESS ends at File-Open-Calls, where the sample is cut off).
# DISC, FILE and DISCOPEN have no public sample: their counters are the contract columns, laid out by
# the same grammar. (label, kind)
LAYOUTS: dict[str, list[tuple[tuple[str, str], ...]]] = {
    "cpu": [
        (("Cpu-Busy-Time", BUSY), ("Swaps", INC)),
        (("Cpu-Qtime", QUEUE), ("Cpu-Qlen-Max", MAX)),
        (("Mem-Qtime", QUEUE), ("Mem-Qlen-Max", MAX)),
        (("Dispatches", INC), ("Intr-Busy-Time", BUSY)),
        (("Process-Ovhd", BUSY), ("Send-Busy-Time", BUSY)),
        (("Disc-IOs", INC), ("Cache-Hits", INC)),
        (("Transactions", INC), ("Response-Time", RESP)),
        (("Page-Requests", INC), ("Page-Scans", INC)),
        (("Ending-Free-Mem", SNAP), ("Ending-UCME", SNAP)),
        (("Ending-UDS", SNAP), ("Ending-SDS", SNAP)),
        (("Ending-UCL", SNAP), ("Ending-SCL", SNAP)),
        (("Accel-Busy-Time", BUSY), ("TNS-Busy-Time", BUSY)),
        (("TNSR-Busy-Time", BUSY), ("Comp-Traps", INC)),
    ],
    "process": [
        (("Cpu-Busy-Time", BUSY), ("Ready-Time", BUSY)),
        (("Mem-Qtime", QUEUE), ("Dispatches", INC)),
        (("Page-Faults", INC), ("Vsems", INC)),
        (("Pres-Pages-Qtime", QUEUE), ("Pres-Pages-Max", MAX)),
        (("Ext-Segs-Qtime", QUEUE), ("Ext-Segs-Max", MAX)),
        (("Recv-Qtime", QUEUE), ("Recv-Qlen-Max", MAX)),
        (("Messages-Sent", INC), ("Messages-Received", INC)),
        (("Sent-Bytes", INC), ("Received-Bytes", INC)),
        (("Returned-Bytes", INC), ("Reply-Bytes", INC)),
        (("MQC-Allocations", INC), ("MQC-Alloc-Failures", INC)),
        (("MQCs-Inuse-Qtime", QUEUE), ("Max-MQCs-Inuse", MAX)),
        (("Checkpoints", INC), ("Alloc-Seg-Calls", INC)),
        (("File-Open-Calls", INC),),
    ],
    "line": [
        (("Requests", INC), ("Retries", INC)),
        (("Write-busy-Time", BUSY), ("Writes", INC)),
        (("Read-busy-Time", BUSY), ("Reads", INC)),
        (("Input-Bytes", INC), ("Output-Bytes", INC)),
        (("Input-Data-Bytes", INC), ("Output-Data-Bytes", INC)),
        (("Transactions", INC), ("Response-Time", RESP)),
    ],
    "disc": [
        (("Request-Qtime", QUEUE), ("Requests", INC)),
        (("Reads", INC), ("Writes", INC)),
        (("Input-Bytes", INC), ("Output-Bytes", INC)),
        (("Swaps", INC), ("Requests-Blocked", INC)),
        (("Read-Busy-Time", BUSY), ("Write-Busy-Time", BUSY)),
        (("Seek-Busy-Time", BUSY), ("Device-Qbusy-Time", BUSY)),
        (("Cache-Hits", INC), ("Cache-Misses", INC)),
    ],
    "file": [
        (("File-Busy-Time", BUSY), ("Reads", INC)),
        (("Writes", INC), ("Updates-Or-Replies", INC)),
        (("Deletes-Or-Writereads", INC), ("Info-Calls", INC)),
        (("Messages", INC), ("Message-Bytes", INC)),
    ],
    "discopen": [
        (("Driver-Input-Calls", INC), ("Driver-Output-Calls", INC)),
        (("Cache-Hits", INC), ("Cache-Write-Hits", INC)),
        (("Block-Splits", INC), ("Requests", INC)),
        (("Requests-Blocked", INC), ("Lockwait-Time", RESP)),
    ],
}


def column_of(label: str) -> str:
    low = label.lower()
    return RENAMES.get(low) or low.replace("-", "_")


# kind of every column some layout prints; a label outside the layouts gets its kind from its name
KNOWN_KINDS: dict[str, str] = {column_of(label): kind for rows in LAYOUTS.values() for row in rows for label, kind in row}


def kind_by_name(column: str) -> str:
    """Kind of a counter no layout lists, from the DDL naming habits (counters.md §3)."""
    if column.startswith("max_") or column.endswith("_max"):
        return MAX
    if column.startswith(("starting_", "ending_")) or column.endswith(("_start", "_end")):
        return SNAP
    if column.endswith("_qtime"):
        return QUEUE
    if column.endswith("_time"):
        return BUSY
    return INC


# Capitalized-Hyphenated, with a lower-case letter somewhere: tells a label from a mangled unit ("PCT")
_LABEL = re.compile(r"(?=\S*[a-z])[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
# label -> (column, conversions, column holding the RESP count or None); filled on first sight
_label_cache: dict[str, tuple[str, dict, str | None]] = {}


def label_info(token: str) -> tuple[str, dict, str | None] | None:
    """What a counter label means, or None when the token cannot be a label: not label-shaped, or naming an
    identification item (``Userid``, ``Priority``: an identification line misplaced among the counter lines,
    which must reject its block at that line rather than put text into a counter column)."""
    info = _label_cache.get(token)
    if info is None:
        if token in UNITS or not _LABEL.fullmatch(token):
            return None
        column = column_of(token)
        if column in IDENTIFICATION:
            return None
        kind = KNOWN_KINDS.get(column) or kind_by_name(column)
        info = (column, CONVERSIONS[kind], RESP_COUNTS.get(column) if kind == RESP else None)
        if len(_label_cache) < 10_000:  # a garbage file must not grow the cache without bound
            _label_cache[token] = info
    return info


# USERDEF type words (reports.md: Accum, Busy, Queue seen; the others by the TYPE codes of
# userdef.ddl) -> (TYPE code, kind of the printed value)
USERDEF_TYPES = {
    "accum": (1, INC),
    "busy": (2, BUSY),
    "queue": (3, QUEUE),
    "faccum": (4, INC),
    "qbusy": (5, BUSY),
    "tcellbusy": (6, BUSY),
    "tcellqueue": (7, QUEUE),
    "tcellqbusy": (8, BUSY),
}
USERDEF_TYPE_WORDS = {code: word.capitalize() for word, (code, _kind) in USERDEF_TYPES.items()}

# MEASCOM entity keyword (LIST <entity>) -> raw table: every entity of the contract with a report layout, CPU -> measure_cpu
TABLES = {e.table.removeprefix("measure_").upper(): e.table for e in measure_tables.TEXT_ENTITIES}

I32, I64, STR = pa.int32(), pa.int64(), pa.string()
# the record and header columns of every entity table (measure.tables)
HEADER_SCHEMA = [(c.name, c.type) for c in (*measure_tables.RECORD_COLUMNS, *measure_tables.HEADER)]

# Identification items the report prints beyond the contract, per table. Columns of labels outside the
# layouts are added as BIGINT.
PRINTED_IDS: dict[str, list[tuple[str, pa.DataType]]] = {
    "measure_cpu": [("cpu_type_name", STR), ("mem_initial_lock", I32), ("mem_mb", I32), ("page_size_bytes", I32)],
    "measure_process": [
        ("page_size_bytes", I32), ("program_kind", STR), ("creatorid", STR),
        ("ancestor_cpu", I32), ("ancestor_pin", I32), ("ancestor_process_name", STR),
    ],
    "measure_line": [("trackid", STR), ("clip", I32), ("line", I32)],
    "measure_userdef": [("userid", STR), ("creatorid", STR)],
}


# every column that identifies a record rather than counts (no counter of any entity has one of these names)
IDENTIFICATION = frozenset(
    {name for name, _t in HEADER_SCHEMA} | {c.name for e in measure_tables.ENTITIES for c in e.ids}
    | {name for ids in PRINTED_IDS.values() for name, _t in ids}
)


def _entity_schema(entity: measure_tables.Entity) -> list[tuple[str, pa.DataType]]:
    """The contract's entity columns the layout does not print, the printed identification items, then
    every counter of the layout in its order."""
    counters = [(column_of(label), I64) for row in LAYOUTS.get(entity.table.removeprefix("measure_"), []) for label, _kind in row]
    printed = {name for name, _t in counters}
    contract = [(c.name, c.type) for c in (*entity.ids, *entity.counters) if c.name not in printed]
    return contract + PRINTED_IDS.get(entity.table, []) + counters


ENTITY_SCHEMAS: dict[str, list[tuple[str, pa.DataType]]] = {e.table: _entity_schema(e) for e in measure_tables.TEXT_ENTITIES}
# the catch-all for report text perfdb does not parse (SYSTEM blocks, listings of other entities)
UNPARSED_SCHEMA = [(c.name, c.type) for c in measure_tables.UNPARSED.columns]

# Identification lines before `Local System`, per entity: each line is a list of parts, a part printed
# only when all its columns are known. The first part of the first line starts a block. CPU, PROCESS,
# USERDEF and LINE follow the samples (reports.md §2 table); DISC, FILE and DISCOPEN are perfdb's
# layout for entities with no public sample, in the same style.
ID_LINES: dict[str, list[list[str]]] = {
    "cpu": [
        ["Cpu {cpu_num}", "{cpu_type_name}", "Init Lock Pgs {mem_initial_lock}", "Mem Pages {memory_pages}"],
        ["Memory MB {mem_mb}", "PCBs {pcbs}", "Pg Size {page_size_bytes} Bytes"],
    ],
    "process": [
        ["Process {cpu_num},{pin}", "({process_name})", "Pri {priority}", "Pg Size {page_size_bytes} Bytes"],
        ["Program {program_file_name}", "({program_kind})"],
        ["Userid {userid}", "Creatorid {creatorid}", "Ancestor {ancestor_cpu},{ancestor_pin}", "({ancestor_process_name})"],
    ],
    "userdef": [
        ["Process", "{process_name}", "Program {program_file_name}"],
        ["CPU {cpu_num}", "Pin {pin}", "Priority {priority}", "Userid {userid}", "Creatorid {creatorid}"],
    ],
    "line": [
        ["Comm Line {device_name}", "Device Type {device_type}", "Subdevice Type {device_subtype}"],
        ["Logical Device {logical_device}", "Trackid {trackid}", "Clip {clip}", "Line {line}"],
    ],
    "disc": [
        ["Disc {device_name}", "Device Type {device_type}", "Subdevice Type {device_subtype}"],
        ["Logical Device {logical_device}", "CPU {cpu_num}", "Pin {pin}"],
    ],
    "file": [
        ["File {file_name}", "Device Type {device_type}"],
        ["CPU {cpu_num}", "Opener {opener_cpu},{opener_pin}"],
    ],
    "discopen": [
        ["Discopen {file_name}"],
        ["CPU {cpu_num}", "Opener {opener_cpu},{opener_pin}"],
    ],
}
