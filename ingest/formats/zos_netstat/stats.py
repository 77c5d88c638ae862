"""z/OS Communications Server ``NETSTAT STATS`` / ``netstat -S`` / ``D TCPIP,,NETSTAT,STATS``.

No capture of this report is public; IBM documents its shape (IP System Administrator's Commands,
"Netstat STATS/-S report") but the example pages could not be read. The parser therefore reads the
documented structure, section by section and label by label, never by position or order (IBM warns
that Netstat report layouts change at every release)::

    MVS TCP/IP NETSTAT CS V2R1       TCPIP Name: TCPCS           17:40:36
    TCP Statistics
      Current Established Connections    = 6
      Active Connections Opened          = 15
      Segments Received                  = 46873
      Segments Sent                      = 44281
      Segments Retransmitted             = 12
    ICMPv4 Statistics
                                 Received     Sent
      Echo Request               10           3

Grammar: a header naming the stack (``TCPIP Name: <stack>`` under TSO/UNIX, ``EZZ2500I``/``EZD0101I
NETSTAT CS VxRy <stack>`` on the console), section titles ending in ``Statistics``, ``Label = value``
lines, and in the ICMP sections a ``Received Sent`` heading over ``<label> <received> <sent>`` rows.
The ``... RECORDS DISPLAYED`` / ``END OF THE REPORT`` trailer lines are skipped; the 65,533-line
truncation line rejects the capture (NETSTAT says itself that the report is incomplete). Any other
line is kept in ``raw.command_unparsed_lines`` and the rest of the report loads. On the console the
report is upper case (``EZD0101I NETSTAT CS V1R12 TCPIP 378``, ``TCP STATISTICS``, ``CURRENT
ESTABLISHED CONNECTIONS = 6``); labels are matched without regard to case.

Output: entity = the stack name; section = the title (``TCP Statistics``); counter = the label as
printed; counter_name = ``<protocol>_<label>`` in snake case (``udp_datagrams_received``), with the
TCP counters the marts need given the names Linux uses (``tcp_in_segs``, ``tcp_out_segs``,
``tcp_retrans_segs``, ``tcp_curr_estab``, ``tcp_active_opens``, ``tcp_passive_opens``,
``tcp_out_rsts``, ``tcp_attempt_fails``, ``tcp_estab_resets``). These label spellings are from the
documentation, not from a capture: check them against the first real one. Counters are cumulative
since the stack started (``counter``); ``Current ...`` values are gauges.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise, snake
from ingest.formats.command_parser import CommandParser

HEADER_RE = re.compile(
    r"^(?:EZ[ZD]\d{4}I\s+)?(?:MVS TCP/IP )?NETSTAT CS (V\dR\d+)\s+(?:TCPIP Name:\s*)?(\S+)", re.IGNORECASE
)
TITLE_RE = re.compile(r"^([A-Za-z0-9 ()/\-]*Statistics(?:\s*\([^)]*\))?)\s*:?\s*$", re.IGNORECASE)
LABEL_VALUE_RE = re.compile(r"^(.*?\S)\s*[=:]\s*(-?\d+)$")
TWO_COLUMN_RE = re.compile(r"^(.*?\S)\s+(\d+)\s+(\d+)$")
TRAILER_RE = re.compile(r"RECORDS DISPLAYED|END OF THE REPORT", re.IGNORECASE)
TRUNCATED = "REPORT TRUNCATED"
TCP_ALIASES = {
    "segments received": "tcp_in_segs",
    "segments sent": "tcp_out_segs",
    "segments retransmitted": "tcp_retrans_segs",
    "current established connections": "tcp_curr_estab",
    "active connections opened": "tcp_active_opens",
    "passive connections opened": "tcp_passive_opens",
    "reset segments sent": "tcp_out_rsts",
    "resets sent": "tcp_out_rsts",
    "failed connection attempts": "tcp_attempt_fails",
    "connections reset": "tcp_estab_resets",
}


class ZosNetstatStats(CommandParser):
    format = "zos_netstat.stats"
    command = "NETSTAT STATS"
    version = "3"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(HEADER_RE.match(ln.strip()) for ln in lines[:4]) and any(
            TITLE_RE.match(ln.strip()) for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        stack = section = None
        two_columns = False
        for i, raw in enumerate(cap.lines):
            text = raw.strip()
            if is_noise(raw) or TRAILER_RE.search(text):
                continue
            if TRUNCATED in text.upper():
                raise CaptureError("the report was truncated by NETSTAT (more than 65,533 lines)", cap.line_no(i))
            m = HEADER_RE.match(text)
            if m:
                stack = m[2]
                continue
            m = TITLE_RE.match(text)
            if m:
                section, two_columns = m[1], False
                continue
            if section is None or stack is None:
                cap.skip(i, "expected the 'NETSTAT CS VxRy ... <stack>' header and a '... Statistics' title "
                            "before counters")
                continue
            if [w.lower() for w in text.split()] == ["received", "sent"]:
                two_columns = True
                continue
            protocol = _protocol(section)
            m = LABEL_VALUE_RE.match(text)
            if m:
                label = m[1]
                name = TCP_ALIASES.get(label.lower()) if protocol == "tcp" else None
                name = name or f"{protocol}_{snake(label)}"
                kind = "gauge" if label.lower().startswith("current") else "counter"
                unit = "segments" if name.endswith("_segs") else "count"
                counters.append(Counter(i, section, stack, label, name, float(m[2]), None, unit, kind))
                continue
            m = TWO_COLUMN_RE.match(text) if two_columns else None
            if m:
                for side, value in (("received", m[2]), ("sent", m[3])):
                    counters.append(Counter(i, section, stack, f"{m[1]} ({side.title()})",
                                            f"{protocol}_{snake(m[1])}_{side}", float(value), None, "count", "counter"))
                continue
            cap.skip(i, f"in {section}: expected 'Label = number'"
                        + (" or '<label> <received> <sent>'" if two_columns else ""))
        return counters


def _protocol(section: str) -> str:
    word = section.split()[0].lower()
    suffix = "6" if "ipv6" in section.lower() and not word.endswith("6") else ""
    return word + suffix


PARSER = ZosNetstatStats()
