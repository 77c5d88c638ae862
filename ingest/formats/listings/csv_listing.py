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
import io

from ingest.formats.listings.reader import ListingParser, Parsed, head_text
from ingest.formats.listings.settings import csv_header, csv_settings


class CsvListing(ListingParser):
    format = "listing.csv"

    def sniff(self, head: bytes, name: str) -> bool:
        first = next(csv.reader(io.StringIO(head_text(head).split("\n", 1)[0])), [])
        return csv_header(first) is not None

    def settings(self, text: str, node: str) -> Parsed:
        rows = list(csv.reader(io.StringIO(text)))
        yield from csv_settings(csv_header(rows[0]), rows[1:], default_node=node)


PARSER = CsvListing()
