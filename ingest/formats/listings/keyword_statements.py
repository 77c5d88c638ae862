"""What the AS/400 CL and OS/2 Communications Manager (.NDF) listings share: statements of a verb and
``KEYWORD(value)`` operands, a value holding parentheses and quotes of its own (``VALUE('2')``,
``DESTINATION_ADDRESS(X'400000003745')``), ``/* ... */`` comments.

``statements(text, ends)`` cuts a listing into statements (a statement ends where ``ends`` says: CL at the
end of a line not continued by ``+`` or ``-``, an NDF at ``;``) and yields each statement's verb and its
operands with the line each starts on; a statement with an operand that is not ``KEYWORD(value)`` is yielded
as what is wrong with that operand, on its line: the statement is one record, rejected whole, and the other
statements load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from ingest.formats.capture import MAX_LINE_CHARS
from ingest.formats.listings.reader import content_lines, head_text

KEYWORD = r"[A-Z][A-Z0-9_]*"
OPERAND = re.compile(rf"(?P<name>{KEYWORD})\((?P<value>.*)\)", re.S)


@dataclass(frozen=True)
class Operand:
    line: int
    name: str
    value: str  # as written, quotes of a quoted value removed


@dataclass(frozen=True)
class Statement:
    line: int
    verb: str
    operands: list[Operand]


def _uncomment(text: str) -> str:
    """The text with each ``/* ... */`` comment blanked (its newlines kept, so lines keep their numbers)."""
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def _tokens(body: str, first_line: int) -> Iterator[tuple[int, str]]:
    """The blank-separated tokens of a statement's text (a blank inside parentheses or quotes does not
    separate), each with the line it starts on."""
    line, depth, quoted, start, start_line = first_line, 0, False, None, first_line
    for i, ch in enumerate(body + " "):
        if ch == "'" and start is not None:
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        if start is None and not ch.isspace():
            start, start_line = i, line
            quoted = ch == "'"
        elif start is not None and ch.isspace() and depth <= 0 and not quoted:
            yield start_line, body[start:i]
            start = None
        if ch == "\n":
            line += 1
    if start is not None and start < len(body):
        yield start_line, body[start:]


def _operand(line: int, token: str) -> Operand | tuple[int, str]:
    m = OPERAND.fullmatch(token)
    if not m or m["value"].count("(") != m["value"].count(")"):
        return line, f"expected an operand KEYWORD(value), found {token[:80]!r}"
    value = m["value"].strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":
        value = value[1:-1]
    return Operand(line, m["name"], value)


def statements(text: str, continued: re.Pattern | None = None,
               terminator: str | None = None) -> Iterator[Statement | tuple[int, str]]:
    """The statements of a listing: CL's (a line whose last character matches ``continued`` goes on) or
    an NDF's (up to ``terminator``). A line too long to be a statement line, or an NDF statement never
    ended, is yielded as (line, what is wrong)."""
    lines = _uncomment(text.replace("\r", "")).split("\n")
    body: list[str] = []
    first = 0
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_CHARS:
            yield number, f"expected a statement line of at most {MAX_LINE_CHARS:,} characters, found {len(raw):,}"
            continue
        if not body and not raw.strip():
            continue
        if not body:
            first = number
        piece = raw.rstrip()
        if terminator is None:
            more = continued is not None and bool(piece) and continued.fullmatch(piece[-1]) is not None
            body.append(piece[:-1] if more else piece)
            if more:
                continue
        else:
            body.append(piece)
            if not piece.endswith(terminator):
                continue
            body[-1] = piece[: -len(terminator)]
        yield _statement("\n".join(body), first)
        body = []
    if body:
        yield first, (f"expected '{terminator}' ending the statement begun on this line" if terminator
                      else "expected the statement continued by its last line")


def _statement(body: str, first: int) -> Statement | tuple[int, str]:
    tokens = list(_tokens(body, first))
    if not tokens:
        return first, "expected a statement, found only its end"
    verb_line, verb = tokens[0]
    if not re.fullmatch(KEYWORD, verb):
        return verb_line, f"expected a command or verb, found {verb[:80]!r}"
    operands = [_operand(line, token) for line, token in tokens[1:]]
    wrong = next((o for o in operands if isinstance(o, tuple)), None)
    if wrong is not None:  # a statement is one record: loaded whole or rejected at its first bad operand
        return wrong[0], f"{wrong[1]}; the {verb} statement begun on line {first} is not loaded"
    return Statement(verb_line, verb, operands)


def sniffs(head: bytes, first_line: re.Pattern) -> bool:
    """Two and at least half of the first ten lines that are no comment start a statement as ``first_line``
    says (an operand alone on its line continues one)."""
    lines = [ln for ln in content_lines(_uncomment(head_text(head))) if ln.strip()][:10]
    matched = sum(1 for ln in lines if len(ln) <= MAX_LINE_CHARS
                  and (first_line.match(ln) or re.match(rf"^\s+{KEYWORD}\(", ln)))
    starts = sum(1 for ln in lines if first_line.match(ln))
    return starts >= 1 and matched >= 2 and 2 * matched >= len(lines)

