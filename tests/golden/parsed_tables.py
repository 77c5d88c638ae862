"""Parse any input file the way the loader does and put every raw table's rows in the golden (``*.json``) form.

The command captures have a form of their own (``capture_rows.py``: values joined to their capture and
label); every other family (MEASURE in its three forms, SMF records, benchmark logs) is golden as the rows
its parser writes, table by table, with the columns named once:

    {"format": "measure.csv", "records": {"read": 3, "loaded": 3, "rejected": 0},
     "tables": {"measure_cpu": {"columns": ["system_name", ...], "rows": [["\\\\TAHITI", ...], ...]}},
     "rejects": [[line, offset, reason], ...]}

A ``*.hex`` input is one of the SMF dumps of ``tests/fixtures/smf`` (README.md there explains them, one line per
16 bytes: ``0000 (   0)  02A00000 DF460038 ...``): it is parsed as the binary file it dumps, named ``<stem>.smf``.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import tempfile
from pathlib import Path

from ingest.formats import registry
from ingest.formats.base import SNIFF_BYTES, ParseContext
from smf.smf_dumps import FIXTURES as SMF_FIXTURES, load_hex


def _json_value(value):
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def _parse(path: Path) -> dict:
    parser = registry.sniff(path.read_bytes()[:SNIFF_BYTES], path.name)
    assert parser is not None, f"no parser recognises {path}"
    ctx = ParseContext(path)
    tables: dict[str, dict] = {}
    loaded = skipped = 0
    for batch in parser.parse(path, ctx):
        table = tables.setdefault(batch.table, {"columns": batch.rows.schema.names, "rows": []})
        assert table["columns"] == batch.rows.schema.names, f"{batch.table}: batches of one file differ in columns"
        table["rows"].extend([_json_value(v) for v in row.values()] for row in batch.rows.to_pylist())
        if batch.skipped:
            skipped += batch.rows.num_rows
        else:
            loaded += batch.rows.num_rows if batch.records is None else batch.records
    records = {"read": ctx.records_read, "loaded": loaded, "rejected": len(ctx.rejects)}
    if skipped:
        records["skipped"] = skipped
    return {
        "format": parser.format,
        "records": records,
        "tables": {name: tables[name] for name in sorted(tables)},
        "rejects": [[r.line, r.offset, r.reason] for r in ctx.rejects],
    }


def table_form(path: Path) -> dict:
    """What the sniffed parser makes of one file, as its ``*.json`` holds it (see the module docstring)."""
    path = Path(path)
    if path.suffix != ".hex":
        return _parse(path)
    assert path.parent == SMF_FIXTURES, f"{path}: hex dumps are read from {SMF_FIXTURES}"
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / f"{path.stem}.smf"
        binary.write_bytes(load_hex(path.name))
        return _parse(binary)


def dumps_tables(form: dict) -> str:
    """JSON with one row per line, so that a change to a golden file reads as the rows it changes."""
    def rows(items: list, indent: str) -> str:
        if not items:
            return "[]"
        return "[\n" + ",\n".join(indent + json.dumps(item, ensure_ascii=False) for item in items) + "\n" + indent[:-2] + "]"

    tables = ",\n".join(
        f'    {json.dumps(name)}: {{\n      "columns": {json.dumps(t["columns"])},\n      "rows": {rows(t["rows"], " " * 8)}\n    }}'
        for name, t in form["tables"].items())
    return ("{\n"
            f'  "format": {json.dumps(form["format"])},\n'
            f'  "records": {json.dumps(form["records"])},\n'
            f'  "tables": {{\n{tables}\n  }},\n'
            f'  "rejects": {rows(form["rejects"], "    ")}\n'
            "}\n")
