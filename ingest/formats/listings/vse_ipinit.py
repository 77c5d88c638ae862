"""TCP/IP for VSE's IPINIT member: the ``SET`` values and ``DEFINE`` keywords the stack starts with.

Sample (seed 004's "IPINIT example", foil D.31, L3085-L3121, shortened; ``*`` starts a comment)::

    * ===== For all TCP/IP Activities ===== *
    SET ALL_BOUND = 30000
    SET REDISPATCH = 10
    * ===== For all TCP Inbound Activities ===== *
    SET MAX_SEGMENT = 32684
    * ===== For all TCP Outbound Activities ===== *
    SET RETRANSMIT = 100
    SET WINDOW = 4096
    * ===== For TELNET_3270 Only ===== *
    SET TELNETD_BUFFERS = 20
    * ===== For FTP Only ===== *
    SET MAX_BUFFERS = 6
    *
    SET DEBUG = OFF
    SET RECORD = OFF
    WAIT VTAM

and the definitions the document prints with their keywords (L2495, L2579; a statement continues on the
next line after a trailing comma)::

    DEFINE LINK,ID=LINK01,TYPE=OSA2,DEV=300,MTU=1500,FRAGMENT=NO
    DEFINE TELNETD,ID=TN01,TARGET=DBDCCICS,COUNT=4,POOL=YES

Output: one row of ``raw.parameter_listings`` per ``SET name = value`` (the parameter is the name:
``RETRANSMIT``, canonical ``retransmit``) and per keyword of a ``DEFINE`` but its ``ID`` (the parameter is
the definition's kind and the keyword: ``LINK MTU``, canonical ``link_mtu``; ``TELNETD POOL``). The node is
the file's (``reader``): the VSE host; a keyword's line is the one it is printed on. A command without values (``WAIT VTAM``, ``GATEWAY ON``) sets
nothing and is passed over; a line that is no IPINIT statement, or a SET without ``=``, is rejected with
its line and the rest loads.
"""

from __future__ import annotations

import re

from ingest.formats.capture import MAX_LINE_CHARS
from ingest.formats.listings.reader import ListingParser, Parsed, head_text
from ingest.formats.listings.settings import setting

SET_RE = re.compile(r"^SET\s+(?P<name>[A-Z][A-Z0-9_]*)\s*=\s*(?P<value>\S+)\s*$", re.IGNORECASE)
DEFINE_RE = re.compile(r"^DEFINE\s+(?P<kind>[A-Z][A-Z0-9_]*)\s*,(?P<keywords>.*)$", re.IGNORECASE)
KEYWORD_RE = re.compile(r"^\s*(?P<name>[A-Z][A-Z0-9_]*)\s*=\s*(?P<value>[^,=\s]+)\s*$", re.IGNORECASE)
COMMAND_RE = re.compile(r"^[A-Z][A-Z0-9_]*(\s+[A-Z0-9_.]+)*\s*$", re.IGNORECASE)  # WAIT VTAM: no value
STATEMENT_RE = re.compile(r"^(SET|DEFINE)\s", re.IGNORECASE)


def statements(text: str):
    """Each statement as its lines, (file line, text), with comments dropped and a trailing comma's
    continuation lines joined to it."""
    pending: list[tuple[int, str]] = []
    for number, raw in enumerate(text.replace("\r", "").split("\n"), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("*") or stripped.startswith("#"):
            continue
        pending.append((number, stripped))
        if not stripped.endswith(","):
            yield pending
            pending = []
    if pending:
        yield pending


class VseIpinit(ListingParser):
    format = "listing.vse_ipinit"

    def sniff(self, head: bytes, name: str) -> bool:
        lines = [ln.strip() for ln in head_text(head).split("\n")]
        lines = [ln for ln in lines if ln and not ln.startswith("*")][:10]
        matched = sum(1 for ln in lines if STATEMENT_RE.match(ln))
        return matched >= 2 and 2 * matched >= len(lines)

    def settings(self, text: str, node: str) -> Parsed:
        for lines in statements(text):
            number, statement = lines[0][0], "".join(part for _, part in lines)
            if len(statement) > MAX_LINE_CHARS:
                yield number, f"expected an IPINIT statement, found {len(statement):,} characters"
            elif m := SET_RE.match(statement):
                yield number, setting(node, m["name"].upper(), m["value"], None, number)
            elif m := DEFINE_RE.match(statement):
                # each keyword on the line it is printed on: a damaged continuation line costs its own keywords
                kind = m["kind"].upper()
                for line, part in lines:
                    yield from self._keywords(kind, part[m.start("keywords"):] if line == number else part, line, node)
            elif STATEMENT_RE.match(statement) or not COMMAND_RE.match(statement):
                yield number, f"expected 'SET NAME = value' or 'DEFINE KIND,NAME=value,...', found {statement[:80]!r}"

    @staticmethod
    def _keywords(kind: str, text: str, line: int, node: str) -> Parsed:
        for keyword in text.split(","):
            if not keyword.strip():
                continue
            k = KEYWORD_RE.match(keyword)
            if not k:
                yield line, f"expected DEFINE {kind} keywords as 'NAME=value', found {keyword.strip()[:80]!r}"
            elif k["name"].upper() != "ID":
                yield line, setting(node, f"{kind} {k['name'].upper()}", k["value"], None, line)


PARSER = VseIpinit()
