"""TCP/IP ``NETSTAT DEVLINKS`` (MVS/VM TCP/IP; z/OS CS ``netstat -d`` keys): devices and their links.

Real sample (MVS TCP/IP V2R2.1, Cisco tech note 12989-69; spacing collapsed in the stored copy)::

    netstat devlinks
    MVS TCP/IP Netstat V2R2.1
    Device CIP1 Type: CLAW Status: Ready
    Queue size: 0 Address: 0580
    Link CHIP1 Type: IP Net number: 1

Grammar: ``Device <name> Type: <type> Status: <status>`` opens a device; ``Key: value`` pairs follow,
several per line; ``Link <name> Type: <type> ...`` lines belong to the device above. z/OS CS prints
the same report with ``DevName:``/``DevStatus:``/``LnkName:`` keys (mixed case under TSO, upper case
on the console); those are read as pairs too, ``DevName``/``LnkName`` opening a device/link. The
z/OS keys are from the documentation, not yet from a capture. The console trailer (``n OF m RECORDS
DISPLAYED``) is skipped; any other line is kept in ``raw.command_unparsed_lines``.

Output: section ``device`` (entity = device name) or ``link`` (entity = ``<device> <link>``); counter =
the key as printed; ``queue_size`` and numeric keys are gauges (``net_number`` is configuration);
``status``, ``type``, ``address`` and other words are text. A status other than ``Ready`` is an
alert in the marts.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise, snake
from ingest.formats.command_parser import CommandParser

OPEN_RE = re.compile(r"^(Device|Link)\s+(\S+)\s+(.*)$")
PAIR_RE = re.compile(r"([A-Za-z][\w ]*?):\s+(\S+(?: \S+)*?)(?=\s+[A-Za-z][\w ]*?:\s|\s*$)")
HEADER_RE = re.compile(r"\b(MVS|VM)\s+TCP/IP\s+Netstat\b|NETSTAT\s+CS\s+V\d", re.IGNORECASE)
TRAILER_RE = re.compile(r"RECORDS DISPLAYED|END OF THE REPORT", re.IGNORECASE)
OPENING_KEYS = {"devname": "device", "lnkname": "link"}


class NetstatDevlinks(CommandParser):
    format = "zos_netstat.devlinks"
    command = "NETSTAT DEVLINKS"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(re.match(r"^(Device\s+\S+\s+Type:|DevName:)", ln.strip(), re.IGNORECASE) for ln in lines)

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        device = None
        section, entity = "device", None
        for i, raw in enumerate(cap.lines):
            text = raw.strip()
            if is_noise(raw) or HEADER_RE.search(text) or TRAILER_RE.search(text) or text.lower().startswith("netstat dev"):
                continue
            m = OPEN_RE.match(text)
            if m:
                section = m[1].lower()
                if section == "device":
                    device = entity = m[2]
                else:
                    entity = f"{device} {m[2]}"
                text = m[3]
            pairs = PAIR_RE.findall(text)
            if not pairs:
                cap.skip(i, "expected 'Device <name> ...' or 'Key: value' pairs")
                continue
            for key, value in pairs:
                opens = OPENING_KEYS.get(key.strip().lower())
                if opens == "device":
                    section, device = "device", value
                    entity = device
                    continue
                if opens == "link":
                    section, entity = "link", f"{device} {value}"
                    continue
                if entity is None:
                    cap.skip(i, "'Key: value' before any device ('Device <name> ...' or 'DevName:')")
                    break
                name = snake(re.sub(r"^(dev|lnk)(?=\w)", "", key.strip(), flags=re.IGNORECASE))
                if value.isdigit() and key.strip().lower() not in ("address", "devnum"):
                    counters.append(Counter(i, section, entity, key.strip(), name, float(value), None, "count", "gauge"))
                else:
                    counters.append(Counter(i, section, entity, key.strip(), name, None, value, None, "text"))
        return counters


PARSER = NetstatDevlinks()
