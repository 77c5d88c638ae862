"""Helpers shared by the command-output parser tests: parse a file the way the loader does."""

from __future__ import annotations

from pathlib import Path

from ingest.formats import registry
from ingest.formats.base import ParseContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "commands"


def parse_file(path: Path, fmt: str | None = None):
    """(parser, context, rows as dicts) for one file, format sniffed unless given."""
    path = Path(path)
    parser = registry.by_format(fmt) if fmt else registry.sniff(path.read_bytes()[:65536], path.name)
    assert parser is not None, f"no parser recognises {path}"
    ctx = ParseContext(path)
    rows = [row for batch in parser.parse(path, ctx) for row in batch.rows.to_pylist()]
    return parser, ctx, rows


def values(rows, capture: int = 0, **where) -> dict[str, float | str | None]:
    """counter_name -> value (or text) of one capture's rows matching the given columns."""
    out = {}
    for r in rows:
        if r["record_ordinal"] == capture and all(r[k] == v for k, v in where.items()):
            out[r["counter_name"]] = r["text_value"] if r["kind"] == "text" else r["value"]
    return out
