"""The raw table every parameter-listing parser writes: one row per parameter a listing sets.

A listing states what a site configured (VTAM start options, NCP generation values, AIX network and
adapter attributes, the parameters of seed 000's Appendix A profiles): it has no time of its own, so its
rows are placed by their file, not by a (system, day). The rules catalogue's configuration rows are
evaluated on them in ``rpt_config_findings``.
"""

from __future__ import annotations

import pyarrow as pa

from ingest.formats.base import Column, RawTable, SourceFamily

LISTINGS = SourceFamily(
    "listings",
    "Every parameter-listing parser (a CSV listing, AIX `no -a`, AIX `lsattr -El`, VTAM and NCP definitions, a VSE IPINIT member, a GUARDIAN PEEK EXPEDITED display) writes one row per parameter "
    "set, with the value as printed, its number and the canonical name the configuration rules use.",
    "docs/listings_raw_contract.md",
)

PARAMETER_LISTINGS = RawTable(
    "parameter_listings", LISTINGS,
    "One row per parameter a listing sets: the node (system or definition set), the parameter as printed and "
    "its canonical name, the value as printed and its number, the unit and the file line.",
    (
        Column("record_ordinal", pa.int64(), "The setting's position among the file's settings (0-based)."),
        Column("line_number", pa.int64(), "File line (1-based) the setting is printed on."),
        Column("node", pa.string(), "System, node or definition set the parameter belongs to (`NCP`, `VTAM`, a host)."),
        Column("parameter", pa.string(), "The parameter as printed (`MAXBUFRU`, `Mode RU size`, `thewall`).",
               verbatim=True),
        Column("parameter_key", pa.string(), "Canonical name (`maxbfru`, `ru_size`, `thewall`): the `metric` of "
                                             "the rules catalogue; the same name for every spelling of a parameter."),
        Column("value_text", pa.string(), "The value as printed (`(200,4000,,,100,50)`, `default`, `x'8D8D'`).",
               verbatim=True),
        Column("value", pa.float64(), "The number the value states (an IOBUF's buffer size, `30,720` as 30720); "
                                      "NULL for a value that is no number (`default`, `*`, `ECSA`)."),
        Column("unit", pa.string(), "The unit as the listing gives it (`bytes`, `%`), else NULL."),
        Column("source_format", pa.string(), "The parser: `listing.csv`, `listing.aix_no`, `listing.aix_lsattr`, `listing.assembler`, `listing.as400_cl`, `listing.os2_ndf`, `listing.vse_ipinit`, `listing.vse_job`, `listing.peek_expedited`."),
    ),
    natural_key=("source_file_id", "record_ordinal"),
)

TABLES = (PARAMETER_LISTINGS,)
