"""The driver-specific part of an AIX ``netstat -v`` record, and fibre-channel reports, read by shape.

Each adapter driver prints its own lines after ``General Statistics``; EtherChannel and Shared Ethernet
Adapter records add their member statistics; ``FIBRE CHANNEL STATISTICS REPORT`` blocks print theirs.
None has a fixed list of labels, so they are read by the shapes they share (real lines from the
pedz/Snapper test data, AIX snaps of several adapter kinds)::

    PCIe2 2-port 10GbE SR Adapter (a21910071410d003) Specific Statistics:    a title: a line above a
    ---------------------------------------------------------------------    row of '-' or '='
    Link Status: Up                                                          Label: value
    Receive statistics for RXQ number: 1                                     a qualifier: the lines
    \tNumber of receive packets: 210174400                                    below belong to 'ent0 RXQ 1'
    Real Side Statistics:                                                    Label: with no value heads
        Packets received: 238619                                             the lines indented below it
    \tThread .............. #0                                                qualifier 'Thread 0' (SEA)
    \t[q-0]: rx_bytes:\t0                                                     qualifier 'q-0' for the line
    Buffer Type              Tiny    Small   Medium                          column heading, then rows
        Min Buffers               512      512      128                      'Label  n n n' per column
    VLAN Tag IDs:   205   298   299                                          a list continued on
                   3552  3820  3832                                          the next lines
    Frames: 180323917       \t358920289                                       Transmit and Receive (FC)

A qualifier becomes part of the entity (``ent0 RXQ 1``, ``ent22 Thread 0``, ``ent4 Small``) and a
heading part of the counter's label and name (``Actor State: LACP activity``,
``actor_state_lacp_activity``), so every counter of a record has its own key and rates can be taken
per queue. Numbers are gauges when the label names a level (current, maximum, average, lowest);
otherwise cumulative counters when it names events that are never levels (dropped, errors, failures,
overflows ...), or events (packets, bytes, interrupts, frames, PDUs ...) with no configuration word
(size, speed, priority, allocated, buffers, limit ...); everything else numeric is a gauge; words,
flags, hex values and numbers with a leading zero (``SEA Flags: 00000013``, ``0148``) are text. A
line of none of these shapes is kept in ``raw.command_unparsed_lines``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, snake

NUMBER_RE = re.compile(r"^-?(?:0|[1-9]\d*)$")  # a leading zero makes an identifier (VLAN 0148), not a number
TWO_NUMBERS_RE = re.compile(r"^(\d+)\s+(\d+)$")
PAIR_RE = re.compile(r"(\S[^:]*?)\s*:\s+(\S+)")
NUMERIC_ROW_RE = re.compile(r"^([A-Za-z].*?\S)\s{2,}(-?\d+(?:\s+-?\d+)*)$")  # 'Min Buffers  512  512'
HEADING_NUMBER_RE = re.compile(r"^[^\d:]*#\d+$")  # 'SEA Default Queue #8'
QUALIFIERS = (
    (re.compile(r"^(Receive|Transmit) statistics for (RXQ|TXQ) number:\s*(\d+)$"), lambda m: f"{m[2]} {m[3]}"),
    (re.compile(r"^(Receive|Transmit) Q(\d+) Statistics:$"), lambda m: f"{m[1][0]}XQ {m[2]}"),
    (re.compile(r"^Thread\s*\.+\s*#(\d+)$"), lambda m: f"Thread {m[1]}"),
)
LINE_QUALIFIER_RE = re.compile(r"^\[(q-\d+)\]:\s*(.*)$")
BACKUP_RE = re.compile(r"^Backup adapter - (\w+):$")  # an EtherChannel's backup, above a row of '='.
LEVEL_WORDS = {"max", "maximum", "min", "minimum", "cur", "current", "average", "lowest", "biggest"}
EVENT_WORDS = {  # words that only count events, whatever else the label says ('... due to MTU limit Exceeded')
    "dropped", "discarded", "drops", "discards", "error", "errors", "failures", "exceeded", "overflow", "overflows",
    "overflowed", "timeout", "timeouts", "timout", "collisions", "events",
}
GAUGE_WORDS = {
    "size", "speed", "length", "version", "level", "priority", "port", "pvid", "filters", "allocated", "registered",
    "buffers", "threshold", "users", "addresses", "enabled", "adapters", "kb", "queued", "qsets", "limit",
}
COUNTER_WORDS = {
    "packet", "packets", "bytes", "octets", "transmitted", "received", "sent", "interrupts", "frames",
    "words", "count", "pdus", "lacpdus", "resets", "reset", "in", "out", "aggregated", "created", "jabbers",
    "fragments", "deferred", "truncate", "times", "generated", "requests", "loss",
}


def kind_of(label: str) -> str:
    """'counter' for a label naming events, 'gauge' for a level (see the module docstring)."""
    words = set(re.findall(r"[a-z0-9]+", label.lower()))
    if words & LEVEL_WORDS:
        return "gauge"
    if "no buffers" in label.lower() or words & EVENT_WORDS:
        return "counter"
    return "counter" if words & COUNTER_WORDS and not words & GAUGE_WORDS else "gauge"


def unit_of(label: str) -> str:
    lowered = label.lower()
    if "(kb)" in lowered:
        return "KiB"
    return "bytes" if re.search(r"\bbytes\b|_bytes\b|octets", lowered) and "size" not in lowered else "count"


def is_underline(text: str) -> bool:
    """A row of '-' or '=' (tabs between, as fibre-channel reports print them)."""
    chars = set(text.strip())
    return bool(chars) and chars <= {"-", "=", "\t", " "} and len(text.strip().replace("\t", "")) >= 3


class BlockReader:
    """Reads the lines of one record's free-form part into counters of ``section`` and ``adapter``."""

    def __init__(self, cap: Capture, adapter: str, section: str):
        self.cap = cap
        self.adapter = adapter
        self.section = section
        self.counters: list[Counter] = []
        self.path: list[tuple[int, str]] = []  # (indent, heading) of the headings above the line
        self.qualifier: str | None = None
        self.columns: list[str] | None = None  # 'Buffer Type  Tiny  Small ...'
        self.two_columns = False  # under a 'Transmit Statistics  Receive Statistics' title
        self.list_of: tuple[int, int, str] | None = None  # (indent, line, label) a list may continue

    def blank(self) -> None:
        self.two_columns = False
        self.list_of = None

    def line(self, i: int, raw: str, next_line: str | None) -> None:
        text = raw.expandtabs(8)
        stripped = text.strip()
        indent = len(text) - len(text.lstrip())
        if is_underline(raw):
            return
        if next_line is not None and is_underline(next_line) and (":" not in stripped or stripped.endswith(":")):
            self._title(stripped)
            backup = BACKUP_RE.match(stripped)
            if backup:
                self.add(i, "Backup adapter", None, backup[1], self.adapter)
            return
        for pattern, name in QUALIFIERS:
            m = pattern.match(stripped)
            if m:
                self.qualifier, self.path, self.list_of = name(m), [], None
                return
        if self.list_of is not None and indent > self.list_of[0] and ":" not in stripped:
            self._continue_list(i, stripped)
            return
        m = LINE_QUALIFIER_RE.match(stripped)
        body = m[2] if m else stripped
        heading = not any(ch.isdigit() for ch in body) or HEADING_NUMBER_RE.match(body)
        if ":" not in body and not NUMERIC_ROW_RE.match(body) and not heading:
            # a line of no known shape changes nothing: the lines around it keep their headings
            self.cap.skip(i, "expected 'Label: value', a heading, a title above a row of dashes or a table row")
            return
        self.list_of = None
        if indent == 0:
            self.qualifier = None  # a queue's or thread's lines are indented below it
        while self.path and self.path[-1][0] >= indent:
            self.path.pop()
        entity = self.adapter if self.qualifier is None else f"{self.adapter} {self.qualifier}"
        if m:
            entity = f"{self.adapter} {m[1]}"
        if ":" in body:
            self._pairs(i, indent, body, entity)
        elif body.split()[:2] == ["Buffer", "Type"]:
            self.columns = body.split()[2:]
        elif NUMERIC_ROW_RE.match(body):
            self._numeric_row(i, body, entity)
        else:
            self.path.append((indent, body))  # a heading such as 'Receive Information'
            if indent == 0:
                self.columns = None

    def _title(self, title: str) -> None:
        self.path, self.qualifier, self.columns, self.list_of = [], None, None, None
        self.two_columns = "Transmit Statistics" in title and "Receive Statistics" in title

    def _label(self, label: str) -> tuple[str, str]:
        """(label as printed with its headings, counter name)."""
        headings = [h for _, h in self.path]
        return ": ".join([*headings, label]), "_".join(snake(x) for x in [*headings, label] if snake(x))

    def add(self, i: int, label: str, value: float | None, text: str | None, entity: str, *, name: str | None = None,
            kind: str | None = None, unit: str | None = None) -> None:
        printed, derived = self._label(label)
        if text is not None:
            kind, unit = "text", None
        self.counters.append(Counter(i, self.section, entity, printed, name or derived, value, text,
                                     unit if unit is not None or kind == "text" else unit_of(label),
                                     kind or kind_of(label)))

    def _pairs(self, i: int, indent: int, stripped: str, entity: str) -> None:
        pairs = PAIR_RE.findall(stripped) if re.search(r":\s+\S.*\s{2,}\S[^:]*:\s", stripped) else []
        if len(pairs) < 2:
            label, _, value = stripped.partition(":")
            pairs = [(label.strip(), value.strip())]
        for label, value in pairs:
            label = label.strip()
            m = TWO_NUMBERS_RE.match(value) if self.two_columns else None
            if m:  # 'Frames: 180323917 <TAB> 358920289' under 'Transmit Statistics  Receive Statistics'
                for side, number in (("tx_", m[1]), ("rx_", m[2])):
                    self.add(i, label, float(number), None, entity, name=side + self._label(label)[1], kind="counter")
            elif not value:
                self.path.append((indent, label))  # 'Actor State:' heads the lines below it, or a list
                self.list_of = (indent, -1, label)
            elif NUMBER_RE.match(value):
                self.add(i, label, float(value), None, entity)
            else:
                self.add(i, label, None, value, entity)
                self.list_of = (indent, len(self.counters) - 1, label)

    def _continue_list(self, i: int, stripped: str) -> None:
        """A list continued on the next lines: 'VLAN Tag IDs' numbers, SEA flags, ULP names."""
        indent, at, label = self.list_of
        if at < 0:  # 'Enabled VLAN IDs:' heads a list, not other counters
            if self.path and self.path[-1] == (indent, label):
                self.path.pop()
            self.add(i, label, None, stripped, self.adapter)
            self.list_of = (indent, len(self.counters) - 1, label)
            return
        row = self.counters[at]
        self.counters[at] = row._replace(text=f"{row.text} {stripped}".strip())

    def _numeric_row(self, i: int, stripped: str, entity: str) -> None:
        m = NUMERIC_ROW_RE.match(stripped)
        label, numbers = m[1], m[2].split()
        if self.columns and len(numbers) == len(self.columns):
            for column, number in zip(self.columns, numbers):
                self.add(i, label, float(number), None, f"{entity} {column}")
        elif len(numbers) == 1:
            self.add(i, label, float(numbers[0]), None, entity)
        else:
            self.add(i, label, None, m[2], entity)
