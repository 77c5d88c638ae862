"""The raw tables every command-output parser writes (``capture.CounterSink`` fills them).

A capture once (``command_captures``), each counter once per file (``command_counter_labels``) and one
narrow row per printed value (``command_values``): in one long table every value row would repeat its
capture's host, command and time and its counter's labels, and writing those was most of the cost of an
ingest. New counters, releases and commands need no new columns. Lines a parser cannot read are kept in
``command_unparsed_lines``.

The printed text (sections, entities, labels, text values) is ``verbatim``: plausibility at ingest does not
reject it for a control character, because the command parsers judge their own lines (a line they cannot
read is kept in ``command_unparsed_lines``, costing that line, not its capture).
"""

from __future__ import annotations

import pyarrow as pa

from ingest.formats.base import Column, RawTable, SourceFamily

I32, I64, STR = pa.int32(), pa.int64(), pa.string()

COMMANDS = SourceFamily(
    "commands",
    "Every command-output parser (netstat, QUERY STATS, snaadmin, D NET,BFRUSE, z/OS and VM/MVS NETSTAT) writes "
    "three tables, joined on source_file_id with record_ordinal (the capture) and label_id (the counter). Rows are "
    "kept as received: a capture that is in two files (a single capture and a console log) lands twice.",
    "docs/commands_raw_contract.md",
)

CAPTURES = RawTable(
    "command_captures", COMMANDS,
    "One row per loaded capture: host, command, source format, capture time, the file line it starts on and how "
    "many values it printed.",
    (
        Column("record_ordinal", I64, "The capture's position in its file (0-based); with source_file_id, the capture's key."),
        Column("line_number", I64, "File line (1-based) the capture starts on: its `# captured:` line when it has one."),
        Column("host", STR, "Host, system or node of the capture (see \"Capture time and host\")."),
        Column("command", STR, "Normalised command: `netstat -s`, `netstat -i`, `netstat -ib`, `netstat -m`, `netstat -v`, "
                               "`NETSTAT STATS`, `NETSTAT POOLSIZE`, `NETSTAT DEVLINKS`, `NETSTAT GATE`, `QUERY STATS`, "
                               "`QUERY ISTATS`, `QUERY IPSTATS`, `SET RECORD`, `PRTY`, `D NET,BFRUSE`, `snaadmin query_buffer_availability`, "
                               "`snaadmin query_kernel_memory_limit`, `lsps -a`, `errpt -a`, `vmstat`, `FASTSORT`."),
        Column("source_format", STR, "The parser (`netstat.linux_s` ...); captures of a mixed log name their own."),
        Column("captured_at", pa.timestamp("us"), "Capture time, local civil time of the measured system."),
        Column("utc_offset_s", I32, "The system's UTC offset when the capture time gave one, else NULL."),
        Column("counter_count", I64, "Values the capture printed: its rows in raw.command_values."),
    ),
    natural_key=("source_file_id", "record_ordinal"),
    placement=("host", "captured_at"),
)

LABELS = RawTable(
    "command_counter_labels", COMMANDS,
    "One row per distinct counter of a file: section, entity, label as printed, normalised name, unit and kind; "
    "record_ordinal is the first capture that printed it.",
    (
        Column("record_ordinal", I64, "The first capture of the file that printed this counter."),
        Column("label_id", I32, "The counter's number within its file (0-based); with source_file_id, the key."),
        Column("section", STR, "The printed grouping: `Tcp`, `TcpExt`, `link`, `address`, `CPU 0`, `statistics`, "
                               "`pool`, `storage`, `Received Blocks`, `TCP Statistics` ...", verbatim=True),
        Column("entity", STR, "What the values belong to, NULL when the whole host: interface (`eth0`), adapter "
                              "(`ent2`), buffer pool (`IO00`), bucket size (`256`), z/OS stack (`TCPCS`), foreign IP "
                              "address (VSE IPSTATS), route.", verbatim=True),
        Column("counter", STR, "The label as printed; a number inside the printed text is shown as `#` "
                               "(`Quick ack mode was activated # times`).", verbatim=True),
        Column("counter_name", STR, "Normalised name, snake case; the same name for the same quantity across platforms "
                                    "where one exists (`rx_packets`, `tx_errors`, `tcp_in_segs`, `tcp_retrans_segs`)."),
        Column("unit", STR, "`count`, `bytes`, `segments`, `packets`, `KiB`, `pct`, `us`, `s`, `mbit_per_s`, "
                            "`scale_0_100`, `position` (a place in an order: PRTY); NULL for text."),
        Column("kind", STR, "`counter` (cumulative since the stack, adapter or system started: take differences), "
                            "`gauge` (a level as captured: current values, limits, configuration, high-water marks), "
                            "`text`."),
    ),
    natural_key=("source_file_id", "label_id"),
)

VALUES = RawTable(
    "command_values", COMMANDS,
    "One row per value printed in a capture: the capture (record_ordinal), the counter (label_id), the file line, "
    "the number (value) or, for kind text, text_value.",
    (
        Column("record_ordinal", I64, "The capture (raw.command_captures)."),
        Column("line_number", I64, "File line (1-based) the value was printed on."),
        Column("label_id", I32, "The counter (raw.command_counter_labels of the same file)."),
        Column("value", pa.float64(), "The number printed; NULL for text."),
        Column("text_value", STR, "For kind `text`: flags, states (`CONGESTED`), MAC addresses.", verbatim=True),
    ),
)

UNPARSED_LINES = RawTable(
    "command_unparsed_lines", COMMANDS,
    "Lines of loaded captures that their parser could not read (a tool's own warning, stray text, a line a newer "
    "release added), kept verbatim and counted as skipped records: the rest of the capture loads.",
    (
        Column("record_ordinal", I64, "The capture (raw.command_captures) the line belongs to."),
        Column("line_number", I64, "File line (1-based)."),
        Column("line_text", STR, "The line as printed.", verbatim=True),
        Column("reason", STR, "What the parser expected there.", verbatim=True),
    ),
    natural_key=("source_file_id", "line_number"),
)

TABLES = (CAPTURES, LABELS, VALUES, UNPARSED_LINES)
# a counter's identity: the label columns after the ids, in the order of CounterSink's label keys
LABEL_COLUMNS = tuple(c for c in LABELS.column_names if c not in ("record_ordinal", "label_id"))
