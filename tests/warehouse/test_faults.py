"""Faults of the machine, met by real ``perfdb`` processes: a full disc (the file size limit, RLIMIT_FSIZE, which
makes every write past it fail with EFBIG as a full disc fails with ENOSPC), a second writer, a writer killed
with SIGKILL, DuckDB's own lock held by another process. Each gives one line on stderr, exit 1, a JSON summary
with ``--json``, a consistent warehouse, and nothing left behind for the next run."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import duckdb
import pytest

from ingest.home import Home

PERFDB = str(Path(sys.executable).parent / "perfdb")
HEADER = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps\n"
JULIAN_2026_01_05_10H = 210866760000000000 + 1767607200 * 1_000_000
HOUR_US = 3_600_000_000


def _csv(path: Path, rows: int, first_cpu: int = 0) -> Path:
    path.write_text(HEADER + "".join(
        f"\\PROD1,{first_cpu + i % 16},DT00510,{JULIAN_2026_01_05_10H + i * 1_000_000},"
        f"{JULIAN_2026_01_05_10H + HOUR_US + i * 1_000_000},{HOUR_US},0,{1000 + i},1800,7\n" for i in range(rows)))
    return path


def perfdb(home: Path, *args: str, file_size_limit: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run([PERFDB, "--home", str(home), *args], capture_output=True, text=True, timeout=300,
                          preexec_fn=limit if file_size_limit else None)


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def _query(home: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(Home(home).db_path), read_only=True) as con:
        return con.execute(sql).fetchall()


@contextmanager
def held_on_a_fifo(home: Path, fifo: Path, *before: str) -> Iterator[subprocess.Popen]:
    """``perfdb ingest BEFORE... FIFO`` held where it opens the FIFO (every file before it read, the writer lock
    held, its staging folder made), waiting for bytes that never come; killed with SIGKILL when the block ends."""
    os.mkfifo(fifo)
    proc = subprocess.Popen([PERFDB, "--home", str(home), "ingest", *before, str(fifo)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        with fifo.open("wb"):  # returns once perfdb opened the FIFO to read it
            yield proc
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def home_with_one_file(tmp_path) -> Path:
    home = tmp_path / "home"
    assert perfdb(home, "ingest", str(_csv(tmp_path / "small.csv", 1))).returncode == 0
    return home


def test_disc_full_while_committing_stops_with_one_line_and_the_next_run_loads(home_with_one_file, tmp_path):
    home = home_with_one_file
    big = _csv(tmp_path / "big.csv", 20_000, first_cpu=100)
    room = Home(home).db_path.stat().st_size + 64 * 1024  # the database may grow by 64 KiB, no more
    run = perfdb(home, "--json", "ingest", str(big), file_size_limit=room)
    assert run.returncode == 1
    line = _one_line(run.stderr)
    assert line.startswith("perfdb ingest: no room to write while committing 1 file(s) (big.csv ...) to the warehouse (")
    assert "File too large" in line and line.endswith("nothing half-written does")
    summary = json.loads(run.stdout)
    assert (summary["command"], summary["ok"], summary["fault"]) == ("ingest", False, "NoRoom")
    # nothing of the file is in the warehouse, not even a manifest row; no staging folder is left beside it
    # (a write-ahead log may be: DuckDB replays what it committed, which is not the failed transaction)
    assert _query(home, "select file_name, status from raw.ingest_files") == [("small.csv", "loaded")]
    assert _query(home, "select count(*) from raw.measure_cpu") == [(1,)]
    assert {p.name for p in Home(home).warehouse_dir.iterdir()} <= {"perfdb.duckdb", "perfdb.duckdb.wal", "perfdb.lock"}
    # with room again, the same file loads whole
    assert perfdb(home, "ingest", str(big)).returncode == 0
    assert _query(home, "select count(*) from raw.measure_cpu where cpu_num >= 100") == [(20_000,)]


def test_disc_full_while_publishing_keeps_the_published_copy(home_with_one_file, tmp_path):
    home = home_with_one_file
    assert perfdb(home, "publish").returncode == 0
    serving = Home(home).serving_path
    before = serving.read_bytes()
    assert perfdb(home, "ingest", str(_csv(tmp_path / "more.csv", 10_000, first_cpu=100))).returncode == 0
    run = perfdb(home, "--json", "publish", file_size_limit=len(before) // 2)
    assert run.returncode == 1
    line = _one_line(run.stderr)
    assert line.startswith(f"perfdb publish: no room to write while publishing {serving} (")
    assert json.loads(run.stdout)["fault"] == "NoRoom"
    assert serving.read_bytes() == before
    assert not serving.with_name("serving.duckdb.new").exists()


def test_second_writer_is_told_who_writes_and_a_killed_writers_leftovers_are_removed(tmp_path):
    """The first ``perfdb ingest`` is held on a FIFO (``held_on_a_fifo``)."""
    home = tmp_path / "home"
    with held_on_a_fifo(home, tmp_path / "incoming.csv") as first:
        good = _csv(tmp_path / "good.csv", 3)
        run = perfdb(home, "--json", "ingest", str(good))
        assert run.returncode == 1
        line = _one_line(run.stderr)
        assert line.startswith(f"perfdb ingest: another perfdb process (pid {first.pid}, `perfdb ingest`, since ")
        assert line.endswith(f"is writing to {home}: wait for it to finish, or stop it")
        assert json.loads(run.stdout)["fault"] == "WriterBusy"
        staging = [p.name for p in Home(home).warehouse_dir.glob("perfdb-ingest-*")]
        assert len(staging) == 1
    # what a publish killed while copying leaves
    Home(home).serving_path.with_name("serving.duckdb.new").write_bytes(b"half a database")

    run = perfdb(home, "ingest", str(good))
    assert run.returncode == 0, run.stderr
    note = run.stderr.splitlines()[0]
    assert note.startswith(f"perfdb ingest: took over the writer lock of pid {first.pid}, `perfdb ingest`, since ")
    assert note.endswith(f"which ended without releasing it; removed what it left: {staging[0]}, serving.duckdb.new")
    assert sorted(p.name for p in Home(home).warehouse_dir.iterdir()) == ["perfdb.duckdb", "perfdb.lock"]
    assert (Home(home).warehouse_dir / "perfdb.lock").read_text() == ""  # released at the end
    assert _query(home, "select file_name, status from raw.ingest_files") == [("good.csv", "loaded")]


HOLD_DATABASE = textwrap.dedent("""
    import sys, duckdb
    con = duckdb.connect(sys.argv[1])
    print("open", flush=True)
    sys.stdin.read()
""")


def test_a_process_outside_perfdb_holding_the_database_is_named(home_with_one_file, tmp_path):
    """A dbt that outlived its perfdb holds DuckDB's lock, not perfdb's: the message names its pid."""
    home = home_with_one_file
    holder = subprocess.Popen([sys.executable, "-c", HOLD_DATABASE, str(Home(home).db_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        run = perfdb(home, "--json", "ingest", str(_csv(tmp_path / "more.csv", 2, first_cpu=20)))
        assert run.returncode == 1
        line = _one_line(run.stderr)
        assert line.startswith(f"perfdb ingest: another process (pid {holder.pid}, ")
        assert line.endswith(f"has {Home(home).db_path} open for writing: wait for it to finish, or stop it "
                             f"(`kill {holder.pid}`)")
        assert json.loads(run.stdout)["fault"] == "WriterBusy"
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert perfdb(home, "ingest", str(tmp_path / "more.csv")).returncode == 0
