"""VTAM start options (ATCSTRxx) and VTAM or NCP definition statements: ``KEYWORD=value`` operands, assembler style.

Sample (document-derived: seed 000's tuned NCP and VTAM values of Figure 7, L1152-L1164, coded as the
statements the document names for them)::

    * NCP GENERATION: BUILD, HOST AND LINE OPERANDS
    NCP1     BUILD SLODOWN=6,                                               X
                   T2TIMER=(1,1,8)
    HOST1    HOST  UNITSZ=4000,MAXBFRU=2,INBFRS=40   TUNED PER FIGURE 7
    LINE1    LINE  MAXTSL=4060,RCVBUFC=16240
    IOBUF=(200,4000,,,100,50),HPR=RTP,
          CSALIMIT=0

A statement is an optional label, an operation (``BUILD``, ``HOST``, ``LINE``, ``PU``, ``MODEENT`` ...) and its
operands; a start-options member has operands only. A TRL major node (``VBUILD TYPE=TRL``) defines one TRLE per
channel connection; real sample (SDL-Hercules-390/hyperion, readme/README.NETWORKING.md, its VTAM MPC CTC link)::

    CTCATRL  VBUILD TYPE=TRL
    C0E40TRL TRLE  LNCTL=MPC,READ=(0E40,0E42),WRITE=(0E41,0E43)

 Operands are separated by commas, a parenthesised value
keeps its commas; a blank ends the operand field (what follows is a remark). A statement continues on the next
line when column 72 is not blank (the assembler's continuation) or its operands end with a comma (start
options); columns 72-80 are never operands. Lines starting with ``*`` are comments.

Output: one row of ``raw.parameter_listings`` per operand, the keyword as the parameter, on the line it is
printed. A keyword whose meaning depends on its statement has that statement in its canonical name
(``STATEMENT_KEYS``): MODETAB on an APPL statement is ``appl_modetab``, on a PU ``pu_modetab`` (seed 000 L963
wants the two alike: ``000-R59``). An operand without ``=`` (a positional operand, a damaged line) is rejected with its line; the other
operands load. The node is the file's (``reader``): the parameters of all statements are one node's, the first
of a keyword set twice (two LINE statements) is the one the rules read; a TRLE's operands are the node
``<node>/<TRLE name>`` (ENTRY_STATEMENTS), each TRLE's MPCLEVEL its own.
"""

from __future__ import annotations

import dataclasses
import re

from ingest.formats.capture import MAX_LINE_CHARS
from ingest.formats.listings.reader import LineListing, Parsed, content_lines, head_text
from ingest.formats.listings.settings import setting

CONTINUATION_COLUMN = 72  # 1-based: a non-blank here continues the statement
NAME = r"[A-Z@#$][A-Z0-9@#$+]*"
# a statement's first line: an operand field, or a label and an operation (or an operation alone) before it
STATEMENT = re.compile(rf"^(?:{NAME}=|(?:{NAME})?\s+[A-Z]{{2,8}}\s+{NAME}=)")
CONTINUED = re.compile(rf"^\s+{NAME}=")  # a continuation line, as its statement's sniff counts it
OPERAND = re.compile(rf"^(?P<name>{NAME})=(?P<value>.*)$", re.S)
OPERATION = re.compile(rf"^(?P<label>{NAME})?\s+(?P<operation>[A-Z]{{2,8}})\s+(?={NAME}=)")
# (operation, keyword) -> canonical name: the mode table of a VTAM application and of a PU (seed 000 L916-L922, L963)
STATEMENT_KEYS = {("APPL", "MODETAB"): "appl_modetab", ("PU", "MODETAB"): "pu_modetab"}
# statements whose operands describe one of several like resources of the listing, each its own node
# ``<node>/<label>``: a TRL major node's TRLEs (one per channel connection: its MPCLEVEL, READ and WRITE devices)
ENTRY_STATEMENTS = {"TRLE"}


def _operand_field(text: str) -> tuple[str, int]:
    """The operand field at the start of ``text`` (up to the first blank outside parentheses and quotes)
    and the depth of parentheses still open at its end."""
    depth, quoted = 0, False
    for i, ch in enumerate(text):
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif ch == " " and not quoted and depth <= 0:
            return text[:i], depth
    return text, depth


def _split(field: str) -> list[str]:
    """Operands at parenthesis depth 0."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(field):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(field[start:i])
            start = i + 1
    out.append(field[start:])
    return out


class AssemblerListing(LineListing):
    format = "listing.assembler"
    LINE = STATEMENT
    expected = "an operand KEYWORD=value"

    def sniff(self, head: bytes, name: str) -> bool:
        """Two and at least half of the first ten lines that are no comment start a statement or continue one."""
        lines = [ln for ln in content_lines(head_text(head)) if not ln.startswith("*")][:10]
        matched = sum(1 for ln in lines if len(ln) <= MAX_LINE_CHARS and (STATEMENT.match(ln) or CONTINUED.match(ln)))
        return matched >= 2 and 2 * matched >= len(lines)

    def settings(self, text: str, node: str) -> Parsed:
        continuing, operation, owner = False, None, node
        for number, raw in enumerate(text.replace("\r", "").split("\n"), start=1):
            if len(raw) > MAX_LINE_CHARS:
                yield number, f"expected a statement line of at most {MAX_LINE_CHARS:,} characters, found {len(raw):,}"
                continuing = False
                continue
            code = raw[: CONTINUATION_COLUMN - 1].rstrip()
            marked = len(raw) >= CONTINUATION_COLUMN and raw[CONTINUATION_COLUMN - 1] != " "
            if not code.strip() or code.startswith("*"):
                continuing = marked and continuing
                continue
            if continuing:
                start = code.lstrip()
            elif STATEMENT.match(code):
                head = OPERATION.match(code)
                start, operation = (code[head.end():], head["operation"]) if head else (code, None)
                owner = f"{node}/{head['label']}" if head and head["label"] and operation in ENTRY_STATEMENTS else node
            else:
                yield number, f"expected a statement (label, operation, KEYWORD=value operands), found {code.strip()[:80]!r}"
                continuing = False
                continue
            field, depth = _operand_field(start)
            if depth != 0:
                yield number, f"expected the parentheses of {field[:80]!r} closed on their line"
                continuing = marked or field.endswith(",")
                continue
            for operand in _split(field):
                if not operand:
                    continue
                m = OPERAND.match(operand)
                yield number, (_setting(owner, operation, m["name"], m["value"], number) if m
                               else f"expected {self.expected}, found {operand[:80]!r}")
            continuing = marked or field.endswith(",")


def _setting(node: str, operation: str | None, keyword: str, value: str, line: int):
    """The operand's setting, its canonical name the statement's own where STATEMENT_KEYS names one."""
    got = setting(node, keyword, value, None, line)
    key = STATEMENT_KEYS.get((operation or "", keyword))
    return dataclasses.replace(got, key=key) if key else got


PARSER = AssemblerListing()
