"""Reading TCP/IP for VSE console lines: the console prefix, group titles and ``label value`` items.

No console capture of a QUERY display is public (see docs/commands.md, "TCP/IP for VSE"), so the
grammar is label-driven and tolerant, as the format notes propose: it does not rely on columns,
message numbers or a fixed order, and it keeps counters it does not know.

A line is, after an optional console prefix (partition ID such as ``F7``, optional reply ID ``0098``,
optional message ID ``IPNnnnI``):

* a group title: text without digits (``Received Blocks``, ``- SWS MODE``, ``PERFORMANCE INFORMATION``);
* one or more items ``<label>[:|=|....] <number> [(unit)]``; items on one line are separated by two or
  more spaces; a first chunk without a number is a group title for the items after it
  (``Received Blocks      Total: 1234``), and so is the text before ``: `` in a lone item
  (``Number of Dispatches: Total 1628``). Numbers may have thousands separators.
"""

from __future__ import annotations

import re
from typing import NamedTuple

PREFIX_RE = re.compile(r"^\s*(?:[A-Z][A-Z0-9]{1,2}[ \-]\d{3,4}\s+|[A-Z][A-Z0-9]{1,2}\s+(?=IPN))?(?:IPN\d{3,4}[IEWAD]\s+)?")
ITEM_RE = re.compile(
    r"^(?P<label>.*?[^\s:=.])(?:\s*(?::|=|\.{2,})\s*|\s+)(?P<value>-?\d[\d,]*)\s*(?:\((?P<unit>[^)]*)\))?$"
)
COMMAND_RE = re.compile(r"^(?:QUERY|Q)\s+(?P<what>STATS|ISTATS|IPSTATS)\b", re.IGNORECASE)


class Item(NamedTuple):
    label: str
    value: float
    unit: str | None


class ConsoleLine(NamedTuple):
    indent: int
    text: str  # without the console prefix


def strip_prefix(line: str) -> ConsoleLine:
    body = PREFIX_RE.sub("", line.rstrip(), count=1)
    return ConsoleLine(len(body) - len(body.lstrip()), body.strip())


def query_command(text: str) -> str | None:
    """'QUERY STATS' for an echoed command line (full or short form), else None."""
    m = COMMAND_RE.match(text)
    return f"QUERY {m['what'].upper()}" if m else None


def split_items(text: str) -> tuple[str | None, list[Item]] | None:
    """(group title on this line, items); None when a chunk with digits is not '<label> <number>'."""
    chunks = [c for c in re.split(r"\s{2,}", re.sub(r"\.{2,}", ": ", text)) if c]
    title = None
    if chunks and not any(ch.isdigit() for ch in chunks[0]) and len(chunks) > 1:
        title = chunks.pop(0).strip(" -:")
    items = []
    for chunk in chunks:
        m = ITEM_RE.match(chunk)
        if not m:
            return None
        label = m["label"].strip(" -")
        if title is None and len(chunks) == 1 and ": " in label:
            title, label = (part.strip() for part in label.split(": ", 1))  # 'Number of Dispatches: Total 1628'
        items.append(Item(label, float(m["value"].replace(",", "")), m["unit"]))
    return title, items


def is_title(text: str) -> bool:
    return bool(text) and not any(ch.isdigit() for ch in text)
