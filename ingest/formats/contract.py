"""The dbt sources and the contract pages, generated from the raw tables the parsers declare.

    python -m ingest.formats.contract --write    rewrite what differs
    python -m ingest.formats.contract --check    exit 1, naming the files, when a committed file differs

For each source family (``SourceFamily``): ``dbt_project/models/staging/<family>/_<family>__sources.yml``
(the source, each table with its description, natural key under ``meta`` and its columns with
``data_type`` and description) and, in the family's contract page (``docs/<family>_raw_contract.md``),
one block per table between marker comments (``<!-- BEGIN raw.<table> ... -->`` .. ``<!-- END raw.<table> -->``);
the prose around the blocks is written by hand. A table without a block gets one at the end of its page.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import yaml

from ingest.formats import registry
from ingest.formats.base import Column, RawTable, SourceFamily
from ingest.formats.duck_types import duck_type

REPO = Path(__file__).resolve().parents[2]
COMMAND = "python -m ingest.formats.contract --write"
BLOCK = re.compile(r"<!-- BEGIN raw\.(\w+) .*?-->\n.*?<!-- END raw\.\1 -->\n", re.S)


def families() -> dict[SourceFamily, list[RawTable]]:
    """Every declared table by its source family, in the parsers' order."""
    found: dict[SourceFamily, list[RawTable]] = defaultdict(list)
    for table in registry.raw_tables().values():
        found[table.family].append(table)
    return dict(found)


def sources_path(family: SourceFamily) -> Path:
    return REPO / "dbt_project" / "models" / "staging" / family.name / f"_{family.name}__sources.yml"


class _Flow(list):
    """A list written on one line (a natural key)."""


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow=False, indentless=False):  # lists indented under their key, as dbt projects write them
        return super().increase_indent(flow, False)


_Dumper.add_representer(_Flow, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True))


def _meta(table: RawTable) -> dict:
    """What models and adapters read of a declaration besides its columns: the natural key staging
    de-duplicates on, and the columns that place a row in its (system, day)."""
    meta = {}
    if table.natural_key:
        meta["natural_key"] = _Flow(table.natural_key)
    if table.placement:
        meta["placement"] = _Flow(table.placement)
    return meta


def sources_yaml(family: SourceFamily, tables: list[RawTable]) -> str:
    source = {
        "name": family.name,
        "schema": "raw",
        "description": family.description,
        "tables": [
            {
                "name": table.name,
                "description": table.description,
                **({"config": {"meta": _meta(table)}} if _meta(table) else {}),
                "columns": [
                    {"name": c.name, "data_type": duck_type(c.type), "description": c.description}
                    for c in table.stored_columns
                ],
            }
            for table in tables
        ],
    }
    body = yaml.dump({"version": 2, "sources": [source]}, Dumper=_Dumper, sort_keys=False, width=110, allow_unicode=True)
    return f"# Generated from the parsers' declarations of the raw tables ({COMMAND}): do not edit.\n" \
           f"# Contract: {family.docs}\n{body}"


def plausible(table: RawTable, c: Column) -> str:
    """What plausibility at ingest holds a column to (``ingest.intake.plausibility``), in words: for
    ``raw.measure_cpu.cpu_busy_time`` ``**required**; not negative; at most 2e+06 per second of delta_time``
    (``required``: a CSV export without it is refused, and ``perfdb check`` wants a value each system-day)."""
    rules = ["**required**"] if c.required else []
    if c.name in table.natural_key and not c.optional:
        rules.append("not NULL")
    if c.cumulative:
        rules.append("not negative")
    if c.positive:
        rules.append("positive")
    if c.maximum is not None:
        rules.append(f"at most {c.maximum:.4g}")
    if c.max_per_s is not None and table.interval:
        rules.append(f"at most {c.max_per_s:.4g} per second of {table.interval}")
    if pa.types.is_floating(c.type):
        rules.append("finite, within ±2**64")
    if pa.types.is_string(c.type) and not c.verbatim:
        rules.append("no control character")
    if pa.types.is_timestamp(c.type) or pa.types.is_date(c.type):
        rules.append("from 1970-01-02 to a day after the file was written")
    return "; ".join(rules)


def doc_block(table: RawTable) -> str:
    lines = [
        f"<!-- BEGIN raw.{table.name} (generated from the parser's declaration by {COMMAND}) -->",
        f"### `raw.{table.name}`",
        "",
        table.description,
    ]
    notes = []
    if table.natural_key:
        notes.append(f"Natural key: {', '.join(table.natural_key)}.")
    if table.placement:
        notes.append(f"A row belongs to the system and day of {' and '.join(table.placement)}.")
    if table.open:
        notes.append("Open: a file may bring further columns, added after these; dbt must not rely on them.")
    lines += ["", " ".join(notes)] if notes else []
    lines += ["", "| column | type | meaning | plausible (else a reject) |", "|---|---|---|---|"]
    for c in table.stored_columns:
        if "|" in c.description or "\n" in c.description:
            raise ValueError(f"raw.{table.name}.{c.name}: a description must be one line without '|' (a table cell)")
        lines.append(f"| {c.name} | {duck_type(c.type).upper()} | {c.description} | {plausible(table, c)} |")
    lines.append(f"<!-- END raw.{table.name} -->")
    return "\n".join(lines) + "\n"


def contract_doc(text: str, tables: list[RawTable]) -> str:
    """``text`` (a contract page) with the block of every table rewritten; a missing block is appended."""
    blocks = {table.name: doc_block(table) for table in tables}
    text = BLOCK.sub(lambda m: blocks.pop(m.group(1), m.group(0)), text)
    for block in blocks.values():
        text = text.rstrip("\n") + "\n\n" + block
    return text


def expected_files() -> dict[Path, str]:
    """Every generated file with the content the declarations give it."""
    out: dict[Path, str] = {}
    for family, tables in families().items():
        out[sources_path(family)] = sources_yaml(family, tables)
        doc = REPO / family.docs
        out[doc] = contract_doc(doc.read_text() if doc.exists() else f"# Raw {family.name} tables\n", tables)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest.formats.contract", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the generated files that differ")
    mode.add_argument("--check", action="store_true", help="exit 1 when a committed file differs")
    args = parser.parse_args(argv)
    expected = expected_files()
    stale = [path for path, text in expected.items() if not path.exists() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(REPO)}: differs from the declarations; run {COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(expected[path])
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
