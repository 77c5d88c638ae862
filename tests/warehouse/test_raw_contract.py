"""Each raw table is declared once, by its parser: the warehouse, the dbt sources and the contract pages
follow that declaration, and what the parsers write fits it."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
import yaml

from ingest import raw_tables
from ingest.formats import contract, registry
from ingest.formats.base import Column, ParseContext, RawTable, SourceFamily, table_of
from ingest.formats.duck_types import duck_type
from ingest.formats.measure import tables as measure_tables
from ingest.formats.smf.parser import DECODERS as SMF_DECODERS
from ingest.formats.smf.parser import PARSER as SMF_PARSER
from ingest.formats.smf.parser import UNPARSED as SMF_UNPARSED
from ingest.generate import _smf_plan as smf_plan
from ingest.generate import _smf_records as smf_records
from ingest.home import Home
from ingest.warehouse.database import MANIFEST_TABLES, connect

REPO = Path(__file__).resolve().parents[2]
DECLARED = registry.raw_tables()
FAMILIES = contract.families()


def declared_columns(table: RawTable) -> list[tuple[str, str]]:
    return [(c.name, duck_type(c.type).upper()) for c in table.stored_columns]


def test_every_raw_table_is_declared_by_the_parsers_of_its_family():
    """The inventory is what the parsers declare (no list of it here to keep in step): each parser writes the
    tables of one family, a family's tables are those its parsers declare, in their order."""
    by_family: dict[SourceFamily, dict[str, RawTable]] = {}
    for parser in registry.all_parsers():
        [family] = {t.family for t in parser.tables}
        by_family.setdefault(family, {}).update((t.name, t) for t in parser.tables)
    assert {f.name: [t.name for t in tables] for f, tables in FAMILIES.items()} == {
        f.name: list(tables) for f, tables in by_family.items()}
    assert {f.name for f in FAMILIES} == {"smf", "measure", "benchmark", "commands", "listings"}
    # SMF: the tables of every decoder, and the records none decodes
    assert [t.name for t in FAMILIES[SMF_UNPARSED.family]] == [
        *(t.name for decoder in SMF_DECODERS for t in decoder.TABLES), SMF_UNPARSED.name]
    # open (a form may bring columns of its own): the MEASURE entities, not their unparsed records
    assert [t.name for t in DECLARED.values() if t.open] == [t.name for t in measure_tables.ENTITY_TABLES]
    assert all(c.description for t in DECLARED.values() for c in t.columns)


def warehouse_columns(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    """(column, DuckDB type) of every raw table in order, the manifest, rejects and file days left out."""
    found: dict[str, list[tuple[str, str]]] = {}
    try:
        for table, column, data_type in con.execute(
            "select table_name, column_name, data_type from duckdb_columns() where schema_name = 'raw' "
            "and table_name not in (select unnest(?)) order by table_name, column_index", [list(MANIFEST_TABLES)]
        ).fetchall():
            found.setdefault(table, []).append((column, data_type))
    finally:
        con.close()
    return found


def test_a_fresh_warehouse_has_every_declared_table_with_its_columns_in_order(tmp_path):
    found = warehouse_columns(connect(Home(tmp_path).create()))
    assert sum(map(len, found.values())) == sum(len(t.stored_columns) for t in DECLARED.values())
    assert found == {name: declared_columns(table) for name, table in DECLARED.items()}


def test_dbt_sources_have_the_declared_columns_types_and_keys():
    probe = duckdb.connect()
    for family, tables in FAMILIES.items():
        [source] = yaml.safe_load(contract.sources_path(family).read_text())["sources"]
        assert (source["name"], source["schema"], source["description"]) == (family.name, "raw", family.description)
        by_name = {t["name"]: t for t in source["tables"]}
        assert list(by_name) == [t.name for t in tables]
        for table in tables:
            yml = by_name[table.name]
            columns = [(c["name"], c["data_type"].upper()) for c in yml["columns"]]
            assert columns == declared_columns(table), table.name
            assert yml.get("config", {}).get("meta", {}).get("natural_key", []) == list(table.natural_key)
            for c in yml["columns"]:  # a data_type DuckDB reads back as itself
                assert probe.execute(f"select typeof(cast(null as {c['data_type']}))").fetchone()[0] == c["data_type"].upper()


def test_contract_pages_document_the_declared_columns():
    for family, tables in FAMILIES.items():
        text = (REPO / family.docs).read_text()
        for table in tables:
            block = re.search(rf"<!-- BEGIN raw\.{table.name} .*?<!-- END raw\.{table.name} -->", text, re.S)
            assert block, f"{family.docs} has no block for raw.{table.name}"
            documented = re.findall(r"^\| (\w+) \| ([A-Z]+) \| ", block.group(0), re.M)
            assert documented == declared_columns(table), table.name


def test_committed_sources_and_pages_are_what_the_generator_writes():
    stale = [str(path.relative_to(REPO)) for path, text in contract.expected_files().items()
             if not path.exists() or path.read_text() != text]
    assert stale == [], "run python -m ingest.formats.contract --write"
    assert contract.main(["--check"]) == 0


def test_ensure_raw_tables_creates_and_extends_but_never_drops():
    con = duckdb.connect()
    con.execute("create schema raw")
    con.execute("create table raw.command_values (record_ordinal bigint, site varchar)")  # older, with a column of its own
    table = DECLARED["command_values"]
    raw_tables.ensure_raw_tables(con, [table, DECLARED["command_captures"]])
    raw_tables.ensure_raw_tables(con, [table, DECLARED["command_captures"]])  # idempotent
    columns = [r[0] for r in con.execute(
        "select column_name from duckdb_columns() where table_name = 'command_values' order by column_index").fetchall()]
    assert columns == ["record_ordinal", "site", "source_file_id", "line_number", "label_id", "value", "text_value"]
    assert con.execute("select count(*) from raw.command_captures").fetchone()[0] == 0


FAMILY = SourceFamily("toy", "a family for the test", "docs/toy_raw_contract.md")
CLOSED = RawTable("toy_closed", FAMILY, "closed", (Column("n", pa.int32(), "n"), Column("label", pa.string(), "label")))
OPEN = RawTable("toy_open", FAMILY, "open", CLOSED.columns, open=True)


def test_conform_casts_fills_and_keeps_extra_columns_of_open_tables_only():
    batch = pa.table({"label": ["a", "b"], "n": pa.array([1, 2], pa.int64()), "rack": [None, None],
                      "slot": pa.array([3, 4], pa.int16())})
    open_rows = raw_tables.conform(OPEN, batch)
    # extra columns: all-NULL as text, integers as BIGINT (another form may bring the same item wider)
    assert open_rows.schema == pa.schema([("n", pa.int32()), ("label", pa.string()), ("rack", pa.string()),
                                          ("slot", pa.int64())])
    assert open_rows.to_pylist() == [{"n": 1, "label": "a", "rack": None, "slot": 3},
                                     {"n": 2, "label": "b", "rack": None, "slot": 4}]
    assert raw_tables.conform(CLOSED, pa.table({"label": ["x"]})).to_pylist() == [{"n": None, "label": "x"}]
    with pytest.raises(ValueError, match=r"raw\.toy_closed declares no column rack, slot"):
        raw_tables.conform(CLOSED, batch)
    with pytest.raises(ValueError, match=r"raw\.toy_closed\.n is int32, the parser gave int64"):
        raw_tables.conform(CLOSED, pa.table({"n": pa.array([2**40], pa.int64())}))


def test_a_parser_writes_only_tables_it_declares():
    with pytest.raises(ValueError, match=r"parser smf\.binary wrote raw\.measure_cpu, which it does not declare"):
        table_of(SMF_PARSER, "measure_cpu")
    binary = registry.by_format("measure.binary")
    netline = table_of(binary, "measure_netline")  # a record of a user's NETLINE DDL, outside the contract
    assert netline.open and netline.column_names[:3] == ("record_ordinal", "source_form", "system_name")


def test_smf_batches_of_a_generated_day_are_exactly_the_declared_tables(tmp_path):
    path = tmp_path / "day.smf"
    day = smf_plan.plan_day("SYSA", dt.date(2026, 1, 6), seed=3)
    path.write_bytes(smf_records.vb_bytes(smf_records.day_records(day)))
    written = set()
    for batch in SMF_PARSER.parse(path, ParseContext(path)):
        assert batch.rows.schema == table_of(SMF_PARSER, batch.table).schema, batch.table
        written.add(batch.table)
    assert written == {t.name for t in SMF_PARSER.tables}


def test_the_demo_warehouse_keeps_the_declared_columns_first(demo_home):
    found = warehouse_columns(duckdb.connect(str(demo_home.serving_path), read_only=True))
    assert sorted(found) == sorted(DECLARED)
    for name, table in DECLARED.items():
        declared = declared_columns(table)
        assert found[name][: len(declared)] == declared, name
        assert table.open or len(found[name]) == len(declared), name
