"""AS/400 (OS/400) CL commands that set what seed 000's AS/400 section tunes (L699-L775): a mode description's
RU size and pacing, the QPFRADJ system value, a line's and a controller's MAXFRAME, LANMAXOUT and LANACKFRQ.

Sample (document-derived: the values seed 000 recommends, L708, L721, L725, L764, L769-L775, as the CL commands
that set them; ``+`` continues a command on the next line)::

    /* AS4A: APPC tuning per "Getting the most from APPC" */
    CHGSYSVAL SYSVAL(QPFRADJ) VALUE('2')
    CRTMODD MODD(#BATCH) COS(#BATCH) MAXLENRU(*CALC) +
            INPACING(7) OUTPACING(7) TEXT('bulk transfer')
    CRTLINTRN LIND(TRNLINE) RSRCNAME(LIN041) MAXFRAME(16393) LINESPEED(16M)
    CRTCTLAPPC CTLD(HOSTCTL) LINKTYPE(*LAN) SWTLINLST(TRNLINE) MAXFRAME(16393) +
               LANMAXOUT(*CALC) LANACKFRQ(*CALC)

Output: one row of ``raw.parameter_listings`` per operand, the keyword as the parameter, on the line it is
written. Three operands are named for what they set: ``CHGSYSVAL SYSVAL(QPFRADJ) VALUE('2')`` is the parameter
QPFRADJ = 2; MAXFRAME is ``LIND MAXFRAME`` on a line description (``CRTLINxxx``/``CHGLINxxx``) and ``CTLD
MAXFRAME`` on a controller description (``CRTCTLxxx``/``CHGCTLxxx``), because the document wants both changed
(L764). A mode description's operands are the node ``<host>/<mode>`` (``AS4A/#BATCH``): each mode is checked on
its own; the other commands' are the host's (``reader``). An operand that is not ``KEYWORD(value)`` is rejected
with its line; the rest loads.
"""

from __future__ import annotations

import re

from ingest.formats.listings.keyword_statements import Statement, sniffs, statements
from ingest.formats.listings.reader import ListingParser, Parsed
from ingest.formats.listings.settings import setting

COMMAND = re.compile(r"^\s*(?:CRT|CHG)[A-Z]{3,8}\s+[A-Z][A-Z0-9_]*\(")
CONTINUED = re.compile(r"[+-]")
MODE_COMMANDS = ("CRTMODD", "CHGMODD")
OBJECT_OF = {"CRTLIN": "LIND", "CHGLIN": "LIND", "CRTCTL": "CTLD", "CHGCTL": "CTLD"}


class As400Cl(ListingParser):
    format = "listing.as400_cl"

    def sniff(self, head: bytes, name: str) -> bool:
        return sniffs(head, COMMAND)

    def settings(self, text: str, node: str) -> Parsed:
        for stmt in statements(text, continued=CONTINUED):
            if isinstance(stmt, tuple):
                yield stmt
                continue
            yield from _command(stmt, node)


def _command(stmt: Statement, node: str) -> Parsed:
    operands = stmt.operands
    mode = next((o.value for o in operands if o.name == "MODD"), None) if stmt.verb in MODE_COMMANDS else None
    where = f"{node}/{mode}" if mode else node
    if stmt.verb == "CHGSYSVAL":
        sysval = next((o for o in operands if o.name == "SYSVAL"), None)
        value = next((o for o in operands if o.name == "VALUE"), None)
        if sysval is None or value is None:
            yield stmt.line, "expected CHGSYSVAL SYSVAL(name) VALUE(value)"
        else:
            yield value.line, setting(node, sysval.value, value.value, None, value.line), stmt.line
        return
    described = OBJECT_OF.get(stmt.verb[:6])
    for o in operands:
        name = f"{described} {o.name}" if described and o.name == "MAXFRAME" else o.name
        yield o.line, setting(where, name, o.value, None, o.line), stmt.line


PARSER = As400Cl()
