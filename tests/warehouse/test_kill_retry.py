"""kill -9 at 20 points of a nightly run, each followed by a retry: the warehouse ends as a clean run's.

Every kill is a real SIGKILL of a real ``perfdb`` process at a known step (``$PERFDB_KILL_AT``,
``ingest.faults.reached``: the n-th file staged, inside and right after the n-th group's
transaction, the n-th dbt node done, a publish's half-copied slot and half-made link), never after a sleep.
Small files of one-minute CPU records, three to a commit group (``loading._Group.COMMIT_FILES`` set by the
process's wrapper, so that a run of nine files has three groups), each system its own run:

* systems 1-16: ``perfdb ingest`` of its nine files killed at one of 16 points spread over the run (before,
  inside and after each group's commit; the last a retry killed again), then run again: that system's raw
  rows, file days and manifest rows equal the clean run's, and the home holds every file once;
* systems 17 and 18: ingested, then ``perfdb build`` killed with dbt early and late in its nodes, and built
  again: the CPU marts of every system equal the clean run's (the killed builds' days are rebuilt);
* then ``perfdb publish`` killed with its slot half-copied, and (the next publish) with its link half-made,
  and published again: ``serving.duckdb`` answers as the clean run's.

After every retry nothing is left behind: no staging folder, no ``*.duckdb.new``. The clean run is one
``perfdb ingest`` of all 162 files, one build, one publish, in a home of its own. About a minute and a half.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ingest.home import Home
from ingest.warehouse import lock
from ingest.faults import KILL_AT

from test_landing_intake import HEADER, _row, _write

pytestmark = pytest.mark.slow

FILES, GROUP = 9, 3  # files per system's run, files per commit group: three groups a run
MODELS = "+fct_cpu_shift"  # the CPU marts and what they read: int_cpu__hourly, its intervals, staging
INGEST_KILLS = [  # (point, passage) of each ingest run, in the order of a run's steps
    ("staged", 1), ("staged", 2), ("staged", 3), ("commit", 1), ("committed", 1), ("staged", 4), ("staged", 5),
    ("staged", 6), ("commit", 2), ("committed", 2), ("staged", 7), ("staged", 8), ("staged", 9), ("commit", 3),
    ("committed", 3),
]
RETRY_KILLED_AGAIN = ("staged", 2)  # the 16th ingest: its retry is killed as well, then run a third time
BUILD_KILLS = [("dbt_node", 20), ("dbt_node", 60)]  # of the build's ~85 nodes, hooks and data tests
SYSTEMS = [f"KILL{n:02d}" for n in range(1, len(INGEST_KILLS) + 2 + len(BUILD_KILLS))]
# perfdb with groups of GROUP files: the subprocess a user runs, the group size set before the command
PERFDB = [sys.executable, "-c",
          f"import sys; from ingest.warehouse import loading; loading._Group.COMMIT_FILES = {GROUP}; "
          "from ingest.cli import main; sys.exit(main())"]


def _busy(system: int, k: int, minute: int) -> int:
    return 1_000_000 * ((7 * k + 3 * minute + system) % 50 + 1)


def _files(landing: Path, n: int) -> list[Path]:
    """System n's nine files, five CPU minutes of 10:00-10:45 each."""
    return [_write(landing / SYSTEMS[n] / f"{k}.csv", HEADER + "".join(
        _row(SYSTEMS[n], 10, _busy(n, k, minute), minute=5 * k + minute) for minute in range(5))) for k in range(FILES)]


def perfdb(home: Path, *args: str, kill_at: tuple[str, int] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != KILL_AT}
    if kill_at is not None:
        env[KILL_AT] = f"{kill_at[0]}:{kill_at[1]}"
    return subprocess.run([*PERFDB, "--home", str(home), *args], capture_output=True, text=True, env=env, timeout=600)


def killed(home: Path, *args: str, at: tuple[str, int]) -> None:
    run = perfdb(home, *args, kill_at=at)
    assert run.returncode == -9, (at, run.returncode, run.stderr[-2000:])


def dbt_ended(home: Home) -> None:
    """Wait for the dbt of a killed ``perfdb build`` to end (SIGKILL when perfdb dies, ``_die_with_parent``; it
    runs in the warehouse folder): until then it holds DuckDB's lock, and the retry would find it writing."""
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            if os.readlink(f"/proc/{pid}/cwd") != str(home.warehouse_dir):
                continue
            ended = os.pidfd_open(pid)
        except OSError:  # ended already, or not ours to look at
            continue
        try:
            assert select.select([ended], [], [], 60)[0], f"dbt (pid {pid}) outlived its killed perfdb"
        finally:
            os.close(ended)


def succeeds(home: Path, *args: str) -> subprocess.CompletedProcess:
    run = perfdb(home, *args)
    assert run.returncode == 0, (args, run.stderr[-3000:])
    return run


def _rows(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def raw_state(db: Path, systems: list[str]) -> dict[str, list[tuple]]:
    """What ingest wrote for ``systems``: the CPU rows (counts and key sums), the files' days and manifest rows
    (by path, not file id), their rejects and copies."""
    names = ["\\" + s for s in systems]
    return {
        "cpu": _rows(db, "select system_name, count(*), count(distinct (cpu_num, from_timestamp)), sum(cpu_busy_time), "
                         "sum(epoch_us(from_timestamp)), sum(record_ordinal) from raw.measure_cpu "
                         "where system_name in (select unnest(?)) group by 1 order by 1", [names]),
        "days": _rows(db, "select files.path, days.system_name, days.day from raw.ingest_file_days as days "
                          "join raw.ingest_files as files on files.file_id = days.source_file_id "
                          "where days.system_name in (select unnest(?)) order by all", [names]),
        "manifest": _rows(db, "select path, sha256, status, records_read, records_loaded, rows_loaded, rows_rejected "
                              "from raw.ingest_files where split_part(path, '/', -2) in (select unnest(?)) order by path",
                          [systems]),
        "rejects and copies": _rows(db, "select (select count(*) from raw.rejects), (select count(*) from raw.key_conflicts)"),
    }


def marts_state(db: Path, systems: list[str]) -> dict[str, list[tuple]]:
    names = ["\\" + s for s in systems]
    return {
        "hourly": _rows(db, "select system_name, cpu_num, hour_start, busy_pct from intermediate.int_cpu__hourly "
                            "where system_name in (select unnest(?)) order by all", [names]),
        "shift": _rows(db, "select * from marts.fct_cpu_shift where system_name in (select unnest(?)) order by all",
                       [names]),
    }


def whole(db: Path) -> list[tuple]:
    """Every raw and manifest table's row count: nothing of another system, nothing twice."""
    tables = _rows(db, "select table_name from duckdb_tables() where schema_name = 'raw' order by 1")
    return [(t, _rows(db, f'select count(*) from raw."{t}"')[0][0]) for (t,) in tables]


def left_behind(home: Home) -> list[str]:
    return sorted(p.name for p in home.warehouse_dir.iterdir()
                  if p.name.startswith(lock.STAGING_PREFIX) or p.name.endswith(lock.HALF_MADE))


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[Home, Path]:
    """One ingest of every system's files, one build, one publish."""
    root = tmp_path_factory.mktemp("kill_retry")
    landing = root / "landing"
    files = [path for n in range(len(SYSTEMS)) for path in _files(landing, n)]
    home = Home(root / "clean")
    run = succeeds(home.root, "--json", "ingest", str(landing))
    assert run.stdout.count('"status": "loaded"') == len(files) == 162
    succeeds(home.root, "build", "--select", MODELS)
    succeeds(home.root, "publish")
    return home, landing


def test_twenty_kills_each_followed_by_a_retry_end_as_the_clean_run(clean):
    reference, landing = clean
    home = Home(reference.root.with_name("killed"))
    ingested: list[str] = []
    expected_rows = raw_state(reference.db_path, SYSTEMS)["cpu"]
    for n, point in enumerate([*INGEST_KILLS, RETRY_KILLED_AGAIN]):
        folder = str(landing / SYSTEMS[n])
        killed(home.root, "ingest", folder, at=point)
        if point == RETRY_KILLED_AGAIN:
            killed(home.root, "ingest", folder, at=point)
        retry = succeeds(home.root, "ingest", folder)
        assert retry.stderr.startswith("perfdb ingest: took over the writer lock of pid "), retry.stderr
        ingested.append(SYSTEMS[n])
        assert (point, raw_state(home.db_path, ingested)) == (point, raw_state(reference.db_path, ingested))
        assert _rows(home.db_path, "select count(*), count(distinct sha256) from raw.ingest_files") == [
            (FILES * len(ingested),) * 2]
        assert left_behind(home) == [], point
    assert len(ingested) == 16 and raw_state(home.db_path, ingested)["cpu"] == expected_rows[:16]

    for point in BUILD_KILLS:  # a new system's files, then a build killed with dbt part way
        n = len(ingested)
        succeeds(home.root, "ingest", str(landing / SYSTEMS[n]))
        ingested.append(SYSTEMS[n])
        killed(home.root, "build", "--select", MODELS, at=point)
        dbt_ended(home)
        succeeds(home.root, "build", "--select", MODELS)
        assert (point, marts_state(home.db_path, ingested)) == (point, marts_state(reference.db_path, ingested))
        assert left_behind(home) == [], point
    assert ingested == SYSTEMS
    assert raw_state(home.db_path, SYSTEMS) == raw_state(reference.db_path, SYSTEMS)
    assert whole(home.db_path) == whole(reference.db_path)

    # the first publish killed with its slot half-copied, the second with the link to its slot half-made
    for point, half_made in [(("publish_copy", 1), "serving-a.duckdb.new"), (("publish_link", 1), "serving.duckdb.new")]:
        killed(home.root, "publish", at=point)
        assert left_behind(home) == [half_made], point
        succeeds(home.root, "publish")
        assert left_behind(home) == [], point
        assert marts_state(home.serving_path, SYSTEMS) == marts_state(reference.serving_path, SYSTEMS)
        assert raw_state(home.serving_path, SYSTEMS) == raw_state(reference.serving_path, SYSTEMS)
    assert os.readlink(home.serving_path) == "serving-b.duckdb"  # the second publish took the other slot
