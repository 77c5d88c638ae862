"""BSD and macOS ``netstat -i`` and ``netstat -ib``: interface statistics per link and per address.

Real sample (FreeBSD 12, ``netstat -ib``, from the jc project's test data)::

    Name    Mtu Network       Address              Ipkts Ierrs Idrop     Ibytes    Opkts Oerrs     Obytes  Coll
    em0    1500 <Link#1>      00:0c:29:1a:4e:3b   372717     0     0  372538087   213821     0  198573339     0
    em0       - fe80::%em0/64 fe80::20c:29ff:fe        0     -     -          0        4     -        264     -
    em0       - 192.168.71.0/ 192.168.71.163       97396     -     -   68178099   175413     -  193957797     -
    lo0   16384 <Link#2>      lo0                     98     0     0      21024       98     0      21024     0

macOS prints no ``Idrop`` column and leaves ``Address`` blank for some link rows
(``lo0   16384 <Link#1>          1580150     0  1580150     0     0``); ``-b`` adds ``Ibytes`` and
``Obytes``; ``-d`` adds ``Drop``. The numeric columns are the ones after ``Address`` in the heading,
so a row is read from the right: the last N tokens are the numbers, before them name, MTU, network
and (when present) address. ``-`` means not applicable and produces no row.

Output: section ``link`` for the link-level row of an interface (entity = the interface name as
printed, ``gif0*`` when down) and ``address`` for each address row (entity = ``<name> <network>
<address>``). Counters: ``rx_packets`` (Ipkts), ``rx_errors`` (Ierrs), ``rx_drops`` (Idrop),
``rx_bytes`` (Ibytes), ``tx_packets`` (Opkts), ``tx_errors`` (Oerrs), ``tx_bytes`` (Obytes),
``collisions`` (Coll), ``tx_drops`` (Drop); gauge ``mtu``; text ``network`` and ``address``.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, CommandParser, Counter, is_noise

HEADER_RE = re.compile(r"^Name\s+Mtu\s+Network\s+Address\s+Ipkts\s+Ierrs\b")
NUMERIC = {
    "Ipkts": ("rx_packets", "packets"),
    "Ierrs": ("rx_errors", "packets"),
    "Idrop": ("rx_drops", "packets"),
    "Ibytes": ("rx_bytes", "bytes"),
    "Opkts": ("tx_packets", "packets"),
    "Oerrs": ("tx_errors", "packets"),
    "Obytes": ("tx_bytes", "bytes"),
    "Coll": ("collisions", "count"),
    "Drop": ("tx_drops", "packets"),
}


class BsdNetstatI(CommandParser):
    format = "netstat.bsd_i"
    command = "netstat -i"
    version = "2"
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
                if unknown:
                    raise CaptureError(f"unknown column(s) {' '.join(unknown)} in the heading", cap.line_no(i))
                continue
            if numeric is None:
                raise CaptureError(
                    f"expected the heading 'Name Mtu Network Address Ipkts Ierrs ...', found {line.strip()[:80]!r}",
                    cap.line_no(i),
                )
            tokens = line.split()
            head, tail = tokens[: -len(numeric)], tokens[-len(numeric):]
            if len(head) not in (3, 4):
                raise CaptureError(
                    f"expected name, MTU, network, [address] and {len(numeric)} numbers "
                    f"({' '.join(numeric)}), found {len(tokens)} fields: {line.strip()[:80]!r}",
                    cap.line_no(i),
                )
            iface, mtu, network = head[:3]
            address = head[3] if len(head) == 4 else None
            link = network.startswith("<Link")
            section = "link" if link else "address"
            entity = iface if link else " ".join(x for x in (iface, network, address) if x)
            if mtu != "-":
                counters.append(Counter(i, section, entity, "Mtu", "mtu", _whole(mtu, "Mtu", cap, i), None, "bytes", "gauge"))
            counters.append(Counter(i, section, entity, "Network", "network", None, network, None, "text"))
            if address is not None:
                counters.append(Counter(i, section, entity, "Address", "address", None, address, None, "text"))
            for heading, text in zip(numeric, tail):
                if text == "-":
                    continue
                name, unit = NUMERIC[heading]
                counters.append(Counter(i, section, entity, heading, name, _whole(text, heading, cap, i), None, unit, "counter"))
        return counters


def _whole(text: str, heading: str, cap: Capture, i: int) -> float:
    if not text.isdigit():
        raise CaptureError(f"{heading} is {text!r}, expected a whole number or '-'", cap.line_no(i))
    return float(text)


PARSER = BsdNetstatI()
