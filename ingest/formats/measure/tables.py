"""The raw MEASURE tables, declared once: every form (CSV export, binary records, MEASCOM text) writes
them, the generator fills them, the warehouse creates them and the dbt sources and the contract page
(``docs/measure_raw_contract.md``) are generated from them.

A table is the record columns (``record_ordinal``, ``source_form``, the header every entity record
starts with), then the entity's identification columns, then its counters in raw units: busy and
queue counters in µs (queue: µs x items), counts as counts, bytes as bytes. Names are the DDL item
names in snake case (``CPU-BUSY-TIME`` -> ``cpu_busy_time``). The tables are open: a CSV export may
carry items beyond these (kept as extra columns), and so does a binary record of a user's DDL.

This module imports nothing but ``ingest.formats.base``, so the generator can use it without the
parsers or DuckDB.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from ingest.formats.base import Column, RawTable, SourceFamily

I32, I64, STR, TS = pa.int32(), pa.int64(), pa.string(), pa.timestamp("us")

MEASURE = SourceFamily(
    "measure",
    "One table per MEASURE entity, one row per structured record as received (a MEASCOM LIST run twice "
    "lands twice), counters in raw units: busy in microseconds, queue in microsecond-items, counts as "
    "counts, bytes as bytes, delta_time in microseconds.",
    "docs/measure_raw_contract.md",
)

# what the parsers add to every record: where it came from
RECORD_COLUMNS = (
    Column("record_ordinal", I64, "Position of the record in its file (0-based)."),
    Column("source_form", STR, "The form the record arrived in: `csv`, `binary` or `meascom`."),
)

# the header items every entity record starts with
HEADER = (
    Column("system_name", STR, "Node name with one leading backslash, e.g. `\\TAHITI`."),
    Column("cpu_num", I32, "Processor of the measurement."),
    Column("loadid", STR, "LOADID, trailing blanks trimmed; NULL when blank (text reports have none)."),
    Column("from_timestamp", TS, "Interval start, local civil time (Julian timestamp converted)."),
    Column("to_timestamp", TS, "Interval end, local civil time."),
    Column("delta_time", I64, "Interval length, µs.", positive=True, maximum=31 * 86_400e6),
    Column("error", I32, "ERROR item; -1 = a 32-bit counter overflowed and its 64-bit `-F` twin was used."),
    Column("os_version", STR, "Operating system version, e.g. `G06`, `B30`; NULL when unknown."),
)
INTERVAL = ("from_timestamp", "to_timestamp")
PLACEMENT = ("system_name", "from_timestamp")  # an interval belongs to the day it starts in


# What a counter can grow by per second of its interval, by its unit (plausibility at ingest rejects a record
# beyond it: a counter near 2**63 fits BIGINT but no interval accumulates it). Deliberately wide: a bound
# to catch garbage, not a check of the measurement (``perfdb check`` holds the busy percentages to 100 %).
BUSY_US_PER_S = 2e6  # µs busy: at most two halves busy at once (a mirrored volume, a full-duplex line)
QUEUE_US_PER_S = 1e12  # µs x items (a queue, or times summed over concurrent requests): a million waiting
COUNT_PER_S = 1e9  # events: a billion a second
BYTES_PER_S = 1e12  # bytes: a terabyte a second
LEVEL_MAX = 1e12  # a level (a longest queue, free pages) is no rate: an absolute bound
# times summed over requests that overlap, which a clock of the interval does not bound: queue-like. A
# process's ready time is one process's, but the demo generator's model (busy x (1 + queue x wait)) gives up
# to 3.2 intervals of it: bounded as a queue until that model is mended
_SUMMED_TIMES = {"response_time", "lockwait_time", "file_busy_time", "counter_value", "ready_time"}


def is_level(name: str) -> bool:
    """A counter that is a level (a longest queue, the free pages at the end), not a sum over its interval: its
    name tells (DDL naming habits)."""
    return name.startswith(("max_", "ending_")) or name.endswith("_max")


def _bounds(name: str) -> dict:
    """The plausibility bound of a counter from its unit, which its name tells (DDL naming habits)."""
    if is_level(name):
        return {"maximum": LEVEL_MAX}
    if name in _SUMMED_TIMES or name.endswith("_qtime"):
        return {"max_per_s": QUEUE_US_PER_S}
    if name.endswith("_time") or name == "process_ovhd":
        return {"max_per_s": BUSY_US_PER_S}
    if name.endswith("_bytes"):
        return {"max_per_s": BYTES_PER_S}
    return {"max_per_s": COUNT_PER_S}


def _counters(*pairs: tuple[str, str], required: tuple[str, ...] = ()) -> tuple[Column, ...]:
    """Counters: every MEASURE counter accumulates over its interval from 0 (a maximum or a free-page count
    is a level, but no more negative than a count): a negative value is not a measurement. ``required``:
    those the marts divide or condense (``Column.required``)."""
    unknown = set(required) - {name for name, _m in pairs}
    if unknown:
        raise ValueError(f"required counters not declared: {sorted(unknown)}")
    return tuple(Column(name, I64, meaning, cumulative=True, required=name in required, **_bounds(name))
                 for name, meaning in pairs)


@dataclass(frozen=True)
class Entity:
    """One MEASURE entity: its identification columns, its counters and what identifies a record."""

    table: str
    description: str
    ids: tuple[Column, ...]
    counters: tuple[Column, ...]
    key: tuple[str, ...]  # the entity within its system; with the interval, the record's natural key

    def raw_table(self) -> RawTable:
        return RawTable(self.table, MEASURE, self.description, (*RECORD_COLUMNS, *HEADER, *self.ids, *self.counters),
                        natural_key=(*self.key, *INTERVAL), open=True, placement=PLACEMENT, interval="delta_time")


_DEVICE_IDS = (
    Column("logical_device", I32, "Logical device number."),
    Column("device_type", I32, "Guardian device type."),
    Column("device_subtype", I32, "Guardian device subtype."),
)
_OPENER = (
    Column("opener_cpu", I32,
           "Processor of the process that opened the file (the record's cpu_num when the record has no opener item)."),
    Column("opener_pin", I32, "PIN of the process that opened the file."),
    Column("file_name", STR, "The file opened, `$VOL.SUBVOL.FILE`."),
)
_PROGRAM_FILE = Column("program_file_name", STR, "Program file, `$VOL.SUBVOL.FILE`.")

ENTITIES = (
    Entity(
        "measure_cpu", "CPU entity records: one processor over one interval.",
        (
            Column("cpu_type", I32, "Processor type code."),
            Column("memory_pages", I32, "Pages of physical memory."),
            Column("pcbs", I32, "Process control blocks configured."),
        ),
        _counters(
            ("cpu_busy_time", "Time the processor was busy, µs."),
            ("cpu_qtime", "Ready-list occupancy, µs x processes (RATE ON: the average number of ready processes)."),
            ("cpu_qlen_max", "Longest ready list."),
            ("mem_qtime", "Time processes waited on page faults, µs x processes (always 0 from G05)."),
            ("mem_qlen_max", "Longest page-fault queue (0 from G05)."),
            ("dispatches", "Process dispatches on this processor."),
            ("swaps", "Memory-manager swap operations, in or out."),
            ("intr_busy_time", "Time in interrupt handlers, µs."),
            ("process_ovhd", "Operating-system time creating and ending processes, µs (part of the busy time)."),
            ("send_busy_time", "SEND instruction time, µs (D-series; unused in G)."),
            ("disc_ios", "Disc I/Os by the processor."),
            ("cache_hits", "I/Os that found the block in the disc cache."),
            ("page_requests", "Times the memory manager was asked for a page frame."),
            ("page_scans", "Frames examined to find a replaceable page."),
            ("transactions", "Terminal transactions (a read, then a write) of measured terminal processes."),
            ("response_time", "Terminal response time of those transactions, µs."),
            ("ending_free_mem", "Free page frames at the end of the interval."),
            required=("cpu_busy_time", "cpu_qtime"),
        ),
        key=("system_name", "cpu_num"),
    ),
    Entity(
        "measure_process", "PROCESS entity records: one process over one interval.",
        (
            Column("pin", I32, "Process identification number within its processor."),
            Column("process_name", STR, "Process name, e.g. `$B30S`; NULL when unnamed."),
            Column("priority", I32, "Execution priority."),
            _PROGRAM_FILE,
            Column("userid", STR, "Guardian user id, `group,user`."),
        ),
        _counters(
            ("cpu_busy_time", "CPU time of the process, µs."),
            ("ready_time", "Time on the ready list, µs."),
            ("mem_qtime", "Time waiting on page faults, µs."),
            ("dispatches", "Times the process was selected from the ready list."),
            ("page_faults", "Page faults the process caused."),
            ("vsems", "Waits on semaphore-protected resources."),
            ("recv_qtime", "Messages waiting on $RECEIVE over time, µs x messages."),
            ("recv_qlen_max", "Longest $RECEIVE queue."),
            ("messages_sent", "Messages sent."),
            ("messages_received", "Messages read from $RECEIVE."),
            ("sent_bytes", "Bytes of the messages sent."),
            ("received_bytes", "Bytes of the messages received."),
            ("checkpoints", "Checkpoint calls."),
            ("file_open_calls", "File open calls."),
            required=("cpu_busy_time", "ready_time", "dispatches", "messages_sent", "messages_received"),
        ),
        key=("system_name", "cpu_num", "pin"),
    ),
    Entity(
        "measure_disc", "DISC entity records: one disc volume as its disc process in one processor saw it over one interval.",
        (
            Column("device_name", STR, "Disc volume, e.g. `$DATA01`."),
            Column("pin", I32, "PIN of the disc process."),
            *_DEVICE_IDS,
        ),
        _counters(
            ("request_qtime", "Disc-process request queue over time, µs x requests (active requests included)."),
            ("requests", "Requests the disc process received."),
            ("reads", "Physical reads."),
            ("writes", "Physical writes."),
            ("input_bytes", "Bytes read."),
            ("output_bytes", "Bytes written."),
            ("swaps", "I/Os done for memory-manager swapping."),
            ("requests_blocked", "Operations that waited on a locked file or record."),
            ("read_busy_time", "Time reading, µs (D-series; not used in G)."),
            ("write_busy_time", "Time writing, µs (D-series; not used in G)."),
            ("seek_busy_time", "Time seeking, µs (no longer used)."),
            ("device_qbusy_time", "Time at least one request was queued to the disc in this processor, µs."),
            ("cache_hits", "Cache hits, summed over the cache block sizes."),
            ("cache_misses", "Cache misses, summed over the cache block sizes."),
            required=("request_qtime", "requests", "reads", "writes", "input_bytes", "output_bytes", "read_busy_time", "write_busy_time", "device_qbusy_time"),
        ),
        key=("system_name", "device_name", "cpu_num"),
    ),
    Entity(
        "measure_line", "LINE entity records: one communication line over one interval.",
        (
            Column("device_name", STR, "Line, e.g. `$X25TAH`."),
            Column("pin", I32, "PIN of the line handler."),
            *_DEVICE_IDS,
        ),
        _counters(
            ("read_busy_time", "Time reading the line, µs."),
            ("write_busy_time", "Time from the start of a write to its completion interrupt, µs."),
            ("requests", "Requests the line's I/O process received."),
            ("input_bytes", "Bytes in, protocol overhead included."),
            ("output_bytes", "Bytes out, protocol overhead included."),
            ("input_data_bytes", "User data bytes in."),
            ("output_data_bytes", "User data bytes out."),
            ("reads", "Read operations, unsuccessful ones included."),
            ("writes", "Write operations, unsuccessful ones included."),
            ("retries", "I/O retries after line errors."),
            ("transactions", "Terminal transactions on the measured subdevices (0 for SNAX)."),
            ("response_time", "Terminal response time of those transactions, µs (0 for SNAX)."),
            required=("read_busy_time", "write_busy_time", "requests", "input_bytes", "output_bytes", "reads", "writes"),
        ),
        key=("system_name", "device_name"),
    ),
    Entity(
        "measure_userdef", "USERDEF records: one user-defined counter (element) of one process over one interval.",
        (
            Column("pin", I32, "PIN of the instrumented process."),
            Column("process_name", STR, "Name of the instrumented process; NULL when unnamed."),
            _PROGRAM_FILE,
            Column("priority", I32, "Execution priority of the process."),
            Column("name", STR, "Counter name, upper case."),
            Column("type", I32, "Counter kind: 1 ACCUM, 2 BUSY, 3 QUEUE, 4 FACCUM, 5 QBUSY."),
            Column("index", I32, "Array element (0 for a plain counter)."),
        ),
        _counters(
            ("max_value", "QUEUE counters: the longest queue."),
            ("counter_value", "The counter: ACCUM and FACCUM a count; BUSY and QBUSY µs; QUEUE µs x items."),
            required=("counter_value",),
        ),
        key=("system_name", "cpu_num", "pin", "name", "index"),
    ),
    Entity(
        "measure_file", "FILE entity records: logical I/O of one open of a file over one interval.",
        (*_OPENER, Column("device_type", I32, "Guardian device type of the file (2 = $RECEIVE, 3 = disc).")),
        _counters(
            ("file_busy_time", "Waited I/O from request to reply, µs (nowait: time to start plus time to wait)."),
            ("reads", "File-system read calls."),
            ("writes", "File-system write calls."),
            ("updates_or_replies", "WRITEUPDATE calls with data, or REPLY calls."),
            ("deletes_or_writereads", "WRITEUPDATE calls of length 0, or WRITEREAD calls."),
            ("info_calls", "File-information calls."),
            ("messages", "Messages sent for the open."),
            ("message_bytes", "Bytes of those messages."),
            required=("reads", "writes"),
        ),
        key=("system_name", "opener_cpu", "opener_pin", "file_name"),
    ),
    Entity(
        "measure_discopen", "DISCOPEN entity records: physical I/O of one open of a disc file over one interval.",
        _OPENER,
        _counters(
            ("driver_input_calls", "Reads for this open, cache hits included."),
            ("driver_output_calls", "Writes for this open, cache hits included."),
            ("cache_hits", "Cache hits on reads."),
            ("cache_write_hits", "Cache hits on writes."),
            ("block_splits", "Block splits during writes."),
            ("requests", "Requests for this open."),
            ("requests_blocked", "I/Os that waited on a lock."),
            ("lockwait_time", "Time waiting for locks, µs."),
            required=("driver_input_calls", "driver_output_calls"),
        ),
        key=("system_name", "opener_cpu", "opener_pin", "file_name"),
    ),
    # The structured record is published (terminal.ddl, Measure Reference Manual pp.358-361); no LIST
    # TERMINAL report sample is, so the MEASCOM text readers keep that listing verbatim (TEXT_ENTITIES).
    Entity(
        "measure_terminal", "TERMINAL entity records: one terminal (a subdevice of a line) over one interval.",
        (
            Column("line_name", STR, "The line the terminal is on, e.g. `$ATM01`."),
            Column("subdev_name", STR, "The terminal: the line's subdevice, e.g. `#T01`."),
            Column("logical_device", I32, "Logical device number."),
        ),
        _counters(
            ("requests", "Requests to the terminal."),
            ("reads", "Reads from the terminal."),
            ("writes", "Writes to the terminal."),
            ("input_bytes", "Bytes read."),
            ("output_bytes", "Bytes written."),
            ("transactions", "Terminal transactions: a read, then a write."),
            ("response_time", "Sum over those transactions of the write's start minus the read's end (the start "
                              "time MEASURE saves in the terminal's counter record), µs."),
            required=("transactions", "response_time"),
        ),
        key=("system_name", "line_name", "subdev_name"),
    ),
)
# the entities whose MEASCOM LIST report perfdb reads (meascom_labels.LAYOUTS); the others' listings are kept verbatim
TEXT_ENTITIES = tuple(e for e in ENTITIES if e.table != "measure_terminal")
ENTITY_TABLES = tuple(e.raw_table() for e in ENTITIES)
_DECLARED = {t.name: t for t in ENTITY_TABLES}

UNPARSED = RawTable(
    "measure_unparsed", MEASURE,
    "MEASCOM report text perfdb keeps verbatim rather than reads: Remote System (SYSTEM) blocks, listings of "
    "entities it does not parse (LIST TERMINAL, ...) and text outside any block; one row per block or run of "
    "lines, counted as skipped in raw.ingest_files.",
    (
        *RECORD_COLUMNS,
        Column("entity", STR, "The LIST keyword the text was listed under, or SYSTEM; NULL for text outside any listing."),
        Column("line_number", I64, "File line (1-based) the text starts on."),
        Column("raw_text", STR, "The text as printed.", verbatim=True),
    ),
)


def table_for(name: str) -> RawTable:
    """The declared table, or for a record outside the contract (a TERMINAL record, a user's DDL record) an
    open table of the record and header columns that its items extend as they come."""
    declared = _DECLARED.get(name)
    if declared is not None:
        return declared
    return RawTable(name, MEASURE, f"Records outside the MEASURE contract ({name}): nothing downstream reads them.",
                    (*RECORD_COLUMNS, *HEADER), open=True, placement=PLACEMENT)
