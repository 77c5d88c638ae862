"""GUARDIAN 90 ``PEEK /CPU <cpu>/ EXPEDITED``: one processor's READLINK cache (message cache) statistics.

Sample (the document's own: Glasstone's Tandem Systems Review of December 1986, Figure 3, "Output from a
"PEEK/ cpu 1/ EXP" command", seed 001 L754; its line breaks are lost in the copy, which prints the four
lines of the display as one)::

    EXPEDITED REQUEST TRANSMISSION BUFFERS: 20 BUFFERS USED: 16 REQUESTS CACHED: 6,896,254 DISCARDED BEFORE USE: 0.0% ATTEMPTS TO READ FROM CACHE: 7,015,553 SUCCESSFUL: 98.2% UNSUCCESSFUL: 1.8% LENGTH > 1536b: 1.8% TOO LATE: 0.0%

The display is a run of ``LABEL: value`` fields (L774-L790): the buffers SYSGEN allows the CPU
(EXPEDITED_REQUEST_BUFFERS), the high-water mark of the buffers brought into use since the CPU was
reloaded, the requests cached and the attempts to read from the cache (counts since reload), and
percentages of those. The label ``LENGTH > 1536b`` carries the buffer length SYSGEN gives
(EXPEDITED_REQUEST_LENGTH, L788): it is loaded as that parameter too. Fields are read wherever the line
breaks fall, so the display as PEEK prints it and the document's one-line copy read alike.

Output: one row of ``raw.parameter_listings`` per field (the label as the parameter; the percentages with
unit ``%``), the node ``<host> CPU <cpu>`` from the capture's file name ``<host>__peek-cpu-<cpu>-exp__<time>``
(PEEK prints neither: the command names the CPU). The fields of a line are one record: a line holding
anything but these fields, a count that is no whole number or a percentage above 100 is rejected with its
line, and the other lines load. '#' lines are comments.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ingest.formats.capture import FILE_NAME_RE, MAX_LINE_CHARS
from ingest.formats.listings.reader import ListingParser, Parsed, content_lines, file_node, head_text
from ingest.formats.listings.settings import setting

COUNTS = ("EXPEDITED REQUEST TRANSMISSION BUFFERS", "BUFFERS USED", "REQUESTS CACHED", "ATTEMPTS TO READ FROM CACHE")
PERCENTAGES = ("DISCARDED BEFORE USE", "UNSUCCESSFUL", "SUCCESSFUL", "TOO LATE")
FIELD = re.compile(
    r"(?P<label>" + "|".join(re.escape(label) for label in COUNTS + PERCENTAGES) + r"|LENGTH > (?P<length>\d+)b)"
    r":[ \t]*(?P<value>\S+)")
COUNT = re.compile(r"\d{1,3}(?:,\d{3})*|\d+")
PERCENT = re.compile(r"(\d{1,3}(?:\.\d+)?)%")
CPU_IN_COMMAND = re.compile(r"cpu[-_ ]?(\d{1,2})\b", re.IGNORECASE)
FIRST_LABEL = COUNTS[0] + ":"


class PeekExpedited(ListingParser):
    format = "listing.peek_expedited"

    def sniff(self, head: bytes, name: str) -> bool:
        lines = content_lines(head_text(head))
        return bool(lines) and lines[0].lstrip().startswith(FIRST_LABEL)

    def node(self, path: Path) -> str:
        m = FILE_NAME_RE.match(path.name)
        cpu = CPU_IN_COMMAND.search(m["command"]) if m else None
        return f"{file_node(path)} CPU {int(cpu[1])}" if cpu else file_node(path)

    def settings(self, text: str, node: str) -> Parsed:
        for number, raw in enumerate(text.replace("\r", "").split("\n"), start=1):
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            read = _fields(stripped, node, number) if len(raw) <= MAX_LINE_CHARS else "a line of PEEK fields"
            if isinstance(read, str):
                yield number, f"expected {read}, found {stripped[:80]!r}"
                continue
            for s in read:
                yield number, s, number


def _fields(line: str, node: str, number: int):
    """The settings of one line, or what the line should have held."""
    settings, end = [], 0
    for m in FIELD.finditer(line):
        if line[end:m.start()].strip():
            return "only PEEK EXPEDITED fields ('LABEL: value')"
        end = m.end()
        label, value = m["label"], m["value"]
        if label in COUNTS:
            if not COUNT.fullmatch(value):
                return f"a whole number after {label}:"
            settings.append(setting(node, label, value, None, number))
            continue
        percent = PERCENT.fullmatch(value)
        if not percent or float(percent[1]) > 100:
            return f"a percentage from 0.0% to 100.0% after {label}:"
        read = setting(node, label, percent[1], "%", number)
        # the label names the buffer length it compares with: one key whatever the length
        settings.append(replace(read, key="length_exceeded") if m["length"] else read)
        if m["length"]:
            settings.append(setting(node, "EXPEDITED_REQUEST_LENGTH", m["length"], "bytes", number))
    if not settings or line[end:].strip():
        return "only PEEK EXPEDITED fields ('LABEL: value')"
    return settings


PARSER = PeekExpedited()
