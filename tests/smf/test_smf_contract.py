"""The raw SMF contract is one contract: parser output = dbt macro ensure_raw_smf_tables = docs."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pyarrow as pa
import pytest

from ingest.formats.base import ParseContext
from ingest.formats.smf.parser import PARSER
from ingest.generate import smf as gen

REPO = Path(__file__).resolve().parents[2]
ARROW_TO_DUCKDB = {pa.int64(): "bigint", pa.string(): "varchar", pa.timestamp("us"): "timestamp",
                   pa.float64(): "double", pa.binary(): "blob"}


@pytest.fixture(scope="module")
def parsed_schemas(tmp_path_factory) -> dict[str, list[tuple[str, str]]]:
    path = tmp_path_factory.mktemp("contract") / "day.smf"
    path.write_bytes(gen.vb_bytes(gen.day_records(gen.plan_day("SYSA", dt.date(2026, 1, 6), seed=3))))
    schemas: dict[str, list[tuple[str, str]]] = {}
    for batch in PARSER.parse(path, ParseContext(path)):
        columns = [("source_file_id", "bigint")] + [(f.name, ARROW_TO_DUCKDB[f.type]) for f in batch.rows.schema]
        assert schemas.setdefault(batch.table, columns) == columns, f"{batch.table}: batches disagree"
    return schemas


def macro_columns() -> dict[str, list[tuple[str, str]]]:
    text = (REPO / "dbt_project" / "macros" / "ensure_raw_smf_tables.sql").read_text()
    tables = re.findall(r"'(\w+)': \[(.*?)\]", text, re.S)
    return {name: re.findall(r"\('(\w+)', '(\w+)'\)", body) for name, body in tables}


def test_every_table_of_a_generated_day_is_written(parsed_schemas):
    assert sorted(parsed_schemas) == sorted([
        "smf70_cpu_control", "smf70_cpu", "smf70_partition", "smf70_logical_processor", "smf30_work",
        "smf119_tcp_connection", "smf119_interface", "smf119_ftp_transfer", "smf119_tn3270_session", "smf_unparsed",
    ])


def test_dbt_macro_declares_exactly_what_the_parser_writes(parsed_schemas):
    assert macro_columns() == parsed_schemas


def test_raw_contract_document_names_every_column(parsed_schemas):
    doc = (REPO / "docs" / "smf_raw_contract.md").read_text()
    missing = sorted({f"{t}.{c}" for t, cols in parsed_schemas.items() for c, _ in cols if f"`{c}`" not in doc and f"| {c} |" not in doc})
    assert missing == []
    for table in parsed_schemas:
        assert f"`{table}`" in doc
