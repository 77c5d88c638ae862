"""``perfdb run --target spark`` against ``perfdb run`` on the same generated inputs: every mart table of the
two published serving databases holds the same rows (numbers within 1e-6 relative), which is what catches
an expression that builds on Spark with other numbers and no error. Then a check failing on the Spark path
leaves serving.duckdb as it was, to the byte."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import shutil
from pathlib import Path

import duckdb
import pytest

from ingest import cli
from ingest.home import Home

# one MEASURE CPU record whose LOADID (DT00611) names another hour than its interval (10:00-11:00 on
# 2026-01-05, Julian timestamps): the raw MEASURE suite's inside_loadid_hour fails it
LATE_LOADID_CSV = (
    "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps,intr-busy-time\n"
    f"\\PROD1,2,DT00611,{210866760000000000 + 1767607200 * 1_000_000},{210866760000000000 + 1767610800 * 1_000_000},"
    "3600000000,0,5,1800000000,720,360000000\n"
)

# ids of files differ by design (a sequence on DuckDB, the job's start and the listing position in the
# lake); they sort alike, which is what staging's first copy depends on
FILE_ID_COLUMNS = {"source_file_id", "file_id"}

# copies of the same measurements in two files are found by the DuckDB loader only (ingest/warehouse/
# copies.py); the lake's raw.key_conflicts is an empty view, so on Spark this mart has the columns, no rows
ROWS_ON_DUCKDB_ONLY = {"rpt_key_conflicts"}


def _value(v):
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, dt.time):  # a TIME on DuckDB is 'HH:MM:SS' text on Spark (macros/portable.sql)
        return v.strftime("%H:%M:%S")
    if isinstance(v, dt.date) and not isinstance(v, dt.datetime):
        return dt.datetime(v.year, v.month, v.day)
    return v


def _sort_key(row):
    return tuple((0, "") if v is None else (1, f"{v:.6g}") if isinstance(v, float) else (1, str(v)) for v in row)


def _rows(con, schema: str, table: str, columns: list[str]) -> list[tuple]:
    rows = con.execute(f"select {', '.join(columns)} from {schema}.{table}").fetchall()
    return sorted((tuple(_value(v) for v in row) for row in rows), key=_sort_key)


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, (float, int)) or isinstance(b, float) and isinstance(a, int):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return a == b


def _mart_differences(duck: Path, spark: Path) -> list[str]:
    con = duckdb.connect()
    con.execute(f"attach '{duck}' as d (read_only)")
    con.execute(f"attach '{spark}' as s (read_only)")
    tables = {side: {r[0] for r in con.execute(
        f"select table_name from duckdb_tables() where database_name = '{side}' and schema_name = 'marts'").fetchall()}
        for side in ("d", "s")}
    problems = [f"only on DuckDB: {t}" for t in sorted(tables["d"] - tables["s"])]
    problems += [f"only on Spark: {t}" for t in sorted(tables["s"] - tables["d"])]
    for table in sorted(tables["d"] & tables["s"]):
        columns = {side: sorted(r[0] for r in con.execute(
            f"select column_name from duckdb_columns() where database_name = '{side}' and schema_name = 'marts' "
            f"and table_name = '{table}'").fetchall()) for side in ("d", "s")}
        if columns["d"] != columns["s"]:
            problems.append(f"{table}: columns differ: {sorted(set(columns['d']) ^ set(columns['s']))}")
            continue
        if table in ROWS_ON_DUCKDB_ONLY:
            continue
        names = [c for c in columns["d"] if c not in FILE_ID_COLUMNS]
        d_rows, s_rows = _rows(con, "d.marts", table, names), _rows(con, "s.marts", table, names)
        if len(d_rows) != len(s_rows):
            problems.append(f"{table}: {len(d_rows)} rows on DuckDB, {len(s_rows)} on Spark")
            continue
        for d_row, s_row in zip(d_rows, s_rows):
            bad = [f"{n}: {a!r} vs {b!r}" for n, a, b in zip(names, d_row, s_row) if not _same(a, b)]
            if bad:
                problems.append(f"{table}: {'; '.join(bad[:4])}")
                break
    return problems


@pytest.mark.slow
def test_spark_publishes_the_marts_duckdb_publishes(small_inputs, tmp_path, capsys):
    homes = {target: Home(tmp_path / target) for target in ("duckdb", "spark")}
    for home in homes.values():
        shutil.copytree(small_inputs, home.landing)
    assert cli.main(["--home", str(homes["duckdb"].root), "run"]) == 0
    assert cli.main(["--home", str(homes["spark"].root), "run", "--target", "spark", "--spark-master", "local[2]"]) == 0
    err = capsys.readouterr().err
    assert f"published {homes['spark'].serving_path}" in err
    with duckdb.connect(str(homes["spark"].serving_path), read_only=True) as con:
        marts = con.execute("select count(*) from duckdb_tables() where schema_name = 'marts'").fetchone()[0]
    assert marts > 40
    assert _mart_differences(homes["duckdb"].serving_path, homes["spark"].serving_path) == []

    # a LOADID naming another hour than its interval: the raw MEASURE suite fails it on the lake's copy,
    # and serving.duckdb stays as published
    spark_home = homes["spark"]
    before = spark_home.serving_path.read_bytes()
    (spark_home.landing / "cpu-late.csv").write_text(LATE_LOADID_CSV)
    assert cli.main(["--home", str(spark_home.root), "ingest", "--target", "spark", "--spark-master", "local[2]",
                     str(spark_home.landing / "cpu-late.csv")]) == 0
    assert cli.main(["--home", str(spark_home.root), "check", "--target", "spark"]) == 1
    assert "FAILED raw.measure_cpu / inside_loadid_hour" in capsys.readouterr().out
    assert spark_home.serving_path.read_bytes() == before
