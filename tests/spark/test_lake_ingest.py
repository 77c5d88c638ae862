"""``perfdb ingest --target spark``: the files parsed in Spark tasks into the Parquet lake, with the DuckDB
path's results, rejects and messages; each file once, however often and however concurrently it comes."""

from __future__ import annotations

import shutil
import threading

import duckdb
import pyarrow.parquet as pq

from ingest import pipeline
from ingest.home import Home
from ingest.lake import job
from ingest.lake.layout import Lake
from ingest.warehouse.database import connect

BAD_CSV = "not,a,measure,export\n1,2,3\n"


def _lake_rows(lake: Lake) -> dict[str, int]:
    con = duckdb.connect()
    counts = {}
    for folder in sorted(p for p in lake.raw.iterdir() if p not in lake.manifest_dirs):
        counts[folder.name] = con.execute(
            f"select count(*) from read_parquet('{folder}/**/*.parquet', hive_partitioning = true)").fetchone()[0]
    return counts


def _duck_rows(home: Home, tables) -> dict[str, int]:
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        return {t: con.execute(f"select count(*) from raw.{t}").fetchone()[0] for t in tables}


def _summary(results):
    return sorted((r.path.name, r.status, r.format, r.records_read, r.records_loaded, r.rows_loaded,
                   r.rows_rejected, r.rows_skipped, tuple(r.messages)) for r in results)


def test_spark_tasks_parse_as_the_duckdb_path_does(spark, landing_copy, tmp_path):
    (landing_copy / "broken.csv").write_text(BAD_CSV)
    # a text file saved by a Windows editor, its byte order mark first: read as without it, on both paths
    text = next(p for p in sorted(landing_copy.rglob("*.csv")) if p.name != "broken.csv")
    (text.parent / f"bom-{text.name}").write_bytes(b"\xef\xbb\xbf" + text.read_bytes())
    lake = Lake(tmp_path / "lake")
    results, stats = job.ingest(lake, [landing_copy], spark=spark)
    assert stats.tasks > 1  # the parsing ran in Spark tasks, two at a time on local[2]
    # the driver got each file's counts and messages back, never its rows: well under a kilobyte a file
    assert stats.result_bytes < 1000 * len(results)

    home = Home(tmp_path / "home").create()
    duck = pipeline.ingest_paths(home, [landing_copy])
    assert _summary(results) == _summary(duck)
    broken = next(r for r in results if r.path.name == "broken.csv")
    assert broken.status == "rejected" and "unrecognised format" in broken.messages[0]
    [plain, bom] = [next(r for r in results if r.path.name == name) for name in (text.name, f"bom-{text.name}")]
    assert plain.status == "loaded" and plain.rows_loaded > 0
    assert (bom.status, bom.format, bom.rows_loaded) == (plain.status, plain.format, plain.rows_loaded)

    lake_rows = _lake_rows(lake)
    assert lake_rows == _duck_rows(home, lake_rows)
    assert sum(lake_rows.values()) == sum(r.rows_loaded + r.rows_skipped for r in results)
    # partitioned by system and day, with the system's backslash escaped as Spark escapes it
    days = sorted(p.name for p in (lake.raw / "measure_cpu").glob("system=*/day=*"))
    assert [p.name for p in (lake.raw / "measure_cpu").iterdir()] == ["system=%5CPROD1"]
    assert days == ["day=2026-01-05", "day=2026-01-06"]
    part = next((lake.raw / "measure_cpu").rglob("*.parquet"))
    schema = pq.read_schema(part)
    assert schema.names[0] == "source_file_id" and str(schema.field("from_timestamp").type) == "timestamp[us]"

    # the manifest and the rejects are lake tables with the DuckDB path's rows
    con = duckdb.connect()
    lake_rejects = con.execute(f"select path, byte_offset, line_number, record_ordinal, reason, raw_bytes "
                               f"from read_parquet('{lake.rejects_dir}/*.parquet') order by all").fetchall()
    with connect(home) as duck_con:
        duck_rejects = duck_con.execute("select path, byte_offset, line_number, record_ordinal, reason, raw_bytes "
                                        "from raw.rejects order by all").fetchall()
    assert lake_rejects == duck_rejects and len(lake_rejects) == 1
    manifest = con.execute(f"select status, count(*) from read_parquet('{lake.manifest_dir}/*.parquet') "
                           "group by all order by all").fetchall()
    assert manifest == [("loaded", len(results) - 1), ("rejected", 1)]
    # each file's (system, day) pairs, as the DuckDB path records them (what a sliced check reads)
    lake_days = con.execute(f"select system_name, day, count(*) from read_parquet('{lake.file_days_dir}/*.parquet') "
                            "group by all order by all").fetchall()
    with connect(home) as duck_con:
        duck_days = duck_con.execute("select system_name, day, count(*) from raw.ingest_file_days "
                                     "group by all order by all").fetchall()
    assert lake_days == duck_days and len(lake_days) > 1

    # the same bytes again, under another name too: nothing added
    shutil.copy(landing_copy / "broken.csv", tmp_path / "broken-again.csv")
    files_before = sorted(p for p in lake.root.rglob("*.parquet"))
    again, _ = job.ingest(lake, [landing_copy, tmp_path / "broken-again.csv"], spark=spark)
    assert {r.status for r in again} == {"duplicate"}
    assert sorted(p for p in lake.root.rglob("*.parquet")) == files_before


def test_two_concurrent_jobs_load_each_file_once(spark, landing_copy, tmp_path):
    lake = Lake(tmp_path / "lake")
    outcomes: list[list] = [[], []]

    def run(k: int) -> None:
        outcomes[k], _ = job.ingest(lake, [landing_copy], spark=spark)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    files = sorted(p.name for p in landing_copy.rglob("*") if p.is_file())
    loaded = sorted(r.path.name for results in outcomes for r in results if r.status == "loaded")
    duplicates = sorted(r.path.name for results in outcomes for r in results if r.status == "duplicate")
    assert loaded == files and duplicates == files
    assert len(list(lake.manifest_dir.glob("*.parquet"))) == len(files)
