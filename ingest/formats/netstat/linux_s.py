"""Linux ``netstat -s`` (net-tools): protocol statistics from /proc/net/snmp and /proc/net/netstat.

Real sample (a Debian 12 development machine, net-tools 2.10; shortened)::

    Ip:
        Forwarding: 2
        41920 total packets received
        0 forwarded
        41920 incoming packets delivered
        15481 requests sent out
    Icmp:
        1 ICMP messages received
        ICMP input histogram:
            destination unreachable: 1
    IcmpMsg:
            InType3: 1
    Tcp:
        188 active connection openings
        11 failed connection attempts
        2 connections established
        41594 segments received
        15127 segments sent out
        0 segments retransmitted
        261 resets sent
    TcpExt:
        Quick ack mode was activated 62 times
        TCPTimeouts: 2
    IpExt:
        InOctets: 883586148

Grammar: a section title at column 0 (``Tcp:``); indented counter lines in three shapes,
``<n> <text>``, ``<Name>: <n>`` and ``<text> <n> <text>``; indented sub-titles
(``ICMP input histogram:``) qualify the lines below them. net-tools prints a counter it has no text
for as ``Name: value`` (only when non-zero), and skips many zero counters, so the set of lines
changes as counters become non-zero; the ten Tcp lines are always printed, so a Tcp section without all
of them is truncated and rejected (``netstat -su`` and ``-st`` print some sections only, which is fine).
Any other line (net-tools' own ``error parsing /proc/net/snmp: Success``, stray text) is kept in
``raw.command_unparsed_lines`` and the rest of the capture loads. Every line's text is mapped back to the kernel MIB name
(``segments retransmitted`` -> ``Tcp RetransSegs``), so old and new net-tools spellings of the same
counter get the same normalised name.

Output: captures with command ``netstat -s`` in ``raw.command_captures`` and their counters in
``command_counter_labels`` and ``command_values`` (see ``ingest.formats.capture``); section = the
title (``Tcp``); counter = the label as printed with the number replaced by ``#``; counter_name =
``<section>_<mib name in snake case>`` (``tcp_retrans_segs``, ``tcpext_tcp_timeouts``,
``icmp_in_dest_unreachs``, ``icmpmsg_in_type3``); kind ``gauge`` for connections established, the
forwarding flag and the default TTL, ``counter`` (cumulative since boot) for everything else.

Speed: a log of thousands of captures of one host prints the same text with other numbers, so a
capture whose text without digits was seen before reuses that capture's layout and only converts the
numbers: all numbers of a block of the log are read at once (``LinuxNetstatS.load_group``,
``digit_runs``), and the value rows of those captures are numpy arrays, never Python objects.
"""

from __future__ import annotations

import re

import numpy as np

from ingest.formats.capture import (Capture, CaptureError, Counter, CounterSink, Layout, Segment, is_noise, snake,
                                     title_indent)
from ingest.formats.command_parser import COUNTER_LIMIT, CommandParser

# printed text (number as '#') -> kernel MIB name, per section; old and new net-tools spellings
MIB_BY_TEXT: dict[str, dict[str, str]] = {
    "Ip": {
        "# forwarded": "ForwDatagrams",
        "# fragments created": "FragCreates",
        "# outgoing packets failed fragmentation": "FragFails",
        "# fragments failed": "FragFails",  # older net-tools' wording of the same counter
        "# outgoing packets fragmented ok": "FragOKs",
        "# fragments received ok": "FragOKs",  # older net-tools' wording (it counts fragmented datagrams)
        "# with invalid addresses": "InAddrErrors",
        "# incoming packets delivered": "InDelivers",
        "# incoming packets discarded": "InDiscards",
        "# with invalid headers": "InHdrErrors",
        "# total packets received": "InReceives",
        "# with unknown protocol": "InUnknownProtos",
        "# outgoing packets dropped": "OutDiscards",
        "# dropped because of missing route": "OutNoRoutes",
        "# requests sent out": "OutRequests",
        "# packet reassemblies failed": "ReasmFails",
        "# packets reassembled ok": "ReasmOKs",
        "# reassemblies required": "ReasmReqds",
        "# fragments dropped after timeout": "ReasmTimeout",
        "Default TTL is #": "DefaultTTL",
    },
    "Icmp": {
        "# input ICMP message failed": "InErrors",
        "# input ICMP message failed.": "InErrors",
        "# ICMP messages received": "InMsgs",
        "# ICMP messages failed": "OutErrors",
        "# ICMP messages sent": "OutMsgs",
        "ICMP input histogram: address mask replies: #": "InAddrMaskReps",
        "ICMP input histogram: address mask request: #": "InAddrMasks",
        "ICMP input histogram: destination unreachable: #": "InDestUnreachs",
        "ICMP input histogram: echo replies: #": "InEchoReps",
        "ICMP input histogram: echo requests: #": "InEchos",
        "ICMP input histogram: wrong parameters: #": "InParmProbs",
        "ICMP input histogram: redirects: #": "InRedirects",
        "ICMP input histogram: source quenches: #": "InSrcQuenchs",
        "ICMP input histogram: timeout in transit: #": "InTimeExcds",
        "ICMP input histogram: timestamp reply: #": "InTimestampReps",
        "ICMP input histogram: timestamp request: #": "InTimestamps",
        "ICMP output histogram: address mask replies: #": "OutAddrMaskReps",
        "ICMP output histogram: address mask requests: #": "OutAddrMasks",
        "ICMP output histogram: destination unreachable: #": "OutDestUnreachs",
        "ICMP output histogram: echo replies: #": "OutEchoReps",
        "ICMP output histogram: echo requests: #": "OutEchos",
        "ICMP output histogram: wrong parameters: #": "OutParmProbs",
        "ICMP output histogram: redirect: #": "OutRedirects",
        "ICMP output histogram: source quench: #": "OutSrcQuenchs",
        "ICMP output histogram: time exceeded: #": "OutTimeExcds",
        "ICMP output histogram: timestamp replies: #": "OutTimestampReps",
        "ICMP output histogram: timestamp requests: #": "OutTimestamps",
    },
    "Tcp": {
        "# active connection openings": "ActiveOpens",
        "# active connections openings": "ActiveOpens",
        "# passive connection openings": "PassiveOpens",
        "# failed connection attempts": "AttemptFails",
        "# connection resets received": "EstabResets",
        "# connections established": "CurrEstab",
        "# segments received": "InSegs",
        "# segments sent out": "OutSegs",
        "# segments send out": "OutSegs",
        "# segments retransmitted": "RetransSegs",
        "# segments retransmited": "RetransSegs",
        "# bad segments received": "InErrs",
        "# bad segments received.": "InErrs",
        "# resets sent": "OutRsts",
    },
    "Udp": {
        "# packets received": "InDatagrams",
        "# packets to unknown port received": "NoPorts",
        "# packets to unknown port received.": "NoPorts",
        "# packet receive errors": "InErrors",
        "# packets sent": "OutDatagrams",
        "# receive buffer errors": "RcvbufErrors",
        "# send buffer errors": "SndbufErrors",
    },
    "TcpExt": {
        "# delayed acks further delayed because of locked socket": "DelayedACKLocked",
        "Quick ack mode was activated # times": "DelayedACKLost",
        "# delayed acks sent": "DelayedACKs",
        "# resets received for embryonic SYN_RECV sockets": "EmbryonicRsts",
        "# SYNs to LISTEN sockets dropped": "ListenDrops",
        "# SYNs to LISTEN sockets ignored": "ListenDrops",
        "# times the listen queue of a socket overflowed": "ListenOverflows",
        "# ICMP packets dropped because socket was locked": "LockDroppedIcmps",
        "# packets dropped from out-of-order queue because of socket buffer overrun": "OfoPruned",
        "# ICMP packets dropped because they were out-of-window": "OutOfWindowIcmps",
        "# active connections rejected because of time stamp": "PAWSActive",
        "# packetes rejected in established connections because of timestamp": "PAWSEstab",
        "# packets rejects in established connections because of timestamp": "PAWSEstab",
        "# passive connections rejected because of time stamp": "PAWSPassive",
        "# packets pruned from receive queue because of socket buffer overrun": "PruneCalled",
        "# packets pruned from receive queue": "RcvPruned",
        "Ran # times out of system memory during packet sending": "SockMallocOOM",
        "# invalid SYN cookies received": "SyncookiesFailed",
        "# SYN cookies received": "SyncookiesRecv",
        "# SYN cookies sent": "SyncookiesSent",
        "# times unable to send RST due to no memory": "TCPAbortFailed",
        "# connections reset due to early user close": "TCPAbortOnClose",
        "# connections reset due to unexpected data": "TCPAbortOnData",
        "# connections aborted after user close in linger timeout": "TCPAbortOnLinger",
        "# connections aborted due to memory pressure": "TCPAbortOnMemory",
        "# connections reset due to unexpected SYN": "TCPAbortOnSyn",
        "# connections aborted due to timeout": "TCPAbortOnTimeout",
        "# bytes directly in process context from backlog": "TCPDirectCopyFromBacklog",
        "# bytes directly received in process context from prequeue": "TCPDirectCopyFromPrequeue",
        "# DSACKs for out of order packets received": "TCPDSACKOfoRecv",
        "# DSACKs sent for out of order packets": "TCPDSACKOfoSent",
        "# DSACKs sent for old packets": "TCPDSACKOldSent",
        "# DSACKs received": "TCPDSACKRecv",
        "# congestion windows recovered without slow start by DSACK": "TCPDSACKUndo",
        "# congestion window recovered without slow start using DSACK": "TCPDSACKUndo",
        "Detected reordering # times using FACK": "TCPFACKReorder",
        "# fast retransmits": "TCPFastRetrans",
        "# forward retransmits": "TCPForwardRetrans",
        "# congestion windows fully recovered without slow start": "TCPFullUndo",
        "# predicted acknowledgments": "TCPHPAcks",
        "# packet headers predicted": "TCPHPHits",
        "# packet headers predicted and directly queued to user": "TCPHPHitsToUser",
        "# timeouts in loss state": "TCPLossFailures",
        "# TCP data loss events": "TCPLoss",
        "# congestion windows recovered without slow start after partial ack": "TCPLossUndo",
        "# retransmits lost": "TCPLostRetransmits",
        "TCP ran low on memory # times": "TCPMemoryPressures",
        "# congestion windows partially recovered using Hoe heuristic": "TCPPartialUndo",
        "# packets directly queued to recvmsg prequeue.": "TCPPrequeued",
        "# packets directly queued to recvmsg prequeue": "TCPPrequeued",
        "# packets dropped from prequeue": "TCPPrequeueDropped",
        "# acknowledgments not containing data payload received": "TCPPureAcks",
        "# acknowledgments not containing data received": "TCPPureAcks",
        "# packets collapsed in receive queue due to low socket buffer": "TCPRcvCollapsed",
        "# timeouts after reno fast retransmit": "TCPRenoFailures",
        "# classic Reno fast retransmits failed": "TCPRenoRecoveryFail",
        "# reno fast retransmits failed": "TCPRenoRecoveryFail",
        "# times recovered from packet loss due to fast retransmit": "TCPRenoRecovery",
        "Detected reordering # times using reno fast retransmit": "TCPRenoReorder",
        "# timeouts after SACK recovery": "TCPSackFailures",
        "# SACK retransmits failed": "TCPSackRecoveryFail",
        "# times recovered from packet loss by selective acknowledgements": "TCPSackRecovery",
        "# bad SACK blocks received": "TCPSACKReneging",
        "Detected reordering # times using SACK": "TCPSACKReorder",
        "# times receiver scheduled too late for direct processing": "TCPSchedulerFailed",
        "# retransmits in slow start": "TCPSlowStartRetrans",
        "# other TCP timeouts": "TCPTimeouts",
        "Detected reordering # times using time stamp": "TCPTSReorder",
        "# TCP sockets finished time wait in slow timer": "TWKilled",
        "# TCP sockets finished time wait in fast timer": "TW",
        "# time wait sockets recycled by time stamp": "TWRecycled",
    },
}
# net-tools prints these Tcp lines whatever their value: a Tcp section without one of them was cut short
ALWAYS_PRINTED_TCP = ("ActiveOpens", "PassiveOpens", "AttemptFails", "EstabResets", "CurrEstab", "InSegs",
                      "OutSegs", "RetransSegs", "InErrs", "OutRsts")
# point-in-time values and configuration: never differenced
GAUGES = {"tcp_curr_estab", "ip_forwarding", "ip_default_ttl", "tcp_rto_algorithm", "tcp_rto_min",
          "tcp_rto_max", "tcp_max_conn"}

SECTION_RE = re.compile(r"^([A-Za-z][A-Za-z0-9]*):\s*$")
LINUX_TITLES = {"Ip", "Tcp", "Icmp", "Udp", "TcpExt"}  # one of them titles every Linux netstat -s
VALUE_FIRST_RE = re.compile(r"^(\d+) (\S.*)$")
KEY_VALUE_RE = re.compile(r"^(\S.*?): (\d+)$")
VALUE_INSIDE_RE = re.compile(r"^(\S.*?) (\d+) (\S.*)$")
SUBTITLE_RE = re.compile(r"^(\S.*):$")
DIGITS_BYTES = b"0123456789"
DIGIT_RUN = re.compile(rb"[0-9]+")


def _unit(name: str) -> str:
    if name.endswith("octets"):
        return "bytes"
    if name.startswith("tcp_") and "segs" in name:
        return "segments"
    return "count"


class CachedShape:
    """A capture text's layout, and which of its digit runs are the values (the others are digits of
    labels such as InType3, checked in every capture read with the shape)."""

    __slots__ = ("layout", "n_runs", "value_runs", "label_runs", "label_values")

    def __init__(self, layout: Layout, n_runs: int, value_runs: list[int], label_runs: list[int],
                 label_values: list[float]):
        self.layout = layout
        self.n_runs = n_runs
        self.value_runs = np.asarray(value_runs, dtype=np.int64)
        self.label_runs = np.asarray(label_runs, dtype=np.int64)
        self.label_values = np.asarray(label_values, dtype=np.float64)


class LinuxNetstatS(CommandParser):
    format = "netstat.linux_s"
    command = "netstat -s"
    each_counter_once = True
    version = "3"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        titles = {ln.strip().rstrip(":") for ln in lines if SECTION_RE.match(ln.strip())}
        return bool(titles & LINUX_TITLES) and any(
            ln[:1] in " \t" and (VALUE_FIRST_RE.match(ln.strip()) or KEY_VALUE_RE.match(ln.strip())) for ln in lines
        )

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        section: str | None = None
        subtitle: str | None = None
        subtitle_indent = 0
        tcp_unread = False  # a Tcp line that could not be read explains a missing Tcp counter
        lines = cap.lines
        damaged = {at for at, _ in cap.unparsed}  # kept unparsed as the lines were read (a NUL byte)
        base = title_indent(lines, lambda ln: SECTION_RE.match(ln) is not None and ln[:-1] in LINUX_TITLES)
        for i, raw in enumerate(lines):
            if is_noise(raw):
                tcp_unread |= section == "Tcp" and i in damaged
                continue
            if len(raw) - len(raw.lstrip(" \t")) <= base:
                m = SECTION_RE.match(raw.strip())
                if m:
                    section, subtitle = m[1], None
                else:  # e.g. net-tools' own 'error parsing /proc/net/snmp: Success'
                    cap.skip(i, "expected a section title such as 'Tcp:' at column 0")
                continue
            if section is None:
                cap.skip(i, "counter line before the first section title (e.g. 'Ip:')")
                continue
            line = raw.strip()
            indent = len(raw) - len(raw.lstrip())
            # a histogram's lines are indented deeper than its title
            within = subtitle if subtitle is not None and indent > subtitle_indent else None
            counter = self._counter(i, section, within, line)
            if counter is not None:
                counters.append(counter)
                subtitle = within
            elif SUBTITLE_RE.match(line) and not any(ch.isdigit() for ch in line):
                subtitle, subtitle_indent = SUBTITLE_RE.match(line)[1], indent
            else:  # a line not understood leaves the section and sub-title as they were
                cap.skip(i, f"in section {section}: expected '<number> <text>', '<Name>: <number>' or a sub-title "
                            "ending in ':'")
                tcp_unread |= section == "Tcp"
        if not tcp_unread:
            _require_tcp(cap, counters)
        return counters

    def _counter(self, i: int, section: str, subtitle: str | None, line: str) -> Counter | None:
        found = _value_match(line)
        if found is None:
            return None
        value, text, _ = found
        label = f"{subtitle}: {text}" if subtitle else text
        mib = MIB_BY_TEXT.get(section, {}).get(label)
        if mib is None:
            # 'Name: value' is how net-tools prints a counter it has no text for: Name is the MIB name
            mib = text[:-3] if text.endswith(": #") and " " not in text[:-3] else text.replace("#", " ")
        name = f"{section.lower()}_{snake(mib)}"
        kind = "gauge" if name in GAUGES else "counter"
        return Counter(i, section, None, label, name, float(value), None, _unit(name), kind)

    def shape_of(self, segment: Segment, sink: CounterSink) -> CachedShape | None:
        shapes = sink.cache.get(self.format)
        if not shapes:
            return None
        return shapes.get(segment.block[segment.start:segment.end].translate(None, DIGITS_BYTES))

    def load_group(self, block: bytes, group: list, sink: CounterSink) -> list:
        """Every number of the block is read at once (numpy); each capture then takes its values by
        digit-run position, after checking its run count and the digits of its labels."""
        memo = sink.cache.setdefault("digit_runs", {})
        if memo.get("block") is not block:  # once per block, however many groups slower captures cut
            memo.update(block=block, runs=digit_runs(block))
        starts, numbers = memo["runs"]
        first = np.searchsorted(starts, [seg.start for seg, _, _ in group])
        count = np.searchsorted(starts, [seg.end for seg, _, _ in group]) - first
        by_shape: dict[int, list[int]] = {}
        for k, (_, _, shape) in enumerate(group):
            by_shape.setdefault(id(shape), []).append(k)
        slow = []
        for members in by_shape.values():
            shape = group[members[0]][2]
            members = np.asarray(members)
            ok = count[members] == shape.n_runs
            if shape.label_runs.size:
                at = np.minimum(first[members][:, None] + shape.label_runs, len(numbers) - 1)
                ok &= (numbers[at] == shape.label_values).all(axis=1)
            if ok.any():  # a number beyond 2^64 is read the ordinary way, which keeps its line
                ok[ok] = (numbers[first[members[ok]][:, None] + shape.value_runs] <= COUNTER_LIMIT).all(axis=1)
            good = members[ok]
            if good.size:
                values = numbers[first[good][:, None] + shape.value_runs].ravel()
                sink.add_group([group[k][1] for k in good], self.command, self.format, shape.layout, values)
            slow += [group[k][:2] for k in members[~ok]]
        return slow

    def load_capture(self, cap: Capture, sink: CounterSink) -> None:
        counters = self.checked_counters(cap)
        layout = sink.layout(counters)
        body = cap.text.encode()
        # a capture with unread lines is not a template: the bulk path would not keep its lines
        shape = None if cap.unparsed else _shape(cap, counters, layout, body)
        if shape is not None:
            sink.cache.setdefault(self.format, {})[body.translate(None, DIGITS_BYTES)] = shape
        sink.add(cap, self.command, self.format, layout, [c.value for c in counters])


def _require_tcp(cap: Capture, counters: list[Counter]) -> None:
    """A Tcp section cut short: net-tools prints all of ALWAYS_PRINTED_TCP, so a Tcp section without
    one of them (and no unreadable line in its place) ends a truncated capture. A capture without a
    Tcp section is not truncated for that: ``netstat -su`` prints none; nor is one that names none of
    them, whose labels are translated (net-tools run without ``LANG=C``: ``aktive Verbindungsöffnungen``)
    and load under their own names."""
    tcp = {c.name for c in counters if c.section == "Tcp"}
    missing = [m for m in ALWAYS_PRINTED_TCP if f"tcp_{snake(m)}" not in tcp]
    if tcp and missing and len(missing) < len(ALWAYS_PRINTED_TCP):
        last = max(c.offset for c in counters)
        raise CaptureError(f"the Tcp section lacks {', '.join(missing)}: truncated capture (netstat -s prints "
                           "all of them)", cap.line_no(last))


def _value_match(line: str) -> tuple[str, str, int] | None:
    """(value, text with the value as '#', the value's position in the line) for a counter line."""
    m = VALUE_FIRST_RE.match(line)
    if m:
        return m[1], f"# {m[2]}", m.start(1)
    m = KEY_VALUE_RE.match(line)
    if m:
        return m[2], f"{m[1]}: #", m.start(2)
    m = VALUE_INSIDE_RE.match(line)
    if m:
        return m[2], f"{m[1]} # {m[3]}", m.start(2)
    return None


def _shape(cap: Capture, counters: list[Counter], layout: Layout, body: bytes) -> CachedShape | None:
    """Which digit runs of the capture's bytes are its values; None when that is not certain."""
    if not body.isascii() or b"\r" in body:
        return None  # byte and character positions would differ
    runs = {m.start(): (k, m.group()) for k, m in enumerate(DIGIT_RUN.finditer(body))}
    at_line = {c.offset: c for c in counters}
    value_runs: list[int] = []
    line_start = 0
    for i, line in enumerate(cap.raw_lines):  # positions in the bytes: the lines as printed
        counter = at_line.get(i)
        if counter is not None:
            stripped = line.strip()
            position = line_start + (len(line) - len(line.lstrip())) + _value_match(stripped)[2]
            run = runs.get(position)
            if run is None or float(run[1]) != counter.value:
                return None
            value_runs.append(run[0])
        line_start += len(line) + 1
    values = set(value_runs)
    labels = sorted((k, float(digits)) for k, digits in runs.values() if k not in values)
    return CachedShape(layout, len(runs), value_runs, [k for k, _ in labels], [v for _, v in labels])


def digit_runs(block: bytes) -> tuple[np.ndarray, np.ndarray]:
    """(start offset, value) of every run of ASCII digits in the block, computed without a Python loop
    over the runs: the values are built digit place by digit place (Horner), one numpy pass per place,
    which touches each run rather than each byte."""
    data = np.frombuffer(block, dtype=np.uint8)
    digit = data - np.uint8(48)  # wraps around for the bytes below '0', so '< 10' tells the digits
    is_digit = np.zeros(len(data) + 2, dtype=bool)
    is_digit[1:-1] = digit < 10
    edges = np.flatnonzero(is_digit[1:] != is_digit[:-1])
    starts, ends = edges[0::2], edges[1::2]
    lengths = ends - starts
    values = np.zeros(len(starts), dtype=np.int64)
    last = len(data) - 1
    for place in range(min(int(lengths.max(initial=0)), 18)):  # 18 digits always fit in int64
        values = np.where(lengths > place, values * 10 + digit[np.minimum(starts + place, last)], values)
    values = values.astype(np.float64)
    for k in np.flatnonzero(lengths > 18):  # beyond int64: rare, done one by one
        values[k] = float(block[starts[k]:ends[k]])
    return starts, values


PARSER = LinuxNetstatS()
