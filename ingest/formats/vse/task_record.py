"""TCP/IP for VSE ``SET RECORD=ON``: a line per pseudo-task on SYSLST when the task ends.

Real sample (IBM VSE/ESA TCP/IP performance foils, seed 004 L3366; OCR)::

    IPNTXTCP Di 1628 Av 281 T 45770 Ac 890 Fx 0 Qu 0 Pr 7 Co 1 Pa 730

Grammar: the task name, then ``<abbreviation> <number>`` pairs in the order Di, Av, T, Ac, Fx, Qu, Pr,
Co, Pa (the foil's legend: dispatches; average microseconds per dispatch; time the task held the
partition; scans of the Active, FiXed, Quick and PeRsistence queues; Complete scans; control Passed
from another task). The line is the per-task form of the QUERY ISTATS counters: Di = Ac + Fx + Qu + Pr
+ Co + Pa. Any other line of the listing is kept in ``raw.command_unparsed_lines``.

Output: section ``task``, entity = the task name, counter = the abbreviation as printed, counter_name
as in QUERY ISTATS (``dispatches``, ``dispatch_active_scans`` ...), plus ``dispatch_avg_us`` (``Av``,
a gauge; the foil prints 281 where T/Di is 28.1, so the value is kept as printed) and ``task_time_us``
(``T``). The counts are cumulative over the task's life (``counter``).
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise
from ingest.formats.command_parser import CommandParser

FIELDS = (
    ("Di", "dispatches", "count", "counter"),
    ("Av", "dispatch_avg_us", "us", "gauge"),
    ("T", "task_time_us", "us", "counter"),
    ("Ac", "dispatch_active_scans", "count", "counter"),
    ("Fx", "dispatch_fixed_scans", "count", "counter"),
    ("Qu", "dispatch_quick_scans", "count", "counter"),
    ("Pr", "dispatch_persistent_scans", "count", "counter"),
    ("Co", "dispatch_complete_scans", "count", "counter"),
    ("Pa", "dispatch_passed", "count", "counter"),
)
LINE_RE = re.compile(r"^(?P<task>[A-Z][A-Z0-9$#@]{0,7})" + "".join(rf"\s+{a}\s+(?P<{a}>\d+)" for a, *_ in FIELDS) + r"\s*$")


class VseTaskRecord(CommandParser):
    format = "vse.task_record"
    command = "SET RECORD"
    version = "1"
    priority = 44

    def matches(self, lines: list[str]) -> bool:
        return any(LINE_RE.match(ln.strip()) for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        for i, raw in enumerate(cap.lines):
            if is_noise(raw):
                continue
            m = LINE_RE.match(raw.strip())
            if m is None:
                cap.skip(i, "expected '<task> Di n Av n T n Ac n Fx n Qu n Pr n Co n Pa n'")
                continue
            counters.extend(Counter(i, "task", m["task"], abbreviation, name, float(m[abbreviation]), None, unit, kind)
                            for abbreviation, name, unit, kind in FIELDS)
        return counters


PARSER = VseTaskRecord()
