"""The file-level driver of the parameter-listing parsers: settings in, ``raw.parameter_listings`` out.

A parser turns a listing's text into ``(file line, Setting or what is wrong with the line)``; each setting is
one record: a line a parser cannot read is rejected with its line and the rest of the listing loads. A file
with no setting at all is refused whole.

The node of a listing that does not name one per line (``no -a``, ``lsattr -El`` print only names and values)
is the host of a ``# captured: <time> host: <name>`` line, else the host of the file's name
(``<host>__<command>__<YYYYmmddTHHMMSS>.out``, as the command captures), else the file's name without its
extension. So that node is part of such a file's identity (``name_identity``): two hosts tuned alike print
the same bytes, and the second host's listing is its own file, not "already ingested".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pyarrow as pa

from ingest.formats.base import BATCH_ROWS, UTF8_BOM, Batch, FormatError, ParseContext
from ingest.formats.capture import HEADER_RE, MAX_LINE_CHARS, file_name_info
from ingest.formats.listings.settings import Setting, setting
from ingest.formats.listings.tables import PARAMETER_LISTINGS, TABLES

# (line, a setting or what is wrong with the line), or (line, setting, statement): the settings of one
# statement (its first line) are one record, as the statement is what a damaged line spoils
Parsed = Iterator[tuple[int, Setting | str] | tuple[int, Setting, int]]


def file_node(path: Path) -> str:
    return file_name_info(path.name)[0] or path.name.split(".")[0]


def content_lines(text: str) -> list[str]:
    """The lines that tell a listing's form: not blank, no '#' comment."""
    return [ln for ln in text.replace("\r", "").split("\n") if ln.strip() and not ln.lstrip().startswith("#")]


def head_text(head: bytes) -> str:
    return head.removeprefix(UTF8_BOM).decode("utf-8", "replace")


class ListingParser:
    """Base of the listing parsers. Subclasses set ``format`` and implement ``settings(text, node)``."""

    format = "listing.base"
    version = "1"
    priority = 60  # after the command parsers: a listing's lines are plainer than any command's output
    tables = TABLES

    def sniff(self, head: bytes, name: str) -> bool:
        raise NotImplementedError

    def settings(self, text: str, node: str) -> Parsed:
        raise NotImplementedError

    def name_identity(self, head: bytes, name: str) -> str | None:
        """The node the file's name gives its settings, unless a ``# captured:`` line names the host."""
        for line in head_text(head).splitlines():
            header = HEADER_RE.match(line.strip())
            if header and header["host"]:
                return None
        return self.node(Path(name))

    def node(self, path: Path) -> str:
        """The node of a listing that does not name one (a form may add what its file name tells)."""
        return file_node(path)

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        text = path.read_bytes().removeprefix(UTF8_BOM).decode("utf-8", "replace")
        lines = text.split("\n")
        rows: dict[str, list] = {c: [] for c in PARAMETER_LISTINGS.column_names}
        ordinal, statement, counted = 0, None, -1
        for line, got, *of_statement in self.settings(text, self.node(path)):
            if of_statement and of_statement == statement:
                ordinal -= 1  # the next setting of the statement read last: the same record
            else:
                ctx.read()
            statement = of_statement or None
            if isinstance(got, str):
                ctx.reject(f"line {line}: {got}", lines[line - 1], line=line, record_ordinal=ordinal)
            else:
                for column, value in zip(PARAMETER_LISTINGS.column_names,
                                         (ordinal, line, got.node, got.parameter, got.key, got.text, got.value,
                                          got.unit, self.format)):
                    rows[column].append(value)
            ordinal += 1
            if len(rows["record_ordinal"]) >= BATCH_ROWS:
                yield _batch(rows, counted)
                counted = ordinal - 1
        if ordinal == 0:
            raise FormatError(f"no parameter in the file: expected {self.format} lines", line=1)
        if rows["record_ordinal"]:
            yield _batch(rows, counted)


def _batch(rows: dict[str, list], counted: int) -> Batch:
    """The rows as a batch completing the records among them not counted before (a statement's settings are
    one record, which a batch boundary may split: it counts in the batch its first row is in)."""
    records = len({o for o in rows["record_ordinal"] if o > counted})
    batch = Batch(PARAMETER_LISTINGS.name, pa.table(dict(rows), schema=PARAMETER_LISTINGS.schema), records=records)
    for values in rows.values():
        values.clear()
    return batch


class LineListing(ListingParser):
    """A listing of one parameter per line, read by ``LINE`` (groups ``name`` and ``value``); '#' lines are
    comments, a ``# captured:`` line names the node. ``sniff`` wants two and at least half of the first ten
    lines to match: a damaged line or two is a reject, not another form (the parsers of more specific forms
    sniff first)."""

    LINE: re.Pattern
    expected = ""  # what a line should look like, for a reject

    def sniff(self, head: bytes, name: str) -> bool:
        lines = content_lines(head_text(head))[:10]
        matched = sum(1 for ln in lines if len(ln) <= MAX_LINE_CHARS and self.LINE.match(ln))
        return matched >= 2 and 2 * matched >= len(lines)

    def settings(self, text: str, node: str) -> Parsed:
        for number, raw in enumerate(text.replace("\r", "").split("\n"), start=1):
            stripped = raw.strip()
            header = HEADER_RE.match(stripped)
            if header and header["host"]:
                node = header["host"]
            if not stripped or stripped.startswith("#"):
                continue
            # a pattern is neither meant for nor fast on a line of megabytes (two lines run together)
            m = self.LINE.match(raw) if len(raw) <= MAX_LINE_CHARS else None
            yield number, (setting(node, m["name"], m["value"], None, number) if m
                           else f"expected {self.expected}, found {stripped[:80]!r}")
