"""``perfdb ingest --target spark``: the files parsed in Spark tasks into the Parquet lake, with the DuckDB
path's results, rejects and messages; each file once, however often and however concurrently it comes."""

from __future__ import annotations

import shutil
import threading

import duckdb
import pyarrow.parquet as pq

from cpu_copies import cpu_day, write_sites

from ingest import cli, pipeline
from ingest.home import Home
from ingest.lake import job
from ingest.lake.built import SparkHome, copy_built
from ingest.lake.layout import Lake
from ingest.warehouse.database import connect
from quality import runner
from quality.suites import by_name

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
                   r.rows_rejected, r.rows_skipped, tuple(r.messages), r.duplicate_rows, r.conflicting_rows,
                   tuple(r.copies)) for r in results)


def test_spark_tasks_parse_as_the_duckdb_path_does(spark, landing_copy, tmp_path):
    # the MEASURE days come in three forms (CSV, binary, MEASCOM): each later form's rows duplicate the first's,
    # found and told alike on both paths
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


def _conflict_rows(con, files_table: str, conflicts_table: str) -> list[tuple]:
    return con.execute(
        f"select mine.path, others.path, copies.table_name, copies.system_name, cast(copies.first_day as varchar), "
        f"copies.duplicate_rows, copies.conflicting_rows, copies.example from {conflicts_table} as copies "
        f"join {files_table} as mine on mine.file_id = copies.file_id "
        f"join {files_table} as others on others.file_id = copies.other_file_id order by all").fetchall()


def test_copies_in_the_lake_are_found_as_the_duckdb_path_finds_them(spark, tmp_path, capsys):
    """Site A's CPU day, its CRLF export and site B's copy with one other value, in one job: the same
    duplicates and conflicts, told and counted, as on DuckDB; a later job's copy is compared with the earlier
    jobs' files; a file whose comparison a killed driver left undone is compared by the next job; the check
    of the lake's copy fails on the conflict until ``perfdb remove --target spark`` takes the wrong copies out."""
    landing = tmp_path / "landing"
    site_a, crlf, site_b = write_sites(landing)
    lake = Lake(tmp_path / "lake")
    results, _ = job.ingest(lake, [landing], spark=spark)
    home = Home(tmp_path / "home").create()
    duck = pipeline.ingest_paths(home, [landing])
    assert _summary(results) == _summary(duck)
    by_path = {r.path: r for r in results}
    assert [(by_path[p].duplicate_rows, by_path[p].conflicting_rows, by_path[p].ok) for p in (site_a, crlf, site_b)] \
        == [(0, 0, True), (4, 0, True), (6, 2, False)]
    lake_files = f"read_parquet('{lake.manifest_dir}/*.parquet')"
    lake_conflicts = f"read_parquet('{lake.key_conflicts_dir}/*.parquet')"
    con = duckdb.connect()
    with connect(home) as duck_con:
        expected = _conflict_rows(duck_con, "raw.ingest_files", "raw.key_conflicts")
    assert _conflict_rows(con, lake_files, lake_conflicts) == expected and len(expected) == 3
    # every loaded file is marked compared: one Parquet file each, most of them without a row
    assert len(list(lake.key_conflicts_dir.glob("*.parquet"))) == 3

    # site C, a later job: its day's copy is compared with the three files of the first job
    site_c = landing / "siteC" / "cpu.csv"
    site_c.parent.mkdir()
    site_c.write_bytes(cpu_day(45_000_000).replace("\n", "\r\n").encode())  # site B's values, other bytes
    [later], _ = job.ingest(lake, [site_c], spark=spark)
    assert (later.status, later.ok, later.duplicate_rows, later.conflicting_rows) == ("loaded", False, 3 + 3 + 4, 1 + 1)
    assert con.execute(f"select sum(conflicting_rows) from {lake_conflicts}").fetchone() == (2 + 2,)

    # a driver killed before it compared site B: its mark gone, the next job (a file of another day) does it
    (lake.key_conflicts_dir / f"{_sha(lake, site_b)}.parquet").unlink()
    other_day = landing / "next" / "cpu.csv"
    other_day.parent.mkdir()
    other_day.write_text(cpu_day(30_000_000).replace("2026-01-05", "2026-01-06"))
    assert con.execute(f"select sum(conflicting_rows) from {lake_conflicts}").fetchone() == (2,)  # site C's
    [next_day], _ = job.ingest(lake, [other_day], spark=spark)
    assert (next_day.duplicate_rows, next_day.conflicting_rows) == (0, 0)
    assert con.execute(f"select sum(conflicting_rows) from {lake_conflicts}").fetchone() == (2 + 2,)

    spark_home = SparkHome(home.root)
    copy_built(spark_home, lake)
    assert not runner.validate_warehouse(spark_home, [by_name("raw.key_conflicts")], everything=False,
                                         docs=False).success

    # the wrong copies removed (site B's by its path, site C's by its bytes): their rows, marks and the
    # conflicts they had go; the check passes; sent again, site B loads again and conflicts again
    site_b.rename(site_b.with_name("gone.csv"))
    assert cli.main(["--home", str(home.root), "remove", "--target", "spark", "--lake", str(lake.root),
                     str(site_b), str(site_c)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 files removed; run `perfdb build` so that the models follow"
    assert con.execute(f"select count(*), sum(conflicting_rows) from {lake_conflicts}").fetchone() == (1, 0)  # the CRLF export's duplicate of site A
    assert con.execute(f"select count(*) from read_parquet('{lake.raw}/measure_cpu/*/*/*.parquet')").fetchone() == (12,)
    copy_built(spark_home, lake)
    assert runner.validate_warehouse(spark_home, [by_name("raw.key_conflicts")], everything=False,
                                     docs=False).success
    site_b.with_name("gone.csv").rename(site_b)
    [again], _ = job.ingest(lake, [site_b], spark=spark)
    assert (again.status, again.conflicting_rows) == ("loaded", 2)


def _sha(lake: Lake, path) -> str:
    con = duckdb.connect()
    return con.execute(f"select sha256 from read_parquet('{lake.manifest_dir}/*.parquet') where path = ?",
                       [str(path)]).fetchone()[0]
