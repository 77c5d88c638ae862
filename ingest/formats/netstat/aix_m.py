"""AIX ``netstat -m``: kernel malloc (mbuf) pools per CPU, and the count-first summary lines.

Sample (IBM AIX 7.3 documentation, "netstat -m command to monitor mbuf pools"; the copy we have ends
after the 256-byte row)::

    # netstat -m

    Kernel malloc statistics:

    ******* CPU 0 *******
    By size           inuse     calls failed   delayed    free   hiwat   freed
    32                   68       693      0         0      60    2320       0
    64                   55       115      0         0       9    1160       0
    128                  21       451      0         0      11     580       0
    256                1064      5331      0         0    1384    1392      42

Grammar: ``******* CPU n *******`` opens a CPU block; a heading ``By size`` (or ``By type``) names the
columns; each row is a key (bucket size or type) followed by one whole number per column. Older AIX
levels print count-first lines such as ``0 requests for mbufs denied`` or ``12 mbufs in use:`` and
a ``Streams mblk statistic failures:`` block of the same shape; they are read as ``<n> <label>``. A
row that does not fit its heading (the documentation copy ends in the middle of one) and any other
line are kept in ``raw.command_unparsed_lines``; the rest of the capture loads.

Output: section ``CPU <n>`` (``summary`` for count-first lines), entity = the bucket size or type,
counter = the column heading (or the label), counter_name = ``inuse``, ``calls``, ``failed``,
``delayed``, ``free``, ``hiwat``, ``freed`` (``requests_for_mbufs_denied`` ... for summary lines).
``calls``, ``failed``, ``delayed``, ``freed`` and the denied/delayed/failure lines are cumulative
since boot or ``netstat -Zm``; ``inuse``, ``free``, ``hiwat`` and the "in use" lines are gauges.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise, snake
from ingest.formats.command_parser import CommandParser

CPU_RE = re.compile(r"^\*+\s*CPU\s+(\d+)\s*\*+$")
TABLE_RE = re.compile(r"^By\s+(size|type)\s+(.+)$")
COUNT_FIRST_RE = re.compile(r"^(\d+)\s+([A-Za-z].*?):?$")
TITLE_RE = re.compile(r"^([A-Za-z].*):$")
GAUGE_COLUMNS = {"inuse", "free", "hiwat", "memuse", "memmax", "mapb"}


class AixNetstatM(CommandParser):
    format = "netstat.aix_m"
    command = "netstat -m"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(ln.strip() == "Kernel malloc statistics:" or TABLE_RE.match(ln.strip()) for ln in lines) or any(
            re.match(r"^\d+ requests for (mbufs|memory) (denied|delayed)", ln.strip()) for ln in lines
        )

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        section = "summary"
        columns: list[str] | None = None
        for i, raw in enumerate(cap.lines):
            if is_noise(raw):
                continue
            line = raw.strip()
            m = CPU_RE.match(line)
            if m:
                section, columns = f"CPU {m[1]}", None
                continue
            m = TABLE_RE.match(line)
            if m:
                columns = m[2].split()
                continue
            if columns is not None and line[:1].isalnum() and not COUNT_FIRST_RE.match(line):
                row = self._row(i, section, columns, line)
                if row is None:
                    cap.skip(i, f"{section}: expected a key and {len(columns)} whole numbers ({' '.join(columns)})")
                counters.extend(row or ())
                continue
            m = COUNT_FIRST_RE.match(line)
            if m:
                label = m[2].strip()
                name = snake(label)
                kind = "gauge" if ("in use" in label or "allocated" in label) else "counter"
                counters.append(Counter(i, "summary", None, label, name, float(m[1]), None, "count", kind))
                continue
            if TITLE_RE.match(line):
                columns = None  # a new block (e.g. 'Streams mblk statistic failures:') ends the table
                continue
            cap.skip(i, "expected a CPU banner, a 'By size' heading, a table row or '<count> <label>'")
        return counters

    @staticmethod
    def _row(i: int, section: str, columns: list[str], line: str) -> list[Counter] | None:
        tokens = line.split()
        key, values = tokens[0], tokens[1:]
        if len(values) != len(columns) or not all(v.isdigit() for v in values):
            return None
        return [
            Counter(i, section, key, col, snake(col), float(v), None,
                    "count", "gauge" if col in GAUGE_COLUMNS else "counter")
            for col, v in zip(columns, values)
        ]


PARSER = AixNetstatM()
