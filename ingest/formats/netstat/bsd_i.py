"""BSD, macOS and AIX ``netstat -i`` / ``-in`` / ``-ib`` / ``-id``: interface statistics per link and address.

Real sample (FreeBSD 12, ``netstat -ib``, from the jc project's test data)::

    Name    Mtu Network       Address              Ipkts Ierrs Idrop     Ibytes    Opkts Oerrs     Obytes  Coll
    em0    1500 <Link#1>      00:0c:29:1a:4e:3b   372717     0     0  372538087   213821     0  198573339     0
    em0       - fe80::%em0/64 fe80::20c:29ff:fe        0     -     -          0        4     -        264     -
    em0       - 192.168.71.0/ 192.168.71.163       97396     -     -   68178099   175413     -  193957797     -
    lo0   16384 <Link#2>      lo0                     98     0     0      21024       98     0      21024     0

AIX prints the link row's network as ``link#N`` and no brackets (``en0 1500 link#2 4e.12.19.56.b5.14
7167418 0 2902787 0 0``, from the pedz/Snapper and gopsutil test data); NetBSD prints ``<Link>``, names
its columns ``Idrops``/``Colls``/``Odrops`` and with ``-b`` prints bytes only (``Name Mtu Network
Address Ibytes Obytes``); macOS prints no ``Idrop`` column and leaves ``Address`` blank for some link
rows; ``-d`` adds ``Drop``. The numeric columns are the ones after ``Address`` in the heading, so a row
is read from the right: the last N tokens are the numbers, before them name, MTU, network and (when
present) address. ``-`` means not applicable and produces no row. A row that does not fit the heading
is kept in ``raw.command_unparsed_lines``; the other rows load.

Output: section ``link`` for the link-level row of an interface (entity = the interface name as
printed, ``gif0*`` when down; ``utun8 <Link#88>`` when macOS prints one cut name on several link
rows) and ``address`` for each address row (entity = ``<name> <network> <address>``). Counters: ``rx_packets`` (Ipkts), ``rx_errors`` (Ierrs), ``rx_drops`` (Idrop, Idrops),
``rx_bytes`` (Ibytes), ``tx_packets`` (Opkts), ``tx_errors`` (Oerrs), ``tx_bytes`` (Obytes),
``collisions`` (Coll, Colls), ``tx_drops`` (Drop, Odrops); gauge ``mtu``; text ``network`` and
``address``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter, is_noise
from ingest.formats.command_parser import CommandParser

HEADER_RE = re.compile(r"^Name\s+Mtu\s+Network\s+Address\s+(?:Ipkts\s+Ierrs|Ibytes\s+Obytes)\b")
# the link-level row: <Link#1> (FreeBSD, macOS), <Link> (NetBSD), link#2 (AIX)
LINK_RE = re.compile(r"^(?:<Link(?:#\d+)?>|link#\d+)$", re.IGNORECASE)
NUMERIC = {
    "Ipkts": ("rx_packets", "packets"),
    "Ierrs": ("rx_errors", "packets"),
    "Idrop": ("rx_drops", "packets"),
    "Idrops": ("rx_drops", "packets"),
    "Ibytes": ("rx_bytes", "bytes"),
    "Opkts": ("tx_packets", "packets"),
    "Oerrs": ("tx_errors", "packets"),
    "Obytes": ("tx_bytes", "bytes"),
    "Coll": ("collisions", "count"),
    "Colls": ("collisions", "count"),
    "Drop": ("tx_drops", "packets"),
    "Odrops": ("tx_drops", "packets"),
}


class BsdNetstatI(CommandParser):
    format = "netstat.bsd_i"
    command = "netstat -i"
    version = "3"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        return any(HEADER_RE.match(ln.strip()) for ln in lines[:3])

    def parse_capture(self, cap: Capture) -> list[Counter]:
        counters: list[Counter] = []
        numeric: list[str] | None = None
        for i, line in enumerate(cap.lines):
            if is_noise(line):
                continue
            if HEADER_RE.match(line.strip()):
                numeric = line.split()[4:]
                cap.command = "netstat -ib" if "Ibytes" in numeric else "netstat -i"
                unknown = [h for h in numeric if h not in NUMERIC]
                if unknown:  # without the meaning of every column no row can be read
                    raise CaptureError(f"unknown column(s) {' '.join(unknown)} in the heading", cap.line_no(i))
                continue
            row = _row(i, numeric, line.split()) if numeric else None
            if row is None:
                what = (f"name, MTU, network, [address] and {len(numeric)} whole numbers or '-' ({' '.join(numeric)})"
                        if numeric else "the heading 'Name Mtu Network Address Ipkts Ierrs ...'")
                cap.skip(i, f"expected {what}")
                continue
            counters.extend(row)
        return _tell_apart_repeated_links(counters)


def _tell_apart_repeated_links(counters: list[Counter]) -> list[Counter]:
    """macOS cuts interface names to five characters: utun80 ... utun89 all print as ``utun8``, each on
    its own link row. Such rows get the link in their entity (``utun8 <Link#88>``), so that each keeps
    its own counters and rates."""
    rows_of: dict[str, set[int]] = {}
    for c in counters:
        if c.section == "link":
            rows_of.setdefault(c.entity, set()).add(c.offset)
    networks = {c.offset: c.text for c in counters if c.name == "network"}
    return [c._replace(entity=f"{c.entity} {networks[c.offset]}") if c.section == "link" and len(rows_of[c.entity]) > 1
            else c for c in counters]


def _row(i: int, numeric: list[str], tokens: list[str]) -> list[Counter] | None:
    head, tail = tokens[: -len(numeric)], tokens[-len(numeric):]
    numbers = [head[1], *tail] if len(head) > 1 else tail  # the MTU and the counts
    if len(head) not in (3, 4) or not all(t.isdigit() or t == "-" for t in numbers):
        return None
    iface, mtu, network = head[:3]
    address = head[3] if len(head) == 4 else None
    link = LINK_RE.match(network) is not None
    section = "link" if link else "address"
    entity = iface if link else " ".join(x for x in (iface, network, address) if x)
    row = []
    if mtu != "-":
        row.append(Counter(i, section, entity, "Mtu", "mtu", float(mtu), None, "bytes", "gauge"))
    row.append(Counter(i, section, entity, "Network", "network", None, network, None, "text"))
    if address is not None:
        row.append(Counter(i, section, entity, "Address", "address", None, address, None, "text"))
    for heading, text in zip(numeric, tail):
        if text != "-":
            name, unit = NUMERIC[heading]
            row.append(Counter(i, section, entity, heading, name, float(text), None, unit, "counter"))
    return row


PARSER = BsdNetstatI()
