"""TCP/IP for VSE ``QUERY IPSTATS``: statistics per foreign IP address (console, or SYSLST at shutdown).

No genuine capture is public. The parser follows the layout IBM documents (VSE/ESA TCP/IP
performance foils, seed 004, L3305-3321): one block per ``IP ADDRESS a.b.c.d`` with the groups
PERFORMANCE INFORMATION (OVERALL, SWS MODE, DEPTH MODE, RETRANSMIT MODE), APPLICATION INFORMATION
(FTP/HTTP/TELNET) and TRANSFER INFORMATION (IP/TCP/UDP), read with the same tolerant
``label: number`` grammar as QUERY STATS (docs/commands.md). Expected form::

    F7 0098 QUERY IPSTATS
    F7 0098 IPN412I IP ADDRESS 10.0.0.1
    F7 0098 IPN412I PERFORMANCE INFORMATION
    F7 0098 IPN412I - OVERALL
    F7 0098 IPN412I   Connections: 12   Max Turnaround: 27185   Max Depth: 1   Max Window: 32768
    F7 0098 IPN412I - SWS MODE
    F7 0098 IPN412I   Time: 16160538 (usec)   Count: 123
    F7 0098 IPN412I TRANSFER INFORMATION
    F7 0098 IPN412I - TCP
    F7 0098 IPN412I   Inbound Datagrams: 3120   Outbound Datagrams: 2811   Inbound Bytes: 48211   Outbound Bytes: 10747742

Output: entity = the foreign IP address; section = ``<group> / <sub-group>``
(``PERFORMANCE INFORMATION / SWS MODE``); counter = the label as printed; counter_name =
``<sub-group>_<label>`` in snake case (``sws_mode_time``, ``tcp_outbound_bytes``,
``overall_max_window``). The counters are cumulative since TCP/IP started (``counter``), except the
``Max ...`` values, which are high-water marks (``gauge``). A line of another shape is kept in
``raw.command_unparsed_lines``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, snake
from ingest.formats.command_parser import CommandParser
from ingest.formats.vse.console import is_title, query_command, split_items, strip_prefix

ADDRESS_RE = re.compile(r"^IP\s+ADDRESS:?\s+(\d{1,3}(?:\.\d{1,3}){3})\s*$", re.IGNORECASE)
GROUPS = ("PERFORMANCE INFORMATION", "APPLICATION INFORMATION", "TRANSFER INFORMATION")


class VseIpStats(CommandParser):
    format = "vse.ipstats"
    command = "QUERY IPSTATS"
    version = "2"
    priority = 44

    def matches(self, lines: list[str]) -> bool:
        texts = [strip_prefix(ln).text for ln in lines]
        return any(query_command(t) == "QUERY IPSTATS" for t in texts) or (
            any(ADDRESS_RE.match(t) for t in texts) and any(t.upper() in GROUPS for t in texts)
        )

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        address = group = sub = None
        for i, raw in enumerate(cap.lines):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            text = strip_prefix(raw).text
            if not text or query_command(text):
                continue
            m = ADDRESS_RE.match(text)
            if m:
                address, group, sub = m[1], None, None
                continue
            if address is None:
                cap.skip(i, "expected 'IP ADDRESS a.b.c.d' to open a block")
                continue
            if is_title(text):
                if text.upper() in GROUPS:
                    group, sub = text.upper(), None
                else:
                    sub = text.strip(" -:").upper()
                continue
            parsed = split_items(text)
            if parsed is None:
                cap.skip(i, f"IP {address}: expected '<label>: <number>' items")
                continue
            title, items = parsed
            if title:
                sub = title.upper()
            section = " / ".join(x for x in (group, sub) if x) or None
            for item in items:
                name = "_".join(x for x in (snake(sub or ""), snake(item.label)) if x)
                kind = "gauge" if item.label.lower().startswith("max") else "counter"
                unit = item.unit or ("bytes" if "bytes" in name else "count")
                counters.append(Counter(i, section, address, item.label, name, item.value, None,
                                        "us" if unit in ("usec", '"') else unit, kind))
        return counters


PARSER = VseIpStats()
