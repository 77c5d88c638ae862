"""AIX ``errpt -a``: the detailed report of the AIX error log, one entry per error logged.

Real sample (AIX, a ``DISK_ERR4`` entry as published at unixmantra.com, 2013, and kept in a test of
github.com/ziutus/hmc_vios_aix ``test/aix_errpt_entry_test.rb``; TABs printed as blanks)::

    LABEL:          DISK_ERR4
    IDENTIFIER:     49A83216

    Date/Time:       Thu Sep 30 15:29:45 CST 2013
    Sequence Number: 25
    Machine Id:      000788574C00
    Node Id:         localhost
    Class:           H
    Type:            TEMP
    Resource Name:   hdisk0
    Resource Class:  disk
    Resource Type:   scsd
    Location:        P1/Z1-A0
    VPD:
            Manufacturer................IBM
    ...
    Description
    DISK OPERATION ERROR

    Probable Causes
    MEDIA
    ...

The layout is errpt's own (AIX 4.1.3 ``src/bos/usr/bin/errlg/errpt/pr.c``, ``CAT_RPT_AHDR``): each entry
opens with a line of 75 dashes, ``LABEL:`` and ``IDENTIFIER:`` are followed by TABs, the other header
fields by blanks; ``Resource Class``, ``Resource Type``, ``Location`` and ``VPD`` only for class H and U;
then the template's texts, each under its heading (``Description``, ``Probable Causes``, ``User Causes``,
``Install Causes``, ``Failure Causes``, a TAB-indented ``Recommended Actions``, ``Detail Data``, ``Symptom
Data``). The log is printed newest entry first, and every capture prints the whole log again.

Seed 002 (L808) has CS/AIX's write to a full adapter queue logged in this report; the entry is the LAN
data link control's ``LAN8031`` (see ``dbt_project/models/marts/thresholds/rpt_adapter_queue_full.sql``).

Output: per entry (section ``entry``, entity = its sequence number as printed) the texts ``label``,
``identifier``, ``date_time``, ``machine_id``, ``node_id``, ``class``, ``type``, ``resource_name``,
``resource_class``, ``resource_type``, ``location`` (those printed) and ``description`` (the line under
``Description``). counter = the field as printed (``Resource Name``). The causes, actions, VPD and detail
data are the template's texts and the error's raw data: read as part of their entry, not loaded. A line
before the first entry, or an entry without its sequence number, is kept in ``raw.command_unparsed_lines``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise
from ingest.formats.command_parser import CommandParser

FIELD_RE = re.compile(r"^(?P<field>LABEL|IDENTIFIER|Date/Time|Sequence Number|Machine Id|Node Id|Class|Type|"
                      r"Resource Name|Resource Class|Resource Type|Location):\s*(?P<value>.*?)\s*$")
SEPARATOR_RE = re.compile(r"^-{20,}$")
DESCRIPTION = "Description"


class Errpt(CommandParser):
    format = "aix.errpt"
    command = "errpt -a"
    version = "1"

    def matches(self, lines: list[str]) -> bool:
        """An entry's first two fields: ``LABEL:`` and, on the next line, ``IDENTIFIER:``."""
        stripped = [ln.strip() for ln in lines]
        return any(a.startswith("LABEL:") and b.startswith("IDENTIFIER:") for a, b in zip(stripped, stripped[1:]))

    def parse_capture(self, cap: Capture) -> list[Counter]:
        entries: list[list[tuple[int, str, str]]] = []  # per entry: (offset, field as printed, value)
        description_next = False
        for i, raw in enumerate(cap.lines):
            line = raw.strip()
            if is_noise(raw) or SEPARATOR_RE.match(line):
                continue
            m = FIELD_RE.match(line)
            if m and m["field"] == "LABEL":
                entries.append([])
            if not entries:
                cap.skip(i, "expected an error log entry's 'LABEL:' line")
            elif m:
                entries[-1].append((i, m["field"], m["value"]))
            elif description_next:
                entries[-1].append((i, DESCRIPTION, line))
            description_next = entries != [] and line == DESCRIPTION
        counters = [counter for entry in entries for counter in _entry(cap, entry)]
        if not counters:
            raise CaptureError("errpt -a printed no error log entry", cap.first_line)
        return counters


def _entry(cap: Capture, fields: list[tuple[int, str, str]]) -> list[Counter]:
    sequence = next((value for _, field, value in fields if field == "Sequence Number"), None)
    if sequence is None:
        cap.skip(fields[0][0], "error log entry without its 'Sequence Number:' line")
        return []
    return [Counter(i, "entry", sequence, field, _name(field), None, value, None, "text")
            for i, field, value in fields if field != "Sequence Number"]


def _name(field: str) -> str:
    return "date_time" if field == "Date/Time" else field.lower().replace(" ", "_")


PARSER = Errpt()
