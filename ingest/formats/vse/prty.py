"""VSE ``PRTY``: the attention routine's display of the partition priorities, lowest first.

Real sample (an operator's notes on a VSE/ESA 2.4 system, github.com/sunil390/zLearning ``VSE.md``,
"PRTY - Query and set partition priorities"; tests/golden/README.md), the operator's input unprefixed,
the attention routine's answers behind ``AR 0015``::

     PRTY F4,BELOW,F9
     AR 0015 PRTY Z,Y,S,R,P,C,BG,FA,F4,F9,F8,F6,F5,F2,F7,FB,F3,F1
     AR 0015
     AR 0015 1I40I  READY

"The partition priorities are listed in the order of lowest priority first and highest priority last":
here the dynamic classes Z ... C lowest, then the static partitions, the VSE/POWER partition F1
highest. Partitions of one partition balancing group are joined by ``=`` and share their place.

Grammar: ``AR nnnn PRTY <id>[=<id>...][,<id>...]`` is the display (``<id>``: a static partition
``BG``, ``F1``-``F9``, ``FA``, ``FB`` or a dynamic class letter); the operator's own ``PRTY ...``
line, ``AR nnnn`` alone and the ``1I40I READY`` that closes every answer carry nothing. Another
attention-routine message (``1Y63I  INVALID KEYWORD: ABOVE``: the command was refused, the order
is unchanged) and any other line are kept in ``raw.command_unparsed_lines``. A capture holding
several displays (the operator moved a partition and looked again) gives the order of its last one;
the earlier displays are kept unparsed. A display naming a partition twice or a token that is no
partition is kept unparsed too; a capture whose last display is such a line, or that has none, is
rejected (an earlier display is no longer the order).

Output: section ``prty``, entity = the partition or class, counter ``position``, counter_name
``priority_position``: its place from the lowest (1) up, a balancing group's members the same
place (a ``gauge``: the order as displayed).
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise
from ingest.formats.command_parser import CommandParser

AR_RE = re.compile(r"^AR\s+\d{4}(?:\s+(?P<text>.*?))?\s*$")
DISPLAY_RE = re.compile(r"^PRTY\s+(?P<order>\S+)$")
ECHO_RE = re.compile(r"^PRTY(?:\s.*)?$")
READY_RE = re.compile(r"^1I40I\s+READY$")
PARTITION_RE = re.compile(r"^(?:BG|F[1-9AB]|[A-Z])$")


def _places(order: str) -> list[list[str]] | str:
    """The display's partitions, lowest first, a balancing group as one place; else why not."""
    places = [group.split("=") for group in order.split(",")]
    seen: set[str] = set()
    for pid in (p for group in places for p in group):
        if not PARTITION_RE.match(pid):
            return f"expected partitions (BG, F1-FB) or class letters between the commas, found '{pid}'"
        if pid in seen:
            return f"partition {pid} is displayed twice"
        seen.add(pid)
    return places


class VsePrty(CommandParser):
    format = "vse.prty"
    command = "PRTY"
    version = "1"
    priority = 44

    def matches(self, lines: list[str]) -> bool:
        return any((m := AR_RE.match(ln.strip())) and DISPLAY_RE.match(m["text"] or "") for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        displays: list[tuple[int, list[list[str]] | str]] = []
        for i, raw in enumerate(cap.lines):
            line = raw.strip()
            if is_noise(raw) or ECHO_RE.match(line):
                continue
            m = AR_RE.match(line)
            text = (m["text"] or "") if m else None
            if text is not None and (not text or READY_RE.match(text)):
                continue
            shown = DISPLAY_RE.match(text) if text else None
            if shown is None:
                cap.skip(i, "expected 'AR nnnn PRTY <partitions, lowest first>', found another message (a refused "
                            "command leaves the order as it was)")
                continue
            displays.append((i, _places(shown["order"])))
        for i, places in displays:
            if isinstance(places, str):
                cap.skip(i, places)
            elif i != displays[-1][0]:
                cap.skip(i, "an earlier PRTY display of the capture: its last display gives the order")
        if not displays or isinstance(displays[-1][1], str):
            return []
        offset, places = displays[-1]
        return [Counter(offset, "prty", pid, "position", "priority_position", float(place), None, "position", "gauge")
                for place, group in enumerate(places, start=1) for pid in group]


PARSER = VsePrty()
