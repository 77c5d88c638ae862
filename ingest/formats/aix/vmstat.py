"""AIX ``vmstat``: threads, memory, paging, faults and CPU use, one report line per interval.

Real sample (AIX LPAR, ``vmstat 1 10``, from the aRRDvark project, ``arrdvark.pl``, its first and last lines)::

    System configuration: lcpu=8 mem=2048MB ent=0.20

    kthr    memory              page              faults              cpu
    ----- ----------- ------------------------ ------------ -----------------------
     r  b   avm   fre  re  pi  po  fr   sr  cy  in   sy  cs us sy id wa    pc    ec
     2  0 393884 91900   0   0   0   0    0   0 104 4201 515 40  9 51  0  0.16  81.2
     3  0 394725 91039   0   0   0   0    0   0 416 42773 1459 73 15 12  0  0.85 422.5

A dedicated partition prints no ``ent=`` and no ``pc``/``ec`` columns. The second heading names every column;
``sy`` is printed twice (system calls under ``faults``, system time under ``cpu``), so a column takes its group
from its place: two of ``kthr``, two of ``memory``, six of ``page``, three of ``faults``, the rest ``cpu``.
Seed 002 gives CPU busy figures of a gateway and a TN server (68 % at 1,524 sessions, L1022; 85 % at 2,000,
L1155) but names no command: vmstat's ``us`` + ``sy`` is the busy share (``wa`` is idle time with disk I/O
pending). A report line whose fields do not fit the heading is kept in ``raw.command_unparsed_lines``.

Output: ``System configuration`` values (section ``configuration``: ``lcpu``, ``mem_mb``, ``ent`` gauges, any
other ``key=value`` as text) and per report line (entity ``report N``, 1-based in the capture: the first line
of a run is the average since boot) a gauge per column, section = its group, counter = the column as printed.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise, snake
from ingest.formats.command_parser import CommandParser

GROUPS_RE = re.compile(r"^kthr\s+memory\s+page\s+faults\s+cpu\b")
DASHES_RE = re.compile(r"^-+(\s+-+)+$")
COLUMNS_RE = re.compile(r"^r\s+b\s+avm\s+fre\s")
CONFIG_RE = re.compile(r"^System configuration:\s*(?P<pairs>.*)$", re.IGNORECASE)
NUMBER_RE = re.compile(r"^\d+(\.\d+)?$")
# the columns' groups in the order AIX prints them: the rest of the heading is cpu
GROUP_SIZES = (("kthr", 2), ("memory", 2), ("page", 6), ("faults", 3))
# (group, column as printed) -> (counter_name, unit)
NAMES = {
    ("kthr", "r"): ("runnable_threads", "count"), ("kthr", "b"): ("blocked_threads", "count"),
    ("memory", "avm"): ("active_virtual_pages", "count"), ("memory", "fre"): ("free_pages", "count"),
    ("page", "re"): ("page_reclaims", "count"), ("page", "pi"): ("pages_in", "count"),
    ("page", "po"): ("pages_out", "count"), ("page", "fr"): ("pages_freed", "count"),
    ("page", "sr"): ("pages_scanned", "count"), ("page", "cy"): ("clock_cycles", "count"),
    ("faults", "in"): ("interrupts", "count"), ("faults", "sy"): ("system_calls", "count"),
    ("faults", "cs"): ("context_switches", "count"),
    ("cpu", "us"): ("user_pct", "pct"), ("cpu", "sy"): ("system_pct", "pct"), ("cpu", "id"): ("idle_pct", "pct"),
    ("cpu", "wa"): ("io_wait_pct", "pct"), ("cpu", "pc"): ("physical_processors", "count"),
    ("cpu", "ec"): ("entitlement_pct", "pct"),
}
CONFIG_GAUGES = {"lcpu": ("lcpu", "count"), "mem": ("mem_mb", "MB"), "ent": ("ent", "count")}


class Vmstat(CommandParser):
    format = "aix.vmstat"
    command = "vmstat"
    version = "1"

    def matches(self, lines: list[str]) -> bool:
        """The group heading (``kthr memory page faults cpu``) is among the capture's first lines."""
        head = [ln.strip() for ln in lines if not is_noise(ln)][:3]
        return any(GROUPS_RE.match(ln) for ln in head)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        columns: list[tuple[str, str]] = []
        reports = 0
        for i, line in enumerate(cap.lines):
            text = line.strip()
            if is_noise(line) or GROUPS_RE.match(text) or DASHES_RE.match(text):
                continue
            if (config := CONFIG_RE.match(text)) is not None:
                counters += _configuration(i, config["pairs"])
            elif COLUMNS_RE.match(text):
                columns = _grouped(text.split())
            elif columns and len(fields := text.split()) == len(columns) and all(NUMBER_RE.match(f) for f in fields):
                reports += 1
                counters += [_value(i, reports, group, column, field) for (group, column), field in zip(columns, fields)]
            else:
                cap.skip(i, "expected a report line of numbers under the column heading "
                            "'r b avm fre re pi po fr sr cy in sy cs us sy id wa'")
        return counters


def _grouped(columns: list[str]) -> list[tuple[str, str]]:
    """Each column with its group, by its place in the heading."""
    groups = [group for group, size in GROUP_SIZES for _ in range(size)]
    return [(groups[n] if n < len(groups) else "cpu", column) for n, column in enumerate(columns)]


def _value(i: int, report: int, group: str, column: str, field: str) -> Counter:
    name, unit = NAMES.get((group, column), (snake(column), "count"))
    return Counter(i, group, f"report {report}", column, name, float(field), None, unit, "gauge")


def _configuration(i: int, pairs: str) -> list[Counter]:
    out = []
    for key, _, value in (pair.partition("=") for pair in pairs.split()):
        number = value.removesuffix("MB")
        if key in CONFIG_GAUGES and NUMBER_RE.match(number):
            name, unit = CONFIG_GAUGES[key]
            out.append(Counter(i, "configuration", None, key, name, float(number), None, unit, "gauge"))
        else:
            out.append(Counter(i, "configuration", None, key, snake(key), None, value, None, "text"))
    return out


PARSER = Vmstat()
