"""A parameter listing as CSV: ``node,parameter,value,unit``, the form ``perfdb report capacity --config`` reads.

Sample (seed 000's Figure 6, the baseline NCP and VTAM, L1093-L1106)::

    node,parameter,value,unit
    VTAM,IOBUF,"(200,384,,,100,50)",
    NCP,MAXTSL,2044,bytes
    NCP,SLODOWN,50,%
    NCP,MAXBUFRU,40,
    NCP,UNITSZ,384,bytes

The columns ``parameter`` and ``value`` are required, ``unit`` and ``node`` (or ``profile``, ``platform``)
optional, in any order; further columns (the document's line, where the value is coded) are ignored. Without
a node column the node is the file's (``reader.file_node``). The rows are read by ``settings.csv_settings``,
the reader ``config_checks`` uses. Output: one row of ``raw.parameter_listings`` per data row; a row with
too few cells or no parameter name is rejected with its line.
"""

from __future__ import annotations

import csv

from ingest.formats.base import FormatError
from ingest.formats.capture import MAX_LINE_CHARS
from ingest.formats.listings.reader import ListingParser, Parsed, head_text
from ingest.formats.listings.settings import csv_header, csv_settings


class CsvListing(ListingParser):
    format = "listing.csv"

    def sniff(self, head: bytes, name: str) -> bool:
        return csv_header(_cells(head_text(head).split("\n", 1)[0].rstrip("\r")) or []) is not None

    def settings(self, text: str, node: str) -> Parsed:
        lines = text.replace("\r", "").split("\n")
        header = csv_header(_cells(lines[0]) or [])
        if header is None:
            raise FormatError("expected a header with the columns parameter and value (optionally unit and node), "
                              f"found {lines[0][:80]!r}", line=1)
        for number, line in enumerate(lines[1:], start=2):
            # one row a line: a listing's values are short, so a quoted cell never spans lines
            cells = _cells(line)
            if cells is None:
                yield number, f"expected a CSV row of at most {MAX_LINE_CHARS:,} characters, found {len(line):,}"
            else:
                yield from csv_settings(header, [cells], default_node=node, first_line=number)


def _cells(line: str) -> list[str] | None:
    """The cells of one CSV line; None for a line no listing prints (too long, or a quote the csv module refuses)."""
    if len(line) > MAX_LINE_CHARS:
        return None
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return None


PARSER = CsvListing()
