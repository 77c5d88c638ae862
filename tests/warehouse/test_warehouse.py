"""The warehouse contract: manifest, rejects, one transaction per file, idempotency, accounting, publish."""

from __future__ import annotations

import json
import subprocess
import sys

import duckdb

from ingest import cli, pipeline
from ingest.home import Home
from ingest.warehouse import database, loading, serving

CSV_HEADER = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps,intr-busy-time\n"
# 2026-01-05 10:00 local = Julian 212 ... computed as 1970 epoch offset + seconds
JTS_1000 = 210866760000000000 + 1767607200 * 1_000_000
JTS_1100 = JTS_1000 + 3_600_000_000


def _csv_row(cpu: int, busy_us: int) -> str:
    return f"\\PROD1,{cpu},DT00510,{JTS_1000},{JTS_1100},3600000000,0,{busy_us},1800000000,720,360000000\n"


def _count(home: Home, table: str) -> int:
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        return con.execute(f"select count(*) from {table}").fetchall()[0][0]


def _ingest(home: Home, *paths):
    return pipeline.ingest_paths(home, list(paths))


def test_manifest_idempotent_and_accounted(tmp_path):
    home = Home(tmp_path / "home").create()
    f = home.landing / "cpu.csv"
    f.write_text(CSV_HEADER + _csv_row(0, 1_800_000_000) + _csv_row(1, 900_000_000))
    first = _ingest(home, f)
    again = _ingest(home, f)
    assert [r.status for r in first] == ["loaded"]
    assert [r.status for r in again] == ["duplicate"]
    con = duckdb.connect(str(home.db_path), read_only=True)
    assert con.execute("select count(*) from raw.measure_cpu").fetchone()[0] == 2
    row = con.execute(
        "select records_read, rows_loaded, rows_rejected, rows_skipped, status, format from raw.ingest_files"
    ).fetchall()
    assert row == [(2, 2, 0, 0, "loaded", "measure.csv")]
    assert con.execute("select count(distinct source_file_id) from raw.measure_cpu").fetchone()[0] == 1


def test_bad_row_rejected_rest_loaded(tmp_path):
    home = Home(tmp_path / "home").create()
    f = home.landing / "cpu.csv"
    f.write_text(CSV_HEADER + _csv_row(0, 1_800_000_000) + _csv_row(1, 900_000_000).replace("900000000", "9x0") + _csv_row(2, 5))
    (res,) = _ingest(home, f)
    assert res.status == "loaded_with_rejects"
    assert (res.records_read, res.rows_loaded, res.rows_rejected) == (3, 2, 1)
    assert "line 3" in res.messages[0] and str(f) in res.messages[0]
    con = duckdb.connect(str(home.db_path), read_only=True)
    assert con.execute("select line_number from raw.rejects").fetchall() == [(3,)]
    assert sorted(r[0] for r in con.execute("select cpu_num from raw.measure_cpu").fetchall()) == [0, 2]


def test_empty_and_unknown_files_are_rejected_with_reason(tmp_path):
    home = Home(tmp_path / "home").create()
    empty = home.landing / "empty.dat"
    empty.write_bytes(b"")
    unknown = home.landing / "notes.txt"
    unknown.write_text("Dear analyst,\nthis is a letter, not a measurement.\n")
    results = {r.path.name: r for r in _ingest(home, empty, unknown)}
    assert results["empty.dat"].status == "rejected"
    assert "empty file" in results["empty.dat"].error
    assert results["notes.txt"].status == "rejected"
    assert "unrecognised format" in results["notes.txt"].error
    assert _count(home, "raw.rejects") == 2
    # re-sent rejected files are tried again (and rejected again, not "already ingested"); their earlier
    # manifest rows and rejects are replaced
    assert [r.status for r in _ingest(home, empty, unknown)] == ["rejected", "rejected"]
    assert (_count(home, "raw.rejects"), _count(home, "raw.ingest_files")) == (2, 2)


def test_cli_exit_codes(tmp_path):
    home = tmp_path / "home"
    good = tmp_path / "good.csv"
    good.write_text(CSV_HEADER + _csv_row(0, 10))
    bad = tmp_path / "bad.txt"
    bad.write_text("nothing to see\n")
    assert cli.main(["--home", str(home), "ingest", str(good)]) == 0
    assert cli.main(["--home", str(home), "ingest", str(good)]) == 0  # duplicate is not a failure
    assert cli.main(["--home", str(home), "ingest", str(bad)]) == 1
    assert cli.main(["--home", str(home), "ingest", str(tmp_path / "missing.csv")]) == 1


READ_MARKER = """
import sys, duckdb
print(duckdb.connect(sys.argv[1], read_only=True).execute("select v from raw.marker").fetchall()[0][0])
"""


def test_publish_is_atomic_for_open_readers(tmp_path):
    home = Home(tmp_path / "home").create()
    con = database.connect(home)
    con.execute("create table raw.marker as select 1 as v")
    con.close()
    serving.publish(home)
    reader = serving.connect_serving(home)
    con = database.connect(home)
    con.execute("update raw.marker set v = 2")
    con.close()
    serving.publish(home)
    # the open reader keeps the file it opened; a new reader (another process, as Superset's would be:
    # within one process DuckDB reuses the instance already open on that path) sees the new one
    assert reader.execute("select v from raw.marker").fetchall() == [(1,)]
    out = subprocess.run(
        [sys.executable, "-c", READ_MARKER, str(home.serving_path)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "2"
    assert not home.serving_path.with_name("serving.duckdb.new").exists()


def test_serving_has_no_external_access(tmp_path):
    home = Home(tmp_path / "home").create()
    database.connect(home).close()
    serving.publish(home)
    con = serving.connect_serving(home)
    for sql in ("select * from read_csv('/etc/passwd')", "create table raw.x as select 1"):
        try:
            con.execute(sql)
        except duckdb.Error:
            continue
        raise AssertionError(f"serving connection allowed: {sql}")


READER = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print(con.execute("select count(*) from marts.fct_cpu_shift").fetchone()[0])
"""


def test_serving_readable_while_build_runs(copy_of_demo_home):
    home = copy_of_demo_home
    build = subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", "--home", str(home.root), "--json", "build"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    reads_during_build = 0
    while build.poll() is None:
        out = subprocess.run([sys.executable, "-c", READER, str(home.serving_path)], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert int(out.stdout) > 0
        if build.poll() is None:
            reads_during_build += 1
    assert build.returncode == 0
    assert reads_during_build >= 1


def test_large_files_are_staged_as_parquet_with_the_same_result(tmp_path, monkeypatch):
    """Past HELD_BYTES a file's batches go through Parquet parts (bounded memory); the rows are the same."""
    rows = CSV_HEADER + "".join(_csv_row(cpu, 1_000 * cpu) for cpu in range(16))
    loaded = {}
    for spill in (loading.HELD_BYTES, 0):
        monkeypatch.setattr(loading, "HELD_BYTES", spill)
        home = Home(tmp_path / f"home_{spill}").create()
        f = home.landing / "cpu.csv"
        f.write_text(rows)
        (res,) = _ingest(home, f)
        assert (res.status, res.records_read, res.rows_loaded) == ("loaded", 16, 16)
        with duckdb.connect(str(home.db_path), read_only=True) as con:
            loaded[spill] = con.execute(
                "select cpu_num, cpu_busy_time, from_timestamp, source_file_id from raw.measure_cpu order by cpu_num"
            ).fetchall()
    in_memory, via_parquet = loaded.values()
    assert via_parquet == in_memory
    assert [r[1] for r in via_parquet] == [1_000 * cpu for cpu in range(16)]


def _extra_column_csv(path, cpu: int, site_rack: str) -> None:
    path.write_text(CSV_HEADER.replace("\n", ",site-rack\n") + _csv_row(cpu, 1_000 * (cpu + 1)).replace("\n", f",{site_rack}\n"))


def test_small_files_commit_together_each_with_its_own_manifest_row(tmp_path):
    """Several small files share a transaction (DuckDB then writes compressed row groups directly); each
    still gets its own file id, in the order given, and the same file twice in one run loads once."""
    home = Home(tmp_path / "home").create()
    files = []
    for cpu in range(3):
        f = home.landing / f"cpu{cpu}.csv"
        f.write_text(CSV_HEADER + _csv_row(cpu, 1_000 * (cpu + 1)))
        files.append(f)
    twin = home.landing / "cpu0-again.csv"
    twin.write_bytes(files[0].read_bytes())
    results = _ingest(home, *files, twin)
    assert [(r.path.name, r.status, r.rows_loaded) for r in results] == [
        ("cpu0.csv", "loaded", 1), ("cpu1.csv", "loaded", 1), ("cpu2.csv", "loaded", 1), ("cpu0-again.csv", "duplicate", 0),
    ]
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        manifest = con.execute("select file_id, file_name from raw.ingest_files order by file_id").fetchall()
        rows = con.execute("select source_file_id, cpu_num, cpu_busy_time from raw.measure_cpu order by cpu_num").fetchall()
    assert [name for _id, name in manifest] == ["cpu0.csv", "cpu1.csv", "cpu2.csv"]
    ids = [file_id for file_id, _name in manifest]
    assert rows == [(ids[0], 0, 1_000), (ids[1], 1, 2_000), (ids[2], 2, 3_000)]


def test_a_file_the_database_refuses_fails_alone_in_its_group(tmp_path):
    """The first file makes the unknown column ``site-rack`` BIGINT; the second has text in it, which
    DuckDB cannot store there. The shared transaction fails, each file is retried on its own, and only
    the second file fails, with DuckDB's reason; the others load."""
    home = Home(tmp_path / "home").create()
    files = [home.landing / f"cpu{cpu}.csv" for cpu in range(3)]
    for cpu, (f, rack) in enumerate(zip(files, ["12", "R12", "14"])):
        _extra_column_csv(f, cpu, rack)
    results = _ingest(home, *files)
    assert [r.status for r in results] == ["loaded", "failed", "loaded"]
    assert "Conversion Error" in results[1].error and "R12" in results[1].error
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        assert con.execute("select cpu_num, site_rack from raw.measure_cpu order by 1").fetchall() == [(0, 12), (2, 14)]
        assert con.execute("select file_name, status from raw.ingest_files order by file_id").fetchall() == [
            ("cpu0.csv", "loaded"), ("cpu1.csv", "failed"), ("cpu2.csv", "loaded"),
        ]


def test_remove_un_ingests_a_file_so_a_corrected_one_can_load(tmp_path, capsys):
    """``perfdb remove`` takes a file's rows, rejects and manifest row out in one transaction; the same
    bytes then load again, and a file already deleted from disc is found by its recorded path."""
    home = Home(tmp_path / "home").create()
    good, bad = home.landing / "good.csv", home.landing / "bad.csv"
    good.write_text(CSV_HEADER + _csv_row(0, 1_000) + _csv_row(1, 2_000))
    bad.write_text(CSV_HEADER + _csv_row(2, 3_000) + _csv_row(3, 4_000).replace("4000", "4x00"))
    assert [r.status for r in _ingest(home, good, bad)] == ["loaded", "loaded_with_rejects"]
    bad_id = duckdb.connect(str(home.db_path), read_only=True).execute(
        "select file_id from raw.ingest_files where file_name = 'bad.csv'").fetchall()[0][0]

    assert cli.main(["--home", str(home.root), "remove", str(bad)]) == 0
    assert f"removed file {bad_id} {bad}: 1 rows" in capsys.readouterr().out
    assert (_count(home, "raw.measure_cpu"), _count(home, "raw.rejects"), _count(home, "raw.ingest_files")) == (2, 0, 1)

    assert [r.status for r in _ingest(home, bad)] == ["loaded_with_rejects"]  # not a duplicate any more
    bad.unlink()
    assert cli.main(["--home", str(home.root), "--json", "remove", str(bad), "--file-id", "999"]) == 0
    removed = json.loads(capsys.readouterr().out)["removed"]
    assert [(r["path"], r["rows"]) for r in removed] == [(str(bad), 1)]
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        assert con.execute("select cpu_num from raw.measure_cpu order by 1").fetchall() == [(0,), (1,)]
        assert con.execute("select file_name from raw.ingest_files").fetchall() == [("good.csv",)]
    assert cli.main(["--home", str(home.root), "remove", "--file-id", "999"]) == 1
    assert "nothing removed" in capsys.readouterr().out
