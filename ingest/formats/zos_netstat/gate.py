"""VM/MVS TCP/IP ``NETSTAT GATE``: the known gateways (routes) and their packet size.

Real sample (MVS TCP/IP V2R2.1, Cisco tech note 12989-69; spacing collapsed in the stored copy)::

    netstat gate
    MVS TCP/IP Netstat V2R2.1
    Known gateways:
    NetAddress FirstHop Link Pkt Sz Subnet Mask Subnet Value
    ---------- -------- ------ ------ ----------- ------------
    Default 128.207.161.1 CHIP1 1500 {none}
    128.207.0.0 {direct} CHIP1 1500 0.0.255.0 0.0.161.0

Grammar: the title ``Known gateways:``, a heading and a dashed underline, then one route per line read
by tokens (the spacing of the stored copies is not reliable): net address, first hop (``{direct}``
when attached), link, packet size, then an optional subnet mask (``{none}``) and subnet value (the
``Default`` route has none). A row of another shape is kept in ``raw.command_unparsed_lines``.

Output: section ``route``, entity = the net address; gauge ``packet_size`` (bytes, the route MTU);
text ``first_hop``, ``link``, ``subnet_mask``, ``subnet_value``. Configuration, kept for the
interface and route inventory; nothing here is cumulative.
"""

from __future__ import annotations

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise
from ingest.formats.command_parser import CommandParser

TITLE = "Known gateways:"
TEXT_COLUMNS = [(1, "FirstHop", "first_hop"), (2, "Link", "link"), (4, "Subnet Mask", "subnet_mask"),
                (5, "Subnet Value", "subnet_value")]


class NetstatGate(CommandParser):
    format = "zos_netstat.gate"
    command = "NETSTAT GATE"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(ln.strip() == TITLE for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        in_table = False
        for i, raw in enumerate(cap.lines):
            text = raw.strip()
            if is_noise(raw):
                continue
            if not in_table:
                in_table = text.startswith("----")
                continue
            tokens = text.split()
            if len(tokens) not in (4, 5, 6) or not tokens[3].isdigit():
                cap.skip(i, "expected 'NetAddress FirstHop Link PktSz [SubnetMask [SubnetValue]]' with a numeric "
                            "packet size")
                continue
            route = tokens[0]
            counters.append(Counter(i, "route", route, "Pkt Sz", "packet_size", float(tokens[3]), None, "bytes", "gauge"))
            for pos, label, name in TEXT_COLUMNS:
                if pos < len(tokens):
                    counters.append(Counter(i, "route", route, label, name, None, tokens[pos], None, "text"))
        if not in_table:
            raise CaptureError("no dashed underline before the routes (truncated capture?)", cap.first_line)
        return counters


PARSER = NetstatGate()
