"""A listing as its parser loads it: the rows of raw.parameter_listings and the rejects, as JSON-ready lists."""

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


def expected_path(path: Path) -> Path:
    return path.with_suffix(".json")


if __name__ == "__main__":  # regenerate every expected parse: an explicit step, then read the diff
    for path in INPUTS:
        expected_path(path).write_text(json.dumps(parse(path), indent=1) + "\n")
        print("wrote", expected_path(path))
