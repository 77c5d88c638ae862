"""Linux ``netstat -i`` (net-tools): the kernel interface table.

Real sample (CentOS 7.7, from the jc project's test data)::

    Kernel Interface table
    Iface             MTU    RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR Flg
    docker0          1500        0      0      0 0             0      0      0      0 BMU
    ens33            1500      476      0      0 0           312      0      0      0 BMRU
    lo              65536        0      0      0 0             0      0      0      0 LRU

Older net-tools print a ``Met`` (metric) column after ``MTU``; the header decides. Columns are
whitespace-separated (``RX-OVR`` values are left-aligned, so positions are not reliable). A row that
does not fit the heading is kept in ``raw.command_unparsed_lines``; the other interfaces load.

Output: per interface (entity = the interface name, section ``link``) the cumulative packet counters
``rx_packets`` (RX-OK), ``rx_errors``, ``rx_drops``, ``rx_overruns``, ``tx_packets`` (TX-OK),
``tx_errors``, ``tx_drops``, ``tx_overruns``; the gauges ``mtu`` and ``metric``; the text ``flags``.
The same canonical names are used by the BSD/macOS and AIX adapter parsers, so marts need no
per-platform columns. counter = the column heading as printed.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise
from ingest.formats.command_parser import CommandParser

HEADER_RE = re.compile(r"^Iface\s+MTU\s+(Met\s+)?RX-OK\s+RX-ERR\s+RX-DRP\s+RX-OVR\s+TX-OK\s+TX-ERR\s+TX-DRP\s+TX-OVR\s+Flg\s*$")
COLUMNS = {
    "MTU": ("mtu", "bytes", "gauge"),
    "Met": ("metric", "count", "gauge"),
    "RX-OK": ("rx_packets", "packets", "counter"),
    "RX-ERR": ("rx_errors", "packets", "counter"),
    "RX-DRP": ("rx_drops", "packets", "counter"),
    "RX-OVR": ("rx_overruns", "packets", "counter"),
    "TX-OK": ("tx_packets", "packets", "counter"),
    "TX-ERR": ("tx_errors", "packets", "counter"),
    "TX-DRP": ("tx_drops", "packets", "counter"),
    "TX-OVR": ("tx_overruns", "packets", "counter"),
}


class LinuxNetstatI(CommandParser):
    format = "netstat.linux_i"
    command = "netstat -i"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(HEADER_RE.match(ln.strip()) for ln in lines[:5])

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        header: list[str] | None = None
        for i, line in enumerate(cap.lines):
            if is_noise(line) or line.strip() == "Kernel Interface table":
                continue
            if HEADER_RE.match(line.strip()):
                header = line.split()
                continue
            row = self._row(i, header, line.split()) if header else None
            if row is None:
                what = (f"{len(header)} columns ({' '.join(header)})" if header
                        else "the heading 'Iface MTU RX-OK ... Flg'")
                cap.skip(i, f"expected {what} with whole numbers")
                continue
            counters.extend(row)
        return counters

    @staticmethod
    def _row(i: int, header: list[str], tokens: list[str]) -> list[Counter] | None:
        # Flg is empty for an interface with no flags set
        if len(tokens) not in (len(header), len(header) - 1) or not all(t.isdigit() for t in tokens[1:len(header) - 1]):
            return None
        iface = tokens[0]
        row = []
        for heading, text in zip(header[1:-1], tokens[1:]):
            name, unit, kind = COLUMNS[heading]
            row.append(Counter(i, "link", iface, heading, name, float(text), None, unit, kind))
        if len(tokens) == len(header):
            row.append(Counter(i, "link", iface, "Flg", "flags", None, tokens[-1], None, "text"))
        return row


PARSER = LinuxNetstatI()
