"""A listing as its parser loads it: the rows of raw.parameter_listings and the rejects, as JSON-ready lists (the
form of the listings' golden pairs, tests/golden/sets.py; `tests/golden/regenerate.py --family listings` writes them)."""

from __future__ import annotations

import json
from pathlib import Path

from ingest.formats import registry
from ingest.formats.base import SNIFF_BYTES, ParseContext

GOLDEN = Path(__file__).parent / "golden"
INPUTS = sorted(p for p in GOLDEN.iterdir() if p.suffix in (".csv", ".out"))


def parse(path: Path) -> dict:
    parser = registry.sniff(path.read_bytes()[:SNIFF_BYTES], path.name)
    ctx = ParseContext(path)
    rows = [row for batch in parser.parse(path, ctx) for row in batch.rows.to_pylist()]
    return {
        "format": parser.format,
        "records_read": ctx.records_read,
        "rows": [[r["line_number"], r["node"], r["parameter"], r["parameter_key"], r["value_text"], r["value"], r["unit"]]
                 for r in rows],
        "rejects": [[r.line, r.reason] for r in ctx.rejects],
    }
