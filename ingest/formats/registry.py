"""Finds every parser under ``ingest.formats`` (module attribute ``PARSER``) and picks one by content."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

import ingest.formats as formats_pkg
from ingest.formats.base import Parser, RawTable



@lru_cache(maxsize=1)
def all_parsers() -> tuple[Parser, ...]:
    found: list[Parser] = []
    for mod in pkgutil.walk_packages(formats_pkg.__path__, formats_pkg.__name__ + "."):
        if mod.ispkg:
            continue
        module = importlib.import_module(mod.name)
        parser = getattr(module, "PARSER", None)
        if parser is not None:
            found.append(parser)
    return tuple(sorted(found, key=lambda p: (p.priority, p.format)))


def by_format(name: str) -> Parser:
    for parser in all_parsers():
        if parser.format == name:
            return parser
    known = ", ".join(p.format for p in all_parsers())
    raise KeyError(f"unknown format {name!r}; known formats: {known}")


def sniff(head: bytes, name: str) -> Parser | None:
    """The first parser (by priority) that recognises the first bytes of a file."""
    for parser in all_parsers():
        if parser.sniff(head, name):
            return parser
    return None


def raw_tables() -> dict[str, RawTable]:
    """Every raw table the parsers declare, by name. Parsers of one family share their declarations; two
    different declarations of one name are a bug."""
    found: dict[str, RawTable] = {}
    for parser in all_parsers():
        for table in parser.tables:
            if found.setdefault(table.name, table) != table:
                raise RuntimeError(f"raw.{table.name} is declared twice, differently ({parser.format})")
    return found
