"""TCP/IP for VSE ``QUERY STATS`` and ``QUERY ISTATS``: stack statistics from the console.

No genuine console capture of these displays is public. The parser follows the field lists IBM
documents (VSE/ESA TCP/IP performance foils D.35 and D.34, seed 004) and the counter names of
CSI's SeeTCP/IP monitor, and reads the layout described in docs/commands.md ("TCP/IP for VSE"):
an optional echo of the command, then one counter per line (or several separated by two or more
spaces), behind an optional console prefix, grouped under titles. Expected form::

    F7 0098 QUERY STATS
    F7 0098 IPN253I FTP Daemons: 4
    F7 0098 IPN253I Current Active FTP Daemons: 1
    F7 0098 IPN253I Maximum Active Telnet Buffers: 12
    F7 0098 IPN253I Inbound TCP Rejections: 7
    F7 0098 IPN253I TCP Bytes Sent: 10,747,742
    F7 0098 IPN253I Received Blocks      Total: 1,628,410
    F7 0098 IPN253I                      Inbound Datagrams: 1,600,112
    F7 0098 IPN253I                      Non-IP: 0
    F7 0098 IPN253I                      Mis-Routed: 12
    F7 0098 IPN253I Transmitted Blocks   Total: 1,411,007

and for ISTATS a ``Number of Dispatches`` group with ``Total``, ``Active``, ``Fixed``, ``Quick``,
``Persistent``, ``Passed``, ``Complete``. The message number and label spellings are assumptions
until a real capture exists: labels are matched after lower-casing and removing punctuation, and a
label not in the table is kept under a name made from it (never dropped), and a line that is not
``label: number`` items or a title is kept in ``raw.command_unparsed_lines``.

Output: section = the group title (``Received Blocks``) or ``stats``/``dispatches``; counter = the
label as printed; counter_name from the table below (``rx_non_ip``, ``rx_misrouted``,
``tcp_inbound_rejections``, ``telnet_buffers_active_max``, ``dispatch_complete_scans``...) or
``<group>_<label>`` in snake case. Counters cannot be reset while TCP/IP runs (a drop means a
restart): ``counter``; daemon counts, current and maximum values: ``gauge``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, snake, split_captures_at
from ingest.formats.command_parser import CommandParser
from ingest.formats.vse.console import is_title, query_command, split_items, strip_prefix

# normalised label -> (canonical name, kind); daemons and current/maximum values are gauges
STATS_NAMES = {
    "ftp daemons": ("ftp_daemons", "gauge"),
    "current active ftp daemons": ("ftp_daemons_active", "gauge"),
    "maximum active ftp daemons": ("ftp_daemons_active_max", "gauge"),
    "max active ftp daemons": ("ftp_daemons_active_max", "gauge"),
    "maximum active ftp daemons since being up": ("ftp_daemons_active_max", "gauge"),
    "maximum active ftp buffers": ("ftp_buffers_active_max", "gauge"),
    "telnet daemons": ("telnet_daemons", "gauge"),
    "current active telnet daemons": ("telnet_daemons_active", "gauge"),
    "maximum active telnet daemons": ("telnet_daemons_active_max", "gauge"),
    "max active telnet daemons": ("telnet_daemons_active_max", "gauge"),
    "maximum active telnet daemons since being up": ("telnet_daemons_active_max", "gauge"),
    "current active telnet buffers": ("telnet_buffers_active", "gauge"),
    "maximum active telnet buffers": ("telnet_buffers_active_max", "gauge"),
    "max active telnet buffers": ("telnet_buffers_active_max", "gauge"),
    "maximum active telnet buffers since being up": ("telnet_buffers_active_max", "gauge"),
    "lp daemons": ("lpd_daemons", "gauge"),
    "lpd daemons": ("lpd_daemons", "gauge"),
    "http daemons": ("http_daemons", "gauge"),
    "gopher daemons": ("gopher_daemons", "gauge"),
    "smtp daemons": ("smtp_daemons", "gauge"),
    "pop3 daemons": ("pop3_daemons", "gauge"),
    "lp sessions": ("lpd_sessions", "counter"),
    "lpd sessions": ("lpd_sessions", "counter"),
    "http sessions": ("http_sessions", "counter"),
    "gopher sessions": ("gopher_sessions", "counter"),
    "lp requests": ("lpd_requests", "counter"),
    "lpd requests": ("lpd_requests", "counter"),
    "http requests": ("http_requests", "counter"),
    "gopher requests": ("gopher_requests", "counter"),
    "ftp clients": ("ftp_clients", "counter"),
    "telnet clients": ("telnet_clients", "counter"),
    "lpr clients": ("lpr_clients", "counter"),
    "http clients": ("http_clients", "counter"),
    "inbound tcp rejections": ("tcp_inbound_rejections", "counter"),
    "tcp inbound rejections": ("tcp_inbound_rejections", "counter"),
    "connect rejections": ("connect_rejections", "counter"),
    "ftp files sent": ("ftp_files_sent", "counter"),
    "internal ftp files sent": ("ftp_files_sent", "counter"),
    "ftp files received": ("ftp_files_received", "counter"),
    "internal ftp files received": ("ftp_files_received", "counter"),
    "ftp bytes sent": ("ftp_bytes_sent", "counter"),
    "internal ftp bytes sent": ("ftp_bytes_sent", "counter"),
    "ftp bytes received": ("ftp_bytes_received", "counter"),
    "internal ftp bytes received": ("ftp_bytes_received", "counter"),
    "telnet bytes sent": ("telnet_bytes_sent", "counter"),
    "telnet bytes received": ("telnet_bytes_received", "counter"),
    "tcp bytes sent": ("tcp_bytes_sent", "counter"),
    "tcp bytes received": ("tcp_bytes_received", "counter"),
    "udp bytes sent": ("udp_bytes_sent", "counter"),
    "udp bytes received": ("udp_bytes_received", "counter"),
    "ip bytes sent": ("ip_bytes_sent", "counter"),
    "ip bytes received": ("ip_bytes_received", "counter"),
    "arps in": ("arp_in", "counter"),
    "arp inbound requests": ("arp_inbound_requests", "counter"),
    "arp outbound requests": ("arp_outbound_requests", "counter"),
    "arp outbound replies": ("arp_outbound_replies", "counter"),
    "received blocks total": ("rx_blocks", "counter"),
    "received blocks": ("rx_blocks", "counter"),
    "received blocks inbound datagrams": ("rx_datagrams", "counter"),
    "inbound datagrams": ("rx_datagrams", "counter"),
    "received blocks non ip": ("rx_non_ip", "counter"),
    "non ip": ("rx_non_ip", "counter"),
    "received blocks mis routed": ("rx_misrouted", "counter"),
    "received blocks misrouted": ("rx_misrouted", "counter"),
    "mis routed": ("rx_misrouted", "counter"),
    "misrouted": ("rx_misrouted", "counter"),
    "misdirected ip": ("rx_misrouted", "counter"),
    "received blocks arp": ("rx_arp", "counter"),
    "transmitted blocks total": ("tx_blocks", "counter"),
    "transmitted blocks": ("tx_blocks", "counter"),
    "transmitted blocks outbound datagrams": ("tx_datagrams", "counter"),
    "outbound datagrams": ("tx_datagrams", "counter"),
    "discarded udp": ("udp_discarded", "counter"),
    "unsupported icmp": ("icmp_unsupported", "counter"),
    "unsupported igmp": ("igmp_unsupported", "counter"),
    "unsupported protocol": ("protocol_unsupported", "counter"),
    "tcp checksum errors": ("tcp_checksum_errors", "counter"),
    "ip checksum errors": ("ip_checksum_errors", "counter"),
    "udp checksum errors": ("udp_checksum_errors", "counter"),
    "icmp checksum errors": ("icmp_checksum_errors", "counter"),
    "datagram length errors": ("datagram_length_errors", "counter"),
    "number of dispatches total": ("dispatches", "counter"),
    "number of dispatches": ("dispatches", "counter"),
    "number of dispatches active": ("dispatch_active_scans", "counter"),
    "number of dispatches fixed": ("dispatch_fixed_scans", "counter"),
    "number of dispatches quick": ("dispatch_quick_scans", "counter"),
    "number of dispatches persistent": ("dispatch_persistent_scans", "counter"),
    "number of dispatches passed": ("dispatch_passed", "counter"),
    "number of dispatches complete": ("dispatch_complete_scans", "counter"),
    "total dispatcher time": ("dispatcher_time", "counter"),
    "dispatcher waits": ("dispatcher_waits", "counter"),
    "storage releases": ("storage_releases", "counter"),
}
# the members a group title qualifies even when the display does not indent them
GROUP_MEMBERS = {
    "received blocks": {"total", "inbound datagrams", "non ip", "mis routed", "misrouted", "arp"},
    "transmitted blocks": {"total", "outbound datagrams"},
    "number of dispatches": {"total", "active", "fixed", "quick", "persistent", "passed", "complete"},
}
BYTE_NAMES = re.compile(r"_bytes_")


def normalise(label: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", label.lower()).split())


class VseQueryStats(CommandParser):
    format = "vse.query_stats"
    command = "QUERY STATS"
    version = "2"
    priority = 45

    def matches(self, lines: list[str]) -> bool:
        texts = [strip_prefix(ln).text for ln in lines]
        if any(query_command(t) in ("QUERY STATS", "QUERY ISTATS") for t in texts):
            return True
        labels = {normalise(it.label) for t in texts if (r := split_items(t)) for it in r[1]}
        titles = {normalise(t) for t in texts if is_title(t)} | {
            normalise(r[0]) for t in texts if (r := split_items(t)) and r[0]}
        known = sum(1 for lb in labels if lb in STATS_NAMES)
        return known >= 3 or (bool(titles & set(GROUP_MEMBERS)) and known >= 1)

    def split(self, cap: Capture) -> list[Capture]:
        """QUERY STATS and QUERY ISTATS answered one after the other are two captures."""
        echoes = [i for i, ln in enumerate(cap.lines) if query_command(strip_prefix(ln).text)]
        return split_captures_at(cap, echoes[1:]) if len(echoes) > 1 else [cap]

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        group: tuple[str, int] | None = None  # (title, indent)
        command = None
        for i, raw in enumerate(cap.lines):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            line = strip_prefix(raw)
            if not line.text:
                continue
            echoed = query_command(line.text)
            if echoed:
                command = echoed
                continue
            if is_title(line.text):
                group = (line.text.strip(" -:"), line.indent)
                continue
            parsed = split_items(line.text)
            if parsed is None:
                cap.skip(i, "expected '<label>: <number>' items (a counter with a non-numeric value?)")
                continue
            title, items = parsed
            if title is not None:
                group = (title, line.indent)
            for item in items:
                section = self._section(group, line.indent, title, item.label)
                if section is None:
                    group = None
                counters.append(self._counter(i, section, item))
        names = {c.name for c in counters}
        cap.command = command or ("QUERY ISTATS" if names and names <= _ISTATS_NAMES else "QUERY STATS")
        return counters

    @staticmethod
    def _section(group, indent, title_on_line, label) -> str | None:
        if group is None:
            return None
        name, group_indent = group
        members = GROUP_MEMBERS.get(normalise(name), set())
        if title_on_line or indent > group_indent or normalise(label) in members:
            return name
        return None

    @staticmethod
    def _counter(i: int, section: str | None, item) -> Counter:
        key = normalise(f"{section} {item.label}") if section else normalise(item.label)
        name, kind = STATS_NAMES.get(key) or STATS_NAMES.get(normalise(item.label)) or (None, None)
        if name is None:
            name = snake(key)
            low = key.split()
            kind = "gauge" if low and low[0] in ("current", "maximum", "max") or low[-1] == "daemons" else "counter"
        unit = item.unit or ("bytes" if BYTE_NAMES.search(f"_{name}_") else ("us" if name == "dispatcher_time" else "count"))
        return Counter(i, section or ("dispatches" if name.startswith("dispatch") else "stats"), None,
                       item.label, name, item.value, None, unit, kind)


_ISTATS_NAMES = {n for k, (n, _) in STATS_NAMES.items() if k.startswith("number of dispatches")} | {
    "dispatcher_time", "dispatcher_waits", "storage_releases"}

PARSER = VseQueryStats()
