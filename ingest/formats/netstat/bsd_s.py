"""BSD, macOS and AIX ``netstat -s``: protocol statistics in the 4.4BSD layout.

Real sample (AIX 7.3, from the gopsutil test data; shortened)::

    tcp:
    	8864927 packets sent
    		4194757 data packets (3255534866 bytes)
    		26849 data packets (23271573 bytes) retransmitted
    		3174391 ack-only packets (1213424 delayed)
    	13907119 packets received
    		4921506 acks (for 3255334387 bytes)
    	2177 connection requests
    	467502 connections closed (including 1913 drops)
    icmp:
    	Output histogram:
    		destination unreachable: 3

Grammar: a protocol title in lower case at column 0 (``tcp:``, ``udp:``, ``ip:``, ``icmp:``,
``ipv6:``, ``igmp:`` ...), then counter lines indented by TABs: ``<n> <text>`` or, in histograms,
``<text>: <n>``. A line indented one level deeper than the line above it details that line
(``data packets`` of ``packets sent``), and its name says so, because the same text appears under
different lines (``window update packets`` sent and received). A number in parentheses is a second
counter of the line: ``(3255534866 bytes)``, ``(including 1913 drops)``, ``(of 400 attempts)``. The
kernel prints the whole list on AIX and only the non-zero lines on some BSDs, so lines come and go;
each is read on its own, and a line of no known shape is kept in ``raw.command_unparsed_lines``.

Junos' ``show system statistics`` prints the same layout with its own habits, read as such: a title in
any case (``Tcp:``, ``raw_if:``), more than one blank after the number, a sub-title without its colon
(``Output Histogram``, a text-only line over deeper lines), a histogram printed at its sub-title's own
indent, and a title printed again (``pfkey:`` three times: sections ``pfkey``, ``pfkey_2``, ``pfkey_3``)::

    Tcp:
            265063785 packets sent
                    52538606 data packets (49634888 bytes)
    icmp:
            Output Histogram
                    18108704 echo reply

Output: section = the protocol (``tcp``); counter = the text as printed with its numbers as ``#``
(``data packets (# bytes) retransmitted``), a detail line prefixed by the line it details; counter_name
= ``<protocol>_<text in snake case>`` (``tcp_packets_sent_data_packets``), a parenthesised count
adding its word (``tcp_packets_sent_data_packets_bytes``, ``tcp_connections_closed_drops``). The TCP
counters the marts read get the names Linux uses: ``tcp_out_segs`` (packets sent, retransmissions
included), ``tcp_in_segs`` (packets received), ``tcp_retrans_segs`` (data packets retransmitted),
``tcp_active_opens`` (connection requests), ``tcp_passive_opens`` (connection accepts) and
``tcp_attempt_fails`` (embryonic connections dropped). Everything is cumulative since boot
(``counter``) except the ``biggest``/``maximum`` values, which are high-water marks (``gauge``).
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise, snake, title_indent
from ingest.formats.command_parser import CommandParser

TITLE_RE = re.compile(r"^([a-z][a-z0-9]*):\s*$")
ANY_CASE_TITLE_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*):\s*$")  # Junos prints 'Tcp:' and 'raw_if:'
VALUE_FIRST_RE = re.compile(r"^(\d+)\s+(\S.*)$")
LABEL_FIRST_RE = re.compile(r"^(\S.*?):\s+(\d+)$")
SUBTITLE_RE = re.compile(r"^([A-Za-z][^\d:]*):$")
BARE_SUBTITLE_RE = re.compile(r"^([A-Za-z][^\d:]*)$")  # 'Output Histogram': a sub-title only over deeper lines
PARENTHESISED_RE = re.compile(r"\(([a-z]+ )?(\d+)( [a-z.]+(?: [a-z]+)*)?\)")
CONFORMED = {
    "tcp_packets_sent": "tcp_out_segs",
    "tcp_packets_received": "tcp_in_segs",
    "tcp_packets_sent_data_packets_retransmitted": "tcp_retrans_segs",
    "tcp_connection_requests": "tcp_active_opens",
    "tcp_connection_accepts": "tcp_passive_opens",
    "tcp_embryonic_connections_dropped": "tcp_attempt_fails",
}
PROTOCOLS = {"ip", "tcp", "udp", "icmp", "igmp", "ipv6", "ip6", "icmp6", "icmpv6", "arp", "ipsec", "rip6"}


class BsdNetstatS(CommandParser):
    format = "netstat.bsd_s"
    command = "netstat -s"
    each_counter_once = True
    version = "1"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        titles = {m[1] for ln in lines if (m := TITLE_RE.match(ln.strip()))}
        if titles & PROTOCOLS:
            return any(ln[:1] in " \t" and VALUE_FIRST_RE.match(ln.strip()) for ln in lines)
        # Junos titles its first protocol 'Tcp:' as Linux does; only BSD details a counter by deeper counters
        return any(m[1].lower() in PROTOCOLS for ln in lines if (m := ANY_CASE_TITLE_RE.match(ln.strip()))) and any(
            VALUE_FIRST_RE.match(a.strip()) and VALUE_FIRST_RE.match(b.strip()) and _depth(b) > _depth(a) > 0
            for a, b in zip(lines, lines[1:]))

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        section: str | None = None
        parents: list[tuple[int, str, str]] = []  # (depth, text, name) of the lines above, by depth
        seen: dict[str, int] = {}  # how often each title was printed so far
        content = [i for i, raw in enumerate(cap.lines) if not is_noise(raw)]
        depths = {i: _depth(cap.lines[i]) for i in content}
        next_depth = dict(zip(content, [depths[i] for i in content[1:]] + [-1]))
        titles_at = title_indent(cap.lines, _is_protocol_title)
        for i in content:
            raw = cap.lines[i]
            if depths[i] <= titles_at:
                m = ANY_CASE_TITLE_RE.match(raw.strip())
                if m:  # a title printed again (Junos' three 'pfkey:' blocks) opens another section; a
                    # protocol's again ('tcp:' of a second capture appended without its header) does not: its
                    # counters, given twice, keep their lines unparsed
                    name = m[1].lower()
                    seen[name] = seen.get(name, 0) + 1
                    again = seen[name] > 1 and name not in PROTOCOLS
                    section, parents = name + (f"_{seen[name]}" if again else ""), []
                else:
                    cap.skip(i, "expected a protocol title such as 'tcp:' at column 0")
                continue
            if section is None:
                cap.skip(i, "counter line before the first protocol title (e.g. 'tcp:')")
                continue
            depth = depths[i]
            line = raw.strip()
            m = SUBTITLE_RE.match(line) or (BARE_SUBTITLE_RE.match(line) if next_depth[i] > depth else None)
            if m and next_depth[i] == depth:  # its lines printed at its own indent (Junos 'Input histogram:')
                depth -= 1
            read = None if m else _line(line)
            if m is None and read is None:  # not understood: the lines around it keep their parents
                cap.skip(i, f"in {section}: expected '<number> <text>', '<text>: <number>' or a sub-title "
                            "ending in ':'")
                continue
            while parents and parents[-1][0] >= depth:
                parents.pop()
            if m:
                parents.append((depth, m[1], snake(m[1])))
                continue
            value, text, extras = read
            prefix = [p for _, p, _ in parents]
            label = ": ".join([*prefix, text])
            base = "_".join([section, *(n for _, _, n in parents), snake(_without_parentheses(text))])
            name = CONFORMED.get(base, base)
            counters.append(Counter(i, section, None, label, name, float(value), None, _unit(name, text),
                                    "gauge" if re.search(r"\b(biggest|maximum)\b", text) else "counter"))
            for word, extra in extras:
                counters.append(Counter(i, section, None, f"{label}: {word}", f"{base}_{snake(word)}", float(extra),
                                        None, "bytes" if word == "bytes" else "count", "counter"))
            parents.append((depth, text, snake(_without_parentheses(text))))
        return counters


def _is_protocol_title(line: str) -> bool:
    m = ANY_CASE_TITLE_RE.match(line)
    return m is not None and m[1].lower() in PROTOCOLS


def _depth(line: str) -> int:
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _line(line: str) -> tuple[str, str, list[tuple[str, str]]] | None:
    """(value, text with its numbers as '#', [(word, number)] of the parenthesised counts)."""
    m = VALUE_FIRST_RE.match(line)
    if m:
        value, rest = m[1], m[2]
    else:
        m = LABEL_FIRST_RE.match(line)
        if not m:
            return None
        value, rest = m[2], m[1]
    # only the numbers in parentheses are counts: 'less than 4 segments' and 'ICMP v6' keep their digits
    extras = [(p[3].split()[-1] if p[3] else "count", p[2]) for p in PARENTHESISED_RE.finditer(rest)]
    return value, PARENTHESISED_RE.sub(lambda p: f"({p[1] or ''}#{p[3] or ''})", rest), extras


def _without_parentheses(text: str) -> str:
    return re.sub(r"\s*\([^)]*\)", "", text)


def _unit(name: str, text: str) -> str:
    if name.startswith("tcp_") and name.endswith("_segs"):
        return "segments"
    return "bytes" if re.match(r"#?\s*bytes\b", text) else "count"


PARSER = BsdNetstatS()
