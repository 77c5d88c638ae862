"""The dbt project compiles for both targets, and what it compiles for Spark has none of the constructs that
run on DuckDB only or that Spark reads differently (portability.DUCKDB_ONLY); the DuckDB spellings live in
dispatched macros. Compiling needs no Spark session (no introspection, no cache)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ingest.dbt_runner import DBT_PROJECT, dbt_executable
from portability import findings


def _compile(target: str, tmp: Path) -> Path:
    env = {**os.environ, "PERFDB_DUCKDB_PATH": str(tmp / "compile.duckdb"), "PERFDB_LAKE": str(tmp / "lake"),
           "DBT_TARGET_PATH": str(tmp / target), "DBT_LOG_PATH": str(tmp / "logs"),
           "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    proc = subprocess.run(
        [dbt_executable(), "--no-populate-cache", "compile", "--no-introspect", "--target", target,
         "--project-dir", str(DBT_PROJECT), "--profiles-dir", str(DBT_PROJECT)],
        env=env, cwd=str(DBT_PROJECT), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]
    return tmp / target / "compiled" / "perfdb"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("compiled")
    return {target: _compile(target, tmp) for target in ("duckdb", "spark")}


def test_the_spark_sql_has_no_duckdb_only_construct(compiled):
    sql_files = sorted(compiled["spark"].rglob("*.sql"))
    assert len(sql_files) > 300  # models and data tests
    found = [f"{f.relative_to(compiled['spark'])}: {name}: {line}" for f in sql_files for name, line in findings(f.read_text())]
    assert found == []


def test_the_dispatched_macros_render_each_engine_its_own_spelling(compiled):
    rate = {t: (compiled[t] / "models/intermediate/network/int_counter__rate.sql").read_text() for t in compiled}
    assert "unix_micros(cast(captured_utc as timestamp))" in rate["spark"]
    assert "epoch_us(captured_utc)" in rate["duckdb"]
    checks = {t: (compiled[t] / "models/marts/benchmarks/rpt_benchmark_relation_checks.sql").read_text() for t in compiled}
    assert "get_json_object(" in checks["spark"] and "json_extract_string(" in checks["duckdb"]
    # DuckDB's own SQL keeps its own functions: the patterns find them there
    assert any(name == "json_extract_string" for name, _ in findings(checks["duckdb"]))


def test_the_patterns_catch_what_bit_on_spark():
    sql = ("select cast(x as varchar) as a,\n from t\n"
           "select * exclude (copy_number) from t union all by name select \"limit\" from u\n"
           "select regexp_matches(v, '^\\d+ Mbps'), arg_max(a, b), isodow(d), unnest([1, 2])")
    names = {name for name, _ in findings(sql)}
    assert names >= {"varchar", "trailing comma", "star exclude", "union by name", "double-quoted identifier",
                     "regexp_matches", "regex backslash", "arg_max", "isodow", "list literal"}
    assert findings("select 'it''s \"quoted\" text' as note -- \"comment\"\nfrom t") == []


def test_seed_column_types_are_spelled_for_both_engines():
    """A seed's column_types go into Spark's `create table` as written: `varchar` without a length fails
    there, `string` works on both."""
    import yaml

    types = [(f.name, seed["name"], column, kind) for f in sorted((DBT_PROJECT / "seeds").glob("*.yml"))
             for seed in (yaml.safe_load(f.read_text()) or {}).get("seeds", [])
             for column, kind in ((seed.get("config") or {}).get("column_types") or {}).items()]
    assert types  # the seeds do declare types
    assert [t for t in types if findings(f"select cast(x as {t[3]})")] == []
