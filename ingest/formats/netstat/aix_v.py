"""AIX ``netstat -v`` (``entstat`` of every adapter): Ethernet adapter statistics.

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

Grammar: ``ETHERNET STATISTICS (entN) :`` opens an adapter record. Lines are ``Label: value`` pairs,
one or two per line: in the statistics block the left pair is transmit-side and the right pair
receive-side (a pair alone far to the right is receive-side), which holds for the spacing-preserved
captures and for copies whose spacing was collapsed. ``Elapsed Time`` may appear twice: the driver
prints the second when it reset part of the statistics. ``Driver Flags`` continues on TAB-indented
lines. The ``... Specific Statistics:`` section depends on the driver (link state, TSO counters, VIO
hypervisor failures and buffer tables); it is read generically: ``Label: value`` pairs, indented
sub-headings, ``Label  n [n ...]`` rows under a ``Buffer Type`` column heading.

Output: entity = the adapter (``ent2``); section ``statistics``, ``general`` or ``specific``;
counter = the label as printed; counter_name = ``tx_<label>`` / ``rx_<label>`` for paired lines
(``tx_packets``, ``rx_bytes``, ``rx_crc_errors``; Transmit/Receive Errors and Packets Dropped
become the conformed ``tx_errors``, ``rx_errors``, ``tx_drops``, ``rx_drops``), ``<label>`` otherwise (``no_mbuf_errors``,
``sw_transmit_queue_overflow``), with the sub-heading path in the specific section
(``receive_buffers_max_buffers`` and entity ``ent4 Tiny``). Cumulative counters since Elapsed Time
began are ``counter``; queue lengths, the data rate, the elapsed time (``elapsed_s``), configuration
and high-water marks are ``gauge``; device type, MAC address, flags and states are ``text``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, CommandParser, Counter, is_noise, snake

RECORD_RE = re.compile(r"^([A-Z][A-Z \-]*STATISTICS) \((\w+)\)\s*:\s*$")
ELAPSED_RE = re.compile(r"^(\d+) days (\d+) hours (\d+) minutes (\d+) seconds$")
PAIR_RE = re.compile(r"(\S[^:]*?):\s+(\S+)")
NUMERIC_ROW_RE = re.compile(r"^(\S.*?\S)\s{2,}(-?\d+(?:\s+-?\d+)*)$")
NUMBER_RE = re.compile(r"^-?\d+$")
TEXT_LABELS = {"Device Type", "Hardware Address", "Driver Flags"}
GAUGE_LABELS = {
    "Max Packets on S/W Transmit Queue", "Current S/W+H/W Transmit Queue Length",
    "Current HW Transmit Queue Length", "Adapter Data Rate",
}
# counters in the driver-specific section; everything else there is configuration or state
SPECIFIC_COUNTER_RE = re.compile(r"(Packets|Errors|Failures|Drops|Dropped|Overflow|No Buffers|Transmitted|Received)\b")
# the conformed interface names other platforms use (rx_errors, tx_drops)
CONFORMED = {"tx_transmit_errors": "tx_errors", "rx_receive_errors": "rx_errors",
             "tx_packets_dropped": "tx_drops", "rx_packets_dropped": "rx_drops"}
RIGHT_COLUMN = 20  # a pair starting this far right is a receive-side value printed alone


class AixNetstatV(CommandParser):
    format = "netstat.aix_v"
    command = "netstat -v"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(RECORD_RE.match(ln.strip()) for ln in lines[:5])

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        record: _Record | None = None
        for i, raw in enumerate(cap.lines):
            if not raw.strip() or (record is None and is_noise(raw)):
                continue
            m = RECORD_RE.match(raw.strip())
            if m:
                if record is not None:
                    counters.extend(record.finish())
                record = _Record(cap, m[2], i)
                continue
            if record is None:
                if set(raw.strip()) == {"-"}:
                    continue  # netstat -v prints a line of dashes before each record
                raise CaptureError(
                    f"expected 'ETHERNET STATISTICS (entN) :' to open an adapter record, found {raw.strip()[:80]!r}",
                    cap.line_no(i),
                )
            record.line(i, raw)
        if record is not None:
            counters.extend(record.finish())
        return counters


class _Record:
    """The lines of one adapter record, read section by section."""

    def __init__(self, cap: Capture, adapter: str, first: int):
        self.cap = cap
        self.adapter = adapter
        self.first = first
        self.section = "title"
        self.counters: list[Counter] = []
        self.seen = {"statistics": False, "general": False}
        self.elapsed_seen = 0
        self.flags_at: int | None = None  # index of the Driver Flags row, for its continuation lines
        self.path: list[tuple[int, str]] = []  # (indent, heading) in the specific section
        self.columns: list[str] | None = None  # 'Buffer Type  Tiny  Small ...' heading

    def error(self, i: int, message: str) -> CaptureError:
        return CaptureError(f"adapter {self.adapter}: {message}", self.cap.line_no(i))

    def add(self, i, label, name, value=None, text=None, unit="count", kind="counter", entity=None):
        self.counters.append(Counter(i, self.section, entity or self.adapter, label, name, value, text, unit, kind))

    def line(self, i: int, raw: str) -> None:
        stripped = raw.strip()
        if set(stripped) <= {"-", " "}:
            return  # underlines
        if stripped.startswith("Transmit Statistics:"):
            self.section, self.seen["statistics"] = "statistics", True
            return
        if stripped == "General Statistics:":
            self.section, self.seen["general"] = "general", True
            return
        if stripped.endswith("Specific Statistics:"):
            self.section = "specific"
            return
        if raw.startswith("\t") and self.flags_at is not None:
            row = self.counters[self.flags_at]
            self.counters[self.flags_at] = row._replace(text=f"{row.text} {stripped}".strip())
            return
        self.flags_at = None
        if self.section == "specific":
            self.specific(i, raw)
            return
        label, _, rest = stripped.partition(": ")
        if not rest and stripped.endswith(":"):
            label, rest = stripped[:-1], ""
        if label == "Elapsed Time":
            self.elapsed(i, rest.strip())
        elif label in TEXT_LABELS:
            if label == "Driver Flags":
                self.flags_at = len(self.counters)
            self.add(i, label, snake(label), text=rest.strip(), unit=None, kind="text")
        elif ":" not in stripped:
            raise self.error(i, f"expected 'Label: value' pairs, found {stripped[:80]!r}")
        else:
            self.pairs(i, raw)

    def elapsed(self, i: int, text: str) -> None:
        m = ELAPSED_RE.match(text)
        if not m:
            raise self.error(i, f"Elapsed Time {text!r}: expected 'D days H hours M minutes S seconds'")
        seconds = ((int(m[1]) * 24 + int(m[2])) * 60 + int(m[3])) * 60 + int(m[4])
        # a second Elapsed Time: part of the statistics was reset; the counters after it start there
        name = "elapsed_s" if not self.elapsed_seen else "elapsed_since_partial_reset_s"
        self.elapsed_seen += 1
        self.add(i, "Elapsed Time", name, float(seconds), unit="s", kind="gauge")

    def pairs(self, i: int, raw: str) -> None:
        pairs = PAIR_RE.findall(raw)
        if not pairs or len(pairs) > 2:
            raise self.error(i, f"expected one or two 'Label: value' pairs, found {raw.strip()[:80]!r}")
        indent = len(raw) - len(raw.lstrip())
        if len(pairs) == 2:
            sides = ["tx_", "rx_"]
        else:
            sides = ["rx_" if self.section == "statistics" and indent >= RIGHT_COLUMN else ""]
        for (label, value), side in zip(pairs, sides):
            label = label.strip()
            if not NUMBER_RE.match(value):
                raise self.error(i, f"{label}: {value!r} is not a whole number")
            kind = "gauge" if label in GAUGE_LABELS else "counter"
            unit = "bytes" if label == "Bytes" else ("mbit_per_s" if label == "Adapter Data Rate" else "count")
            name = side + snake(label)
            self.add(i, label, CONFORMED.get(name, name), float(value), unit=unit, kind=kind)

    def specific(self, i: int, raw: str) -> None:
        """Driver-specific lines: pairs, sub-headings by indentation, rows of a column table."""
        stripped = raw.strip()
        indent = len(raw.expandtabs(8)) - len(raw.expandtabs(8).lstrip())
        while self.path and self.path[-1][0] >= indent:
            self.path.pop()
        prefix = "_".join(snake(h) for _, h in self.path)
        tokens = stripped.split()
        if tokens[:2] == ["Buffer", "Type"]:
            self.columns = tokens[2:]
            return
        if ":" not in stripped and all(NUMBER_RE.match(t) for t in tokens) and self.counters \
                and self.counters[-1].kind == "text":
            last = self.counters[-1]  # a list continued on the next line (VLAN Tag IDs)
            self.counters[-1] = last._replace(text=f"{last.text} {stripped}")
            return
        m = NUMERIC_ROW_RE.match(stripped)
        if ":" not in stripped and m:
            label, numbers = m[1], m[2].split()
            name = "_".join(x for x in (prefix, snake(label)) if x)
            kind = "counter" if SPECIFIC_COUNTER_RE.search(label) else "gauge"
            unit = "KiB" if "(KB)" in label else "count"
            if self.columns and len(numbers) == len(self.columns):
                for col, n in zip(self.columns, numbers):
                    self.add(i, label, name, float(n), unit=unit, kind=kind, entity=f"{self.adapter} {col}")
            elif len(numbers) == 1:
                self.add(i, label, name, float(numbers[0]), unit=unit, kind=kind)
            else:
                self.add(i, label, name, text=m[2], unit=None, kind="text")
            return
        if ":" not in stripped:
            self.path.append((indent, stripped))  # a sub-heading such as 'Receive Information'
            self.columns = None if indent == 0 else self.columns
            return
        pairs = PAIR_RE.findall(stripped) if stripped.count(": ") > 1 else [tuple(stripped.split(":", 1))]
        for label, value in pairs:
            label, value = label.strip(), value.strip()
            name = "_".join(x for x in (prefix, snake(label)) if x)
            if NUMBER_RE.match(value):
                kind = "counter" if SPECIFIC_COUNTER_RE.search(label) else "gauge"
                self.add(i, label, name, float(value), kind=kind)
            else:
                self.add(i, label, name, text=value, unit=None, kind="text")

    def finish(self) -> list[Counter]:
        missing = [f"'{s.title()} Statistics:'" if s == "general" else "'Transmit Statistics:'"
                   for s, seen in self.seen.items() if not seen]
        if missing:
            raise CaptureError(
                f"adapter {self.adapter}: record has no {' and no '.join(missing)} block (truncated capture?)",
                self.cap.line_no(self.first),
            )
        return self.counters


PARSER = AixNetstatV()
