"""Parse a command-capture file the way the loader does, and put its rows in the golden (``*.json``) form.

``parse_file`` returns the parser, its context, one dict per value (the long form
``int_counter__snapshot`` rebuilds from the raw tables, in the order the values were emitted) and the
unparsed lines, after checking what the loader checks: records read = loaded + rejected + skipped.
``golden_form`` is what a ``*.json`` beside a ``*.out`` holds (see README.md).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from ingest.formats import registry
from ingest.formats.base import ParseContext
from ingest.formats.capture import CAPTURES_TABLE, LABELS_TABLE, UNPARSED_LINES, VALUES_TABLE


class Parsed(NamedTuple):
    parser: object
    ctx: ParseContext
    rows: list[dict]  # one per value: capture, label and value columns joined
    unparsed: list[dict]  # raw.command_unparsed_lines rows


def parse_file(path: Path, fmt: str | None = None) -> Parsed:
    """The file parsed by its sniffed (or the given) parser, its batches checked against the accounting."""
    path = Path(path)
    parser = registry.by_format(fmt) if fmt else registry.sniff(path.read_bytes()[:65536], path.name)
    assert parser is not None, f"no parser recognises {path}"
    ctx = ParseContext(path)
    tables: dict[str, list[dict]] = {CAPTURES_TABLE: [], LABELS_TABLE: [], VALUES_TABLE: [], UNPARSED_LINES.name: []}
    loaded = skipped = 0
    for batch in parser.parse(path, ctx):
        tables[batch.table].extend(batch.rows.to_pylist())
        if batch.skipped:
            skipped += batch.rows.num_rows
        else:
            loaded += batch.rows.num_rows if batch.records is None else batch.records
    captures = {c["record_ordinal"]: c for c in tables[CAPTURES_TABLE]}
    labels = {lab["label_id"]: lab for lab in tables[LABELS_TABLE]}
    unparsed = tables[UNPARSED_LINES.name]
    assert len(captures) == len(tables[CAPTURES_TABLE]) == loaded, "one capture row per loaded record"
    assert len(labels) == len(tables[LABELS_TABLE]), "each label written once per file"
    assert loaded + len(ctx.rejects) + skipped == ctx.records_read, "records read = loaded + rejected + skipped"
    assert len({u["line_number"] for u in unparsed}) == len(unparsed), "a line is kept once"
    assert all(u["record_ordinal"] in captures for u in unparsed), "unparsed lines belong to loaded captures"
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
    return Parsed(parser, ctx, rows, unparsed)


def values(rows: list[dict], capture: int = 0, **where) -> dict[str, float | str | None]:
    """counter_name -> value (or text) of one capture's rows matching the given columns."""
    out = {}
    for r in rows:
        if r["record_ordinal"] == capture and all(r[k] == v for k, v in where.items()):
            out[r["counter_name"]] = r["text_value"] if r["kind"] == "text" else r["value"]
    return out


def _number(value: float):
    return int(value) if float(value).is_integer() else value


def golden_form(path: Path) -> dict:
    """What the parser makes of one capture file, as a ``*.json`` holds it: the records, each capture,
    one row per value ``[line, section, entity, counter, counter_name, value or text, unit, kind]``,
    the unparsed lines ``[line, text, reason]`` and the rejects ``[line, reason]``."""
    parsed = parse_file(path)
    captures: dict[int, dict] = {}
    for r in parsed.rows:
        captures.setdefault(r["record_ordinal"], {
            "record": r["record_ordinal"], "host": r["host"], "command": r["command"], "format": r["source_format"],
            "captured_at": r["captured_at"].isoformat(), "utc_offset_s": r["utc_offset_s"], "values": 0,
        })["values"] += 1
    return {
        "format": parsed.parser.format,
        "records": {"read": parsed.ctx.records_read, "loaded": len(captures), "rejected": len(parsed.ctx.rejects),
                    "skipped": len(parsed.unparsed)},
        "captures": [captures[k] for k in sorted(captures)],
        "values": [[r["line_number"], r["section"], r["entity"], r["counter"], r["counter_name"],
                    r["text_value"] if r["kind"] == "text" else _number(r["value"]), r["unit"], r["kind"]]
                   for r in parsed.rows],
        "unparsed": [[u["line_number"], u["line_text"], u["reason"]] for u in parsed.unparsed],
        "rejects": [[r.line, r.reason] for r in parsed.ctx.rejects],
    }


def dumps(form: dict) -> str:
    """JSON with one row per line, so that a change to a golden file reads as the rows it changes."""
    def block(items: list) -> str:
        if not items:
            return "[]"
        return "[\n" + ",\n".join("    " + json.dumps(item, ensure_ascii=False) for item in items) + "\n  ]"

    parts = [f'  "{key}": {block(value) if isinstance(value, list) else json.dumps(value)}' for key, value in form.items()]
    return "{\n" + ",\n".join(parts) + "\n}\n"
