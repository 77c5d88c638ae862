"""AIX ``netstat -v`` / ``entstat -d``: adapter statistics, EtherChannel and SEA members, fibre channel.

Real sample (an AIX snap, from the pedz/Snapper test data; the adapter-specific tail is shortened)::

    ETHERNET STATISTICS (ent2) :
    Device Type: 4-Port 10/100/1000 Base-TX PCI-Express Adapter (14106803)
    Hardware Address: e4:1f:13:fd:29:75

    Transmit Statistics:                          Receive Statistics:
    --------------------                          -------------------
    Packets: 241295                               Packets: 238619
    Bytes: 1995516069                             Bytes: 18097146
    Transmit Errors: 0                            Receive Errors: 0
    Packets Dropped: 0                            Packets Dropped: 0
                                                  Bad Packets: 0

    Max Packets on S/W Transmit Queue: 3
    S/W Transmit Queue Overflow: 0
    Current S/W+H/W Transmit Queue Length: 0

    Broadcast Packets: 76                         Broadcast Packets: 1379
    No Carrier Sense: 0                           CRC Errors: 0

    General Statistics:
    -------------------
    No mbuf Errors: 0
    Adapter Reset Count: 1
    Adapter Data Rate: 2000
    Driver Flags: Up Broadcast Running
            Simplex Promiscuous 64BitSupport

    4-Port 10/100/1000 Base-TX PCI-Express Adapter (14106803) Specific Statistics:
    ------------------------------------------------------------------------------
    Link Status: Up
    TCP Segmentation Offload: Enabled
            TCP Segmentation Offload Packets Transmitted: 121748

Grammar: ``ETHERNET STATISTICS (entN) :`` opens an adapter record and ``FIBRE CHANNEL STATISTICS
REPORT: fcsN`` a fibre-channel one (netstat -v prints both). In an Ethernet record the title lines
(``Device Type`` may wrap onto the next line, or be empty for a VLAN), then the statistics block:
``Label: value`` pairs, one or two per line, the left one transmit-side and the right one
receive-side (a pair alone far to the right is receive-side), which holds for spacing-preserved
captures and for copies whose spacing was collapsed. ``Elapsed Time`` may appear twice: the driver
prints the second when it reset part of the statistics. ``General Statistics`` (``Driver Flags``
continues on TAB-indented lines). Everything after it is driver-specific (link state, per-queue
statistics, LACP, hypervisor buffers) or, for an EtherChannel or Shared Ethernet Adapter, the
statistics of its members between ``=====`` and ``-----`` separators; it is read by shape
(``aix_v_blocks``), with queues, threads and buffer classes as qualifiers of the entity. The members'
own ``ETHERNET STATISTICS`` records that follow are records like any other. A line the parser cannot
read is kept in ``raw.command_unparsed_lines`` and the rest loads; a record without its statistics or
General Statistics block ends a truncated capture, which is rejected.

Output: entity = the adapter (``ent2``; ``ent0 RXQ 1``, ``ent22 Thread 0``, ``ent4 Small`` for
qualified counters; ``fcs3``); section ``title``, ``statistics``, ``general``, ``specific`` or
``fibre channel``; counter = the label as printed, with its headings (``Actor State: LACP
activity``); counter_name = ``tx_<label>`` / ``rx_<label>`` for paired lines (``tx_packets``,
``rx_bytes``, ``rx_crc_errors``; Transmit/Receive Errors and Packets Dropped become the conformed
``tx_errors``, ``rx_errors``, ``tx_drops``, ``rx_drops``; ``tx_frames``/``rx_frames`` for fibre
channel), ``<label>`` otherwise (``no_mbuf_errors``, ``sw_transmit_queue_overflow``), with the heading
path in front in the free-form part (``receive_buffers_max_buffers``). Cumulative counters since
Elapsed Time began are ``counter``; queue lengths, the data rate, the elapsed time (``elapsed_s``),
configuration and high-water marks are ``gauge``; device type, MAC address, flags and states are
``text``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise, snake
from ingest.formats.command_parser import CommandParser
from ingest.formats.netstat.aix_v_blocks import NUMBER_RE, BlockReader, is_underline

RECORD_RE = re.compile(r"^([A-Z][A-Z \-]*STATISTICS) \((\w+)\)\s*:\s*$")
FIBRE_RE = re.compile(r"^FIBRE CHANNEL STATISTICS REPORT:\s*(\S+)\s*$")
ELAPSED_RE = re.compile(r"^(\d+) days (\d+) hours (\d+) minutes (\d+) seconds$")
PAIR_RE = re.compile(r"(\S[^:]*?):\s+(\S+)")
TEXT_LABELS = {"Device Type", "Hardware Address", "Driver Flags"}
GENERAL_LABELS = {"No mbuf Errors", "Adapter Reset Count", "Adapter Data Rate", "Driver Flags"}
GAUGE_LABELS = {
    "Max Packets on S/W Transmit Queue", "Current S/W+H/W Transmit Queue Length",
    "Current HW Transmit Queue Length", "Adapter Data Rate",
}
# the conformed interface names other platforms use (rx_errors, tx_drops)
CONFORMED = {"tx_transmit_errors": "tx_errors", "rx_receive_errors": "rx_errors",
             "tx_packets_dropped": "tx_drops", "rx_packets_dropped": "rx_drops"}
RIGHT_COLUMN = 20  # a pair starting this far right is a receive-side value printed alone


class AixNetstatV(CommandParser):
    format = "netstat.aix_v"
    command = "netstat -v"
    version = "3"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(RECORD_RE.match(ln.strip()) or FIBRE_RE.match(ln.strip()) for ln in lines[:8])

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        record: _Record | None = None
        lines = cap.lines
        for i, raw in enumerate(lines):
            stripped = raw.strip()
            ethernet, fibre = RECORD_RE.match(stripped), FIBRE_RE.match(stripped)
            if ethernet or fibre:
                if record is not None:
                    counters.extend(record.finish())
                record = _Ethernet(cap, ethernet[2], i) if ethernet else _Fibre(cap, fibre[1], i)
            elif record is not None:
                record.line(i, raw, lines[i + 1] if i + 1 < len(lines) else None)
            elif stripped and not is_noise(raw) and not is_underline(raw):
                cap.skip(i, "expected 'ETHERNET STATISTICS (entN) :' or 'FIBRE CHANNEL STATISTICS REPORT: fcsN'")
        if record is not None:
            counters.extend(record.finish())
        return counters


class _Record:
    """One adapter record: its title line, and what the record read from the others."""

    def __init__(self, cap: Capture, adapter: str, first: int, section: str):
        self.cap = cap
        self.adapter = adapter
        self.first = first
        self.reader = BlockReader(cap, adapter, section)

    @property
    def counters(self) -> list[Counter]:
        return self.reader.counters

    def line(self, i: int, raw: str, next_line: str | None) -> None:
        if not raw.strip():
            self.reader.blank()
        else:
            self.read(i, raw, next_line)

    def read(self, i: int, raw: str, next_line: str | None) -> None:
        self.reader.line(i, raw, next_line)

    def finish(self) -> list[Counter]:
        return self.counters


class _Fibre(_Record):
    """``FIBRE CHANNEL STATISTICS REPORT: fcs3``: title pairs, frame and word counts per direction,
    link error counts, IP-over-FC blocks; read by shape. ``Seconds Since Last Reset`` is its elapsed time."""

    def __init__(self, cap: Capture, adapter: str, first: int):
        super().__init__(cap, adapter, first, "fibre channel")

    def read(self, i: int, raw: str, next_line: str | None) -> None:
        label, _, value = raw.strip().partition(":")
        if label == "Seconds Since Last Reset" and NUMBER_RE.match(value.strip()):
            self.reader.add(i, label, float(value), None, self.adapter, name="elapsed_s", kind="gauge", unit="s")
        else:
            self.reader.line(i, raw, next_line)


class _Ethernet(_Record):
    """``ETHERNET STATISTICS (ent2) :``: title, statistics and general blocks, then the free-form part."""

    def __init__(self, cap: Capture, adapter: str, first: int):
        super().__init__(cap, adapter, first, "specific")
        self.section = "title"
        self.seen = {"statistics": False, "general": False}
        self.elapsed_seen = 0
        self.continues: int | None = None  # the Driver Flags or Device Type row its next lines continue

    def add(self, i, label, name, value=None, text=None, unit="count", kind="counter"):
        self.counters.append(Counter(i, self.section, self.adapter, label, name, value, text, unit, kind))

    def finish(self) -> list[Counter]:
        """The record's counters; a record without its statistics or General Statistics block was cut
        short, and the snapshot of the capture with it (the last record of a truncated capture)."""
        missing = [f"'{s.title()} Statistics:'" if s == "general" else "'Transmit Statistics:'"
                   for s, seen in self.seen.items() if not seen]
        if missing:
            raise CaptureError(f"adapter {self.adapter}: record has no {' and no '.join(missing)} block "
                               "(truncated capture?)", self.cap.line_no(self.first))
        return self.counters

    def line(self, i: int, raw: str, next_line: str | None) -> None:
        if not raw.strip():
            self.continues = None
        super().line(i, raw, next_line)

    def read(self, i: int, raw: str, next_line: str | None) -> None:
        stripped = raw.strip()
        if self.section == "specific":
            self.reader.line(i, raw, next_line)
            return
        if set(stripped) <= {"-", " "}:
            return  # underlines
        if stripped.startswith("Transmit Statistics:"):
            self.section, self.seen["statistics"], self.continues = "statistics", True, None
            return
        if stripped == "General Statistics:":
            self.section, self.seen["general"], self.continues = "general", True, None
            return
        label, _, rest = stripped.partition(":")
        if self.continues is not None and ":" not in stripped:
            row = self.counters[self.continues]  # Driver Flags go on with TABs; a long Device Type wraps
            self.counters[self.continues] = row._replace(text=f"{row.text} {stripped}".strip())
            return
        self.continues = None
        if self.section == "general" and label not in GENERAL_LABELS:
            self.section = "specific"  # the driver-specific part, or an EtherChannel's or SEA's members
            self.reader.line(i, raw, next_line)
        elif label == "Elapsed Time":
            self.elapsed(i, rest.strip())
        elif label in TEXT_LABELS:
            self.continues = len(self.counters)
            self.add(i, label, snake(label), text=rest.strip(), unit=None, kind="text")
        elif ":" not in stripped or not rest.strip():
            self.cap.skip(i, f"adapter {self.adapter}: expected 'Label: value' pairs")
        else:
            self.pairs(i, raw)

    def elapsed(self, i: int, text: str) -> None:
        m = ELAPSED_RE.match(text)
        if not m:
            self.cap.skip(i, f"adapter {self.adapter}: expected 'Elapsed Time: D days H hours M minutes S seconds'")
            return
        # floats, not ints: a mangled number of thousands of digits is then infinite (and its line kept as
        # unreadable), where int() refuses it or the float of the sum overflows
        seconds = ((float(m[1]) * 24 + float(m[2])) * 60 + float(m[3])) * 60 + float(m[4])
        # a second Elapsed Time: part of the statistics was reset; the counters after it start there
        name = "elapsed_s" if not self.elapsed_seen else "elapsed_since_partial_reset_s"
        self.elapsed_seen += 1
        self.add(i, "Elapsed Time", name, float(seconds), unit="s", kind="gauge")

    def pairs(self, i: int, raw: str) -> None:
        pairs = PAIR_RE.findall(raw)
        if not pairs or len(pairs) > 2 or not all(NUMBER_RE.match(value) for _, value in pairs):
            self.cap.skip(i, f"adapter {self.adapter}: expected one or two 'Label: <whole number>' pairs")
            return
        indent = len(raw) - len(raw.lstrip())
        if len(pairs) == 2:
            sides = ["tx_", "rx_"]
        else:
            sides = ["rx_" if self.section == "statistics" and indent >= RIGHT_COLUMN else ""]
        for (label, value), side in zip(pairs, sides):
            label = label.strip()
            kind = "gauge" if label in GAUGE_LABELS else "counter"
            unit = "bytes" if label == "Bytes" else ("mbit_per_s" if label == "Adapter Data Rate" else "count")
            name = side + snake(label)
            self.add(i, label, CONFORMED.get(name, name), float(value), unit=unit, kind=kind)


PARSER = AixNetstatV()
