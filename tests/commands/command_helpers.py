"""Helpers shared by the command-output parser tests: parse a file the way the loader does."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ingest.formats import registry
from ingest.formats.base import ParseContext
from ingest.formats.capture import CAPTURES_TABLE, LABELS_TABLE, VALUES_TABLE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "commands"
# jc's netstat test data (MIT licence, tests/fixtures/oracles/netstat-jc/LICENSE.md)
JC_ORACLES = FIXTURES.parent / "oracles" / "netstat-jc"


def parse_file(path: Path, fmt: str | None = None):
    """(parser, context, rows as dicts) for one file, format sniffed unless given.

    The parser writes captures, counter labels and values to three raw tables; a row here is one
    value joined to its capture and its label, the long form ``int_counter__snapshot`` rebuilds, in the
    order the values were emitted. The batches are checked against the loader's accounting too.
    """
    path = Path(path)
    parser = registry.by_format(fmt) if fmt else registry.sniff(path.read_bytes()[:65536], path.name)
    assert parser is not None, f"no parser recognises {path}"
    ctx = ParseContext(path)
    tables: dict[str, list[dict]] = {CAPTURES_TABLE: [], LABELS_TABLE: [], VALUES_TABLE: []}
    records = 0
    for batch in parser.parse(path, ctx):
        tables[batch.table].extend(batch.rows.to_pylist())
        records += batch.rows.num_rows if batch.records is None else batch.records
    captures = {c["record_ordinal"]: c for c in tables[CAPTURES_TABLE]}
    labels = {lab["label_id"]: lab for lab in tables[LABELS_TABLE]}
    assert len(captures) == len(tables[CAPTURES_TABLE]) == records, "one capture row per loaded record"
    assert len(labels) == len(tables[LABELS_TABLE]), "each label written once per file"
    assert records + len(ctx.rejects) == ctx.records_read, "records read = loaded + rejected"
    rows = []
    for v in tables[VALUES_TABLE]:
        cap, lab = captures[v["record_ordinal"]], labels[v["label_id"]]
        assert lab["record_ordinal"] <= v["record_ordinal"], "a label is written with the first capture using it"
        rows.append({
            "record_ordinal": v["record_ordinal"],
            "line_number": v["line_number"],
            "host": cap["host"],
            "command": cap["command"],
            "source_format": cap["source_format"],
            **{k: lab[k] for k in ("section", "entity", "counter", "counter_name")},
            "value": v["value"],
            "text_value": v["text_value"],
            "unit": lab["unit"],
            "kind": lab["kind"],
            "captured_at": cap["captured_at"],
            "utc_offset_s": cap["utc_offset_s"],
        })
    per_capture = Counter(r["record_ordinal"] for r in rows)
    assert all(per_capture[k] == c["counter_count"] for k, c in captures.items()), "counter_count = its value rows"
    return parser, ctx, rows


def values(rows, capture: int = 0, **where) -> dict[str, float | str | None]:
    """counter_name -> value (or text) of one capture's rows matching the given columns."""
    out = {}
    for r in rows:
        if r["record_ordinal"] == capture and all(r[k] == v for k, v in where.items()):
            out[r["counter_name"]] = r["text_value"] if r["kind"] == "text" else r["value"]
    return out
