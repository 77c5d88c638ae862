"""TCP/IP for VSE ``SET DIAGNOSE=PERFORM``: a performance display per connection when it ends.

Real sample (IBM VSE/ESA TCP/IP performance foils, seed 004 L3441-L3466: the header verbatim, the body as
the foil's table gives it, label, dot leaders, value and unit; the In/Out columns of the foil are its
legend, not part of the display)::

    FTP Daemon Retrieving File, Count: 131070  Userid: SYSA
    ------( Performance Display )-----
    IP: 10.0.0.1 Port: 1030 Local Port: 20
    Connection duration.....	22519708 (usec)
    Maximum turn around time.....	27185 (")
    Transmission block count.....	731
    Maximum depth count.....	1
    Byte count of data sent.....	10747742
    Byte count of data resent.....	0
    SWS mode total time.....	16160538 (usec)
    Number of times in mode.....	123
    Retransmission mode total time..	0 (usec)
    Number of times in mode.....	0
    Number of retransmissions.....	0
    Maximum Depth mode total time...	0 (usec)
    Number of times in mode.....	0
    Maximum window achieved.....	8112 (byte)

Grammar: a display starts at its header line (``<daemon> <activity>, Count: n  Userid: u``), the
``( Performance Display )`` rule and the ``IP: a.b.c.d Port: n Local Port: n`` line; then one
``label.... value [(unit)]`` a line (the format notes' ``^(.+?)\\.{2,}\\s+(\\d+)\\s*(\\(.*?\\))?``). A
unit ``(")`` repeats the line before's; ``Number of times in mode`` belongs to the mode of the
``... mode total time`` line before it. An optional console prefix (``F7 0098``) and the message ID
``IPT3241I`` are dropped. A line of another shape is kept in ``raw.command_unparsed_lines``.

Output: section = the header's activity (``FTP Daemon Retrieving File``), entity = the foreign address and
port (``10.0.0.1:1030``), counter = the label as printed, counter_name in snake case with the mode's count
qualified (``sws_mode_total_time``, ``sws_mode_count``, ``retransmission_mode_count``,
``maximum_depth_mode_count``). The values are the connection's totals when it ended (``gauge``); times
are in microseconds as printed.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise, snake
from ingest.formats.command_parser import CommandParser

PREFIX_RE = re.compile(r"^\s*(?:[A-Z][A-Z0-9]{1,2}[ \-]\d{3,4}\s+)?(?:IPT\d{4}[IEWAD]\s+)?")
HEADER_RE = re.compile(r"^(?P<activity>[A-Za-z][\w /]*?),\s*Count:\s*\d+\s+Userid:\s*\S+\s*$")
RULE_RE = re.compile(r"^-+\(\s*Performance Display\s*\)-+$")
PEER_RE = re.compile(r"^IP:\s*(?P<ip>[\d.]+)\s+Port:\s*(?P<port>\d+)\s+Local Port:\s*\d+\s*$")
ITEM_RE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z ]*?)\s*\.{2,}\s*(?P<value>\d+)\s*(?:\((?P<unit>[^)]*)\))?\s*$")
MODE_TIME_RE = re.compile(r"^(?P<mode>.*) mode total time$", re.IGNORECASE)
TIMES_IN_MODE = "number of times in mode"
UNITS = {"usec": "us", "byte": "bytes"}


def _body(line: str) -> str:
    return PREFIX_RE.sub("", line, count=1).strip()


class VseDiagnosePerform(CommandParser):
    format = "vse.diagnose_perform"
    command = "DIAGNOSE=PERFORM"
    version = "1"
    priority = 44

    def matches(self, lines: list[str]) -> bool:
        return any(RULE_RE.match(_body(ln)) for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        activity = entity = mode = None
        unit = None
        for i, raw in enumerate(cap.lines):
            if is_noise(raw):
                continue
            line = _body(raw)
            if header := HEADER_RE.match(line):
                activity, entity, mode, unit = header["activity"], None, None, None
                continue
            if RULE_RE.match(line):
                continue
            if peer := PEER_RE.match(line):
                entity = f"{peer['ip']}:{peer['port']}"
                continue
            item = ITEM_RE.match(line)
            if item is None or entity is None:
                cap.skip(i, "expected 'label.... value (unit)' after a display's 'IP: ... Port: ...' line")
                continue
            label = item["label"].strip()
            printed_unit = item["unit"]
            unit = unit if printed_unit == '"' else UNITS.get(printed_unit or "", printed_unit or (
                "bytes" if label.lower().startswith("byte count") else "count"))
            if (timed := MODE_TIME_RE.match(label)) is not None:
                mode = snake(timed["mode"])
            if label.lower() == TIMES_IN_MODE:
                if mode is None:
                    cap.skip(i, "expected a '... mode total time' line before 'Number of times in mode'")
                    continue
                name = f"{mode}_mode_count"
            else:
                name = snake(label)
            counters.append(Counter(i, activity, entity, label, name, float(item["value"]), None, unit, "gauge"))
        if not counters:
            raise CaptureError("no performance display: expected a header, '( Performance Display )' and "
                               "'IP: ... Port: ...' before the 'label.... value' lines")
        return counters


PARSER = VseDiagnosePerform()
