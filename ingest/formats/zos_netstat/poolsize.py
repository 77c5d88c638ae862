"""VM/MVS TCP/IP ``NETSTAT POOLSIZE``: free-pool status of the stack's control blocks and buffers.

Real sample (MVS TCP/IP V2R2.1, printed in Cisco tech note 12989-69; the VM TCP/IP lineage prints the
same report; spacing kept only for the first rows)::

    netstat poolsize

     MVS TCP/IP Netstat V2R2.1

     TCPIP Free pool status:

     Object       # alloc     # free      Lo-water    Permit size

     ======       =======     ======      ========    ===========

     ACB            1000         997         993         100

     CCB             150

Grammar: a header ``(MVS|VM) TCP/IP Netstat <level>``, the title ``TCPIP Free pool status:``, a
heading and an ``=`` underline, then one row per pool read from the right: exactly four whole numbers,
the rest of the row is the object name (``Sm dat buf``). A copy whose line breaks were lost (the
whole report on one line, as the note's HTML copy has it) is read the same way, row after row. Text
of a line that is not a pool row (the PDF copy ends in the middle of the ``CCB`` row) is kept in
``raw.command_unparsed_lines``; the rows that fit load.

Output: section ``pool``, entity = the object (``ACB``, ``Dat buf``), counter = the heading as
printed; gauges ``allocated`` (# alloc, configured size), ``free`` (# free now), ``low_water``
(lowest free count since TCP/IP started) and ``permit_size``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise
from ingest.formats.command_parser import CommandParser

HEADER_RE = re.compile(r"\b(MVS|VM)\s+TCP/IP\s+Netstat\s+(\S+)", re.IGNORECASE)
TITLE = "TCPIP Free pool status:"
ROW_RE = re.compile(r"([A-Za-z][A-Za-z ]*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)(?=\s|$)")
COLUMNS = [("# alloc", "allocated"), ("# free", "free"), ("Lo-water", "low_water"), ("Permit size", "permit_size")]


class NetstatPoolsize(CommandParser):
    format = "zos_netstat.poolsize"
    command = "NETSTAT POOLSIZE"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(TITLE in ln for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        in_table = False
        for i, raw in enumerate(cap.lines):
            if is_noise(raw) or raw.strip().lower() == "netstat poolsize":
                continue
            text = raw.strip()
            if not in_table:
                # the heading ends at the '=' underline (which may share the line with the rows)
                under = text.rfind("===")
                if under < 0:
                    continue
                in_table = True
                text = text[under:].lstrip("=").strip()
                if not text:
                    continue
            rest = ROW_RE.sub("", text).strip()
            if rest:  # the rows of the line that fit still load
                cap.skip(i, f"expected pool rows '<object> <alloc> <free> <lo-water> <permit>', could not read {rest[:60]!r}")
            for m in ROW_RE.finditer(text):
                obj = m[1].strip()
                for (label, name), value in zip(COLUMNS, m.groups()[1:]):
                    counters.append(Counter(i, "pool", obj, label, name, float(value), None, "count", "gauge"))
        if not in_table:
            raise CaptureError("no '======' underline before the pool rows (truncated capture?)", cap.first_line)
        return counters


PARSER = NetstatPoolsize()
