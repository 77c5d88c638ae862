"""A VSE job stream (VSE/POWER JECL and VSE JCL): the SETPFIX limit and the EXEC parameters a job starts with.

Sample (seed 004's "TCP/IP for VSE/ESA Startup Job", foil D.5, L2086-L2093, byte for byte; the golden pair
``tests/listings/golden/VSE1__tcpstrt__20010715T000000.out``)::

    * $$$ JOB JNM=TCPSTRT,CLASS=7,DISP=L (F7 is default)
    // JOB TCPSTRT
    ... LIBDEFs etc ...
    // SETPFIX LIMIT=900K
    // EXEC IPNET,SIZE=IPNET,PARM='ID=0x,INIT=IPINIT0y',DSPACE=3M
    /*
    /*
    * $$$ EOJ

The same grammar, a step's input cards between its EXEC and ``/*`` and ``/&`` closing the job, is that of the
sample start job of CSI's SeeTCP/IP server (``// JOB SVSESRVR`` ... ``// EXEC SVSESRVR,SIZE=SVSESRVR``, then
``SETPORT``/``SETUSER1`` cards; github.com/dzstoever/SeeTCPIP200 ``_doc/ReadMe.txt``, cited, not copied: the
repository states no licence).

Grammar: ``* $$$ ...`` (VSE/POWER JECL), ``// JOB``, ``/*``, ``/&``, a ``* `` comment and any other
``// VERB ...`` statement (LIBDEF, ASSGN, OPTION...) set nothing the rules read and are passed over; so are
the program's own input lines between an ``// EXEC`` and the next ``/*``. ``// SETPFIX LIMIT=n`` is one
setting (``SETPFIX LIMIT``, canonical ``setpfix_limit``; ``900K`` is 921,600 bytes). ``// EXEC program,
KEYWORD=value,...`` is the setting ``EXEC <program>`` (its value the program's name: the job runs it) and
one setting per keyword, ``EXEC <program> <KEYWORD>`` (``EXEC IPNET DSPACE``, canonical
``exec_ipnet_dspace``); a quoted value (``PARM='ID=0x,INIT=IPINIT0y'``) is one value, commas and all. Any
other line (the document's ``... LIBDEFs etc ...`` stands for statements it leaves out), an EXEC keyword
that is not ``NAME=value`` and an unclosed quote are rejected with their line, and the rest loads. A
statement continued in column 72 is not read: each line is read alone.

Output: rows of ``raw.parameter_listings``; the node is the file's (``reader``): the VSE host.
"""

from __future__ import annotations

import re

from ingest.formats.capture import MAX_LINE_CHARS
from ingest.formats.listings.reader import ListingParser, Parsed, head_text
from ingest.formats.listings.settings import setting

JECL_RE = re.compile(r"^\*\s+\$\$\$\s")  # * $$$ JOB, * $$$ EOJ, * $$$ LST ...
JOB_RE = re.compile(r"^(?://\s+JOB\s|\*\s+\$\$\$\s+JOB\s)", re.IGNORECASE)
END_RE = re.compile(r"^/[*&](?:\s.*)?$")
COMMENT_RE = re.compile(r"^\*(?:\s.*)?$")
STATEMENT_RE = re.compile(r"^//\s+(?P<verb>[A-Z][A-Z0-9]*)(?:\s+(?P<operands>.*?))?\s*$", re.IGNORECASE)
SETPFIX_RE = re.compile(r"^LIMIT=(?P<limit>\S+?)(?:,.*)?$", re.IGNORECASE)
FIELD_RE = re.compile(r"^(?:'[^']*'|[^\s'])*")  # the operand field: up to the first blank outside quotes
OPERAND_RE = re.compile(r"'[^']*'|[^,']+")
KEYWORD_RE = re.compile(r"^(?P<name>[A-Z][A-Z0-9]*)=(?P<value>'[^']*'|[^\s']+)$", re.IGNORECASE)


def operands(text: str) -> list[str] | None:
    """The comma-separated operands of a statement (what follows the first blank outside quotes is a
    comment), a quoted value one operand; None on an unclosed quote."""
    field = FIELD_RE.match(text)[0]
    if len(field) < len(text) and not text[len(field)].isspace():
        return None
    out, current = [], ""
    for token in OPERAND_RE.findall(field):
        current += token
        # a keyword's quoted value follows its '=' in the same operand: NAME='a,b'
        if not current.endswith("="):
            out.append(current)
            current = ""
    return out + ([current] if current else [])


class VseJob(ListingParser):
    format = "listing.vse_job"

    def sniff(self, head: bytes, name: str) -> bool:
        # a job card (`* $$$ JOB` or `// JOB`, z/OS's `//name JOB` is no match): a job stream has both, so one
        # damaged line does not make it unrecognised
        return any(JOB_RE.match(ln.strip()) for ln in head_text(head).split("\n"))

    def settings(self, text: str, node: str) -> Parsed:
        in_step = False  # between an EXEC and its /*: the program's own input
        for number, raw in enumerate(text.replace("\r", "").split("\n"), start=1):
            line = raw.rstrip()
            if len(line) > MAX_LINE_CHARS:
                yield number, f"expected a JCL statement, found {len(line):,} characters"
            elif not line.strip() or JECL_RE.match(line) or END_RE.match(line):
                in_step = in_step and not END_RE.match(line)
            elif m := STATEMENT_RE.match(line):
                verb, rest = m["verb"].upper(), m["operands"] or ""
                if verb == "SETPFIX":
                    yield from self._setpfix(rest, number, node)
                elif verb == "EXEC":
                    in_step = True
                    yield from self._exec(rest, number, node)
            elif not in_step and not COMMENT_RE.match(line):
                yield number, f"expected a JCL statement ('// VERB operands'), '/*' or '* $$$', found {line.strip()[:80]!r}"

    @staticmethod
    def _setpfix(rest: str, number: int, node: str) -> Parsed:
        if m := SETPFIX_RE.match(rest):
            yield number, setting(node, "SETPFIX LIMIT", m["limit"], None, number)
        else:
            yield number, f"expected '// SETPFIX LIMIT=size', found {rest[:80]!r}"

    @staticmethod
    def _exec(rest: str, number: int, node: str) -> Parsed:
        parts = operands(rest)
        if parts is None:
            yield number, f"expected the EXEC operands' quotes closed, found {rest[:80]!r}"
            return
        program = parts[0].upper() if parts and "=" not in parts[0] else ""
        if program:
            yield number, setting(node, f"EXEC {program}", program, None, number)
        for part in parts[1:] if program else parts:
            k = KEYWORD_RE.match(part)
            if not k:
                yield number, f"expected EXEC keywords as 'NAME=value', found {part[:80]!r}"
            else:
                name = f"EXEC {program} {k['name'].upper()}" if program else f"EXEC {k['name'].upper()}"
                yield number, setting(node, name, k["value"], None, number)


PARSER = VseJob()
