"""The raw SMF tables: what every one of them starts with, and how a decoder declares its own.

Each decoder module declares the tables it writes (``TABLES``), their columns taken from its field
tables (``fields.columns``) so that a field is named, typed and described once. The columns below come
first in every SMF table; ``headers.common_columns`` fills them.
"""

from __future__ import annotations

import pyarrow as pa

from ingest.formats.base import Column, RawTable, SourceFamily

I64, STR, TS = pa.int64(), pa.string(), pa.timestamp("us")

SMF = SourceFamily(
    "smf",
    "z/OS SMF records decoded from IFASMFDL dumps, one row per record or per section instance as received (the "
    "same record in two overlapping dumps lands twice). Durations in microseconds, clock times as TIMESTAMP "
    "(header and RMF times local; type 119 section times as recorded), counters as counts, bytes as bytes.",
    "docs/smf_raw_contract.md",
)

COMMON = (
    Column("record_ordinal", I64, "Position of the logical record among everything read from its file (0-based); "
                                  "every row a record unfolds into has its record's ordinal."),
    Column("byte_offset", I64, "File offset of the record's first descriptor (RDW, or the SDW of its first segment)."),
    Column("system_id", STR, "SMFxxSID: the system that wrote the record."),
    Column("record_time", TS, "SMFxxDTE + SMFxxTME: when the record was written, local time."),
)
SUBSYSTEM_ID = Column("subsystem_id", STR, "SMFxxSSI: the subsystem that wrote the record, e.g. `RMF`, `TCP`.")
SECTION_INDEX = Column("section_index", I64, "Instance number of the section in its record (0-based).")


def smf_table(name: str, description: str, columns: tuple[Column, ...], natural_key: tuple[str, ...] = (),
              time_column: str = "record_time") -> RawTable:
    """A table of the SMF family: the common columns, then its own; placed by its system and ``time_column``
    (the record's own time unless the record says which interval it measures)."""
    return RawTable(name, SMF, description, (*COMMON, *columns), natural_key, placement=("system_id", time_column))
