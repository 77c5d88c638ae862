"""AIX ``lsps -a``: the characteristics and use of every paging space.

Real sample (AIX, from the gopsutil project's tests, ``mem/mem_aix_nocgo_test.go``)::

    Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum
    hd6             hdisk0            rootvg         512MB     5     yes     yes      lv       0
    paging01        hdisk1            datavg           2GB    20     yes     yes      lv       0

Older levels print no ``Chksum`` column; the size is in MB, GB or TB; an NFS paging space has ``-`` for its
volume and group and ``NaNQ`` for %Used (nothing is known of its use). Seed 002 (L830) names the command for
"the availability and usage of paging space" and sizes paging space at twice the memory CS/AIX needs (L428).
A row that does not fit the heading is kept in ``raw.command_unparsed_lines``; the other paging spaces load.

Output: per paging space (entity = its name, section ``paging``) the gauges ``size_mb`` (MB, a GB or TB
size converted) and ``used_pct`` (%Used; none for ``NaNQ``), and the texts ``active`` and ``auto`` (yes/no),
``type`` (lv, nfs), ``physical_volume`` and ``volume_group``. counter = the column heading as printed.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, Counter, is_noise
from ingest.formats.command_parser import CommandParser

HEADER_RE = re.compile(r"^Page Space\s+Physical Volume\s+Volume Group\s+Size\s+%Used\s+Active\s+Auto\s+Type(\s+Chksum)?\s*$")
ROW_RE = re.compile(
    r"^(?P<name>\S+)\s+(?P<pv>\S+)\s+(?P<vg>\S+)\s+(?P<size>\d+)(?P<unit>MB|GB|TB)\s+(?P<used>\d+|NaNQ)"
    r"\s+(?P<active>yes|no)\s+(?P<auto>yes|no)\s+(?P<type>\w+)(?:\s+(?P<chksum>\d+))?\s*$")
MB_PER = {"MB": 1, "GB": 1024, "TB": 1024 * 1024}


class Lsps(CommandParser):
    format = "aix.lsps"
    command = "lsps -a"
    version = "1"

    def matches(self, lines: list[str]) -> bool:
        """The capture's first line that is no prompt or comment is the heading."""
        heading = next((ln.strip() for ln in lines if not is_noise(ln)), "")
        return HEADER_RE.match(heading) is not None

    def parse_capture(self, cap: Capture) -> list[Counter]:
        rows = [(i, ROW_RE.match(line.strip())) for i, line in enumerate(cap.lines)
                if not is_noise(line) and not HEADER_RE.match(line.strip())]
        for i, m in rows:
            if m is None:
                cap.skip(i, "expected a paging space as 'name volume group size(MB|GB|TB) %used active auto type'")
        return [counter for i, m in rows if m is not None for counter in _paging_space(i, m)]


def _paging_space(i: int, m: re.Match) -> list[Counter]:
    name = m["name"]
    size = Counter(i, "paging", name, "Size", "size_mb", float(int(m["size"]) * MB_PER[m["unit"]]), None, "MB", "gauge")
    # NaNQ: an NFS paging space, nothing known of its use
    used = [] if m["used"] == "NaNQ" else [Counter(i, "paging", name, "%Used", "used_pct", float(m["used"]), None, "pct",
                                                   "gauge")]
    texts = (("Active", "active", m["active"]), ("Auto", "auto", m["auto"]), ("Type", "type", m["type"]),
             ("Physical Volume", "physical_volume", m["pv"]), ("Volume Group", "volume_group", m["vg"]))
    return [size, *used, *(Counter(i, "paging", name, heading, key, None, text, None, "text") for heading, key, text in texts)]


PARSER = Lsps()
