"""The intake under the accidents of a landing folder (issue 26, "nothing silently wrong"), each on its own
system in one home, then one dbt build whose hourly CPU rates every case asserts:

* 6. a day folder linked into the landing folder is read; a link back into a folder above it (a loop) and a
  link that leads nowhere are reported; a file renamed while ``ingest DIR`` runs is reported, the others load,
  and it loads under its new name at the next ingest;
* 1. a file that grows while it is read is refused as still being written (the others load) and loads whole at
  the next ingest; a capture read while it was still being written, then complete under the same path: the
  complete one replaces the earlier, shorter copy (whose bytes are all at its start), so the marts use it;
* 8. what a killed publish left (a half-copied slot, a half-made link) is removed by the next writing command;
  no room while staging (a copy without a byte order mark) or while building is one line, not a traceback,
  and the next run loads (the file size limit stands for a full disc, as in test_faults);
* 7. an ingest killed part way keeps the groups of files it committed (``_Group.COMMIT_FILES`` each); its retry
  loads only the rest.

Every change of a file while it is read is injected into the loader's own reading (no sleeps).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import pytest

from ingest import dbt_runner, pipeline
from ingest.home import Home
from ingest.intake import identity, listing
from ingest.warehouse import loading

from read_only_db import read_only
from test_faults import _one_line, held_on_a_fifo, perfdb

HEADER = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps\n"
MODELS = "+int_cpu__hourly"


def _row(system: str, hour: int, busy_us: int, minute: int = 0) -> str:
    """One CPU minute of ``system`` on 2026-01-05, ``busy_us`` of its 60,000,000 us busy."""
    start = f"2026-01-05 {hour:02d}:{minute:02d}:00"
    end = f"2026-01-05 {hour:02d}:{minute + 1:02d}:00"
    return f"\\{system},0,DT00510,{start},{end},60000000,0,{busy_us},200000,3\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _told(results, root: Path) -> list[tuple[str, str, str | None]]:
    return [(str(r.path.relative_to(root)), r.status, r.error) for r in results]


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Home:
    return Home(tmp_path_factory.mktemp("landing_intake") / "home").create()


# -- 6. landing folders ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def links(home, tmp_path_factory) -> dict:
    """landing/ with a day folder linked from another disc, a loop, a dangling link, and a folder of two
    files the second of which is renamed while the first is read (as a copy tool that writes under a
    temporary name and renames would)."""
    outside = tmp_path_factory.mktemp("other_disc")
    root = home.root / "landing6"
    _write(outside / "2026-01-05" / "cpu.csv", HEADER + _row("LINKS", 10, 1_500_000))
    root.mkdir()
    (root / "2026-01-05").symlink_to(outside / "2026-01-05", target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)
    (root / "gone.csv").symlink_to(outside / "never_written.csv")
    first = _write(root / "day6" / "a.csv", HEADER + _row("LINKS", 11, 3_000_000))
    second = _write(root / "day6" / "b.csv", HEADER + _row("LINKS", 12, 4_500_000))
    read = identity.sha256_of

    def rename_second_while_reading_first(path: Path):
        if path == first:
            second.rename(second.with_name("b2.csv"))
        return read(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(identity, "sha256_of", rename_second_while_reading_first)
        during = pipeline.ingest_paths(home, [root])
    after = pipeline.ingest_paths(home, [root])
    return {"root": root, "outside": outside, "during": during, "after": after}


def test_linked_day_folders_are_read_and_loops_dangling_links_and_vanished_files_reported(links, built):
    root, outside = links["root"], links["outside"]
    assert _told(links["during"], root) == [
        ("2026-01-05/cpu.csv", "loaded", None),
        ("day6/a.csv", "loaded", None),
        ("day6/b.csv", "failed", "vanished (renamed or removed) after it was listed: not loaded"),
        ("gone.csv", "failed", f"a symbolic link to {outside / 'never_written.csv'}, which does not exist: not loaded"),
        ("loop", "failed", f"a symbolic link to {root.resolve()}, a folder that holds it (a loop): not followed"),
    ]
    # the next run: the renamed file loads, the others are known; the links are still told
    assert [(name, status) for name, status, _ in _told(links["after"], root)] == [
        ("2026-01-05/cpu.csv", "duplicate"), ("day6/a.csv", "duplicate"), ("day6/b2.csv", "loaded"),
        ("gone.csv", "failed"), ("loop", "failed")]
    # nothing of a failed path is in the manifest (there were no bytes to record)
    assert built.execute("select file_name from raw.ingest_files where path like '%landing6%' order by 1").fetchall() == [
        ("a.csv",), ("b2.csv",), ("cpu.csv",)]
    assert _hourly(built, "LINKS") == [(10, 2.5), (11, 5.0), (12, 7.5)]


def test_the_spark_intake_lists_and_tells_links_alike(tmp_path):
    """The lake's tasks read what the one listing lists (``listing.iter_input_files``) and tell a path that
    cannot be read as the DuckDB path does, before claiming anything (no Spark needed for that)."""
    from ingest.lake.job import load_file
    from ingest.lake.layout import Lake

    landing = tmp_path / "landing"
    _write(landing / "cpu.csv", HEADER + _row("LAKE", 10, 1_500_000))
    (landing / "gone.csv").symlink_to(tmp_path / "nowhere.csv")
    (landing / "loop").symlink_to(landing, target_is_directory=True)
    listed = listing.iter_input_files([landing])
    assert [p.name for p in listed] == ["cpu.csv", "gone.csv", "loop"]
    lake = Lake(tmp_path / "lake")
    told = [load_file(lake, path, tmp_path, k, None, {}) for k, path in enumerate(listed[1:])]
    assert [(r.status, r.error) for r in told] == [
        ("failed", f"a symbolic link to {tmp_path / 'nowhere.csv'}, which does not exist: not loaded"),
        ("failed", f"a symbolic link to {landing.resolve()}, a folder that holds it (a loop): not followed")]
    assert not lake.claims_dir.exists()


# -- 1. complete files -------------------------------------------------------------------------------------

GROWN_HEADER = HEADER.replace(",delta-time", "").rstrip("\n") + ",delta-time\n"  # the interval's length last


def _grown_row(minute: int, busy_us: int) -> str:
    """A minute of hour 13 of \\GROWN with the interval's length (delta-time) as the last field."""
    fields = _row("GROWN", 13, busy_us, minute).rstrip("\n").split(",")
    return ",".join(fields + [fields.pop(5)]) + "\n"


@pytest.fixture(scope="module")
def grown(home) -> dict:
    """A file that grows while the loader reads it (a line appended once it was hashed) beside a steady one;
    then a capture copied while it was still being written: cut inside its last line's delta-time (6,000,000
    of 60,000,000 us: one minute's rate 10 times too high), then the complete capture under the same path."""
    root = home.root / "landing1"
    growing = _write(root / "growing.csv", HEADER + _row("GROWN", 14, 1_500_000))
    _write(root / "steady.csv", HEADER + _row("GROWN", 15, 6_000_000))
    read = identity.sha256_of

    def append_while_reading(path: Path):
        found = read(path)
        if path == growing:
            with growing.open("a") as f:
                f.write(_row("GROWN", 14, 3_000_000, minute=1))
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(identity, "sha256_of", append_while_reading)
        during = pipeline.ingest_paths(home, [root])
    after = pipeline.ingest_paths(home, [root])

    complete = GROWN_HEADER + "".join(_grown_row(m, busy) for m, busy in [(0, 1_500_000), (1, 3_000_000), (2, 4_500_000)])
    capture = home.root / "landing1b" / "cpu.csv"
    _write(capture, complete[:-2])  # "...,6000000": the last line cut short
    truncated = pipeline.ingest_paths(home, [capture])
    _write(capture, complete)
    replaced = pipeline.ingest_paths(home, [capture])
    return {"during": during, "after": after, "truncated": truncated, "replaced": replaced}


def test_a_file_still_being_written_is_refused_and_a_later_longer_copy_replaces_the_earlier(grown, built):
    line = len(_row("GROWN", 14, 1_500_000))
    assert [(r.path.name, r.status, r.error) for r in grown["during"]] == [
        ("growing.csv", "failed", f"still being written (it changed while it was read: {len(HEADER) + line} bytes, "
                                  f"then {len(HEADER) + 2 * line}): not loaded; ingest it again once it is complete"),
        ("steady.csv", "loaded", None)]
    assert [(r.path.name, r.status, r.records_loaded) for r in grown["after"]] == [
        ("growing.csv", "loaded", 2), ("steady.csv", "duplicate", 0)]
    # the capture cut short loaded its three minutes, the last with a 6 s interval; the complete one replaced it
    [truncated], [replaced] = grown["truncated"], grown["replaced"]
    assert (truncated.status, truncated.records_loaded) == ("loaded", 3)
    assert (replaced.status, replaced.records_loaded) == ("loaded", 3)
    [message] = replaced.messages
    old_id = int(message.split("loaded as file ")[1].split(" ")[0])
    assert message == f"{replaced.path}: replaces the earlier, shorter copy of it loaded as file {old_id} (its rows are taken out)"
    assert built.execute("select count(*) from raw.measure_cpu where source_file_id = ?", [old_id]).fetchall() == [(0,)]
    assert built.execute("select system_name, day from raw.removed_file_days where source_file_id = ?",
                         [old_id]).fetchall() == [("\\GROWN", dt.date(2026, 1, 5))]  # the next build rebuilds it
    assert built.execute("select file_name, status, rows_loaded from raw.ingest_files where path like '%landing1%' "
                         "order by file_id").fetchall() == [
        ("steady.csv", "loaded", 1), ("growing.csv", "loaded", 2), ("cpu.csv", "loaded", 3)]
    # hour 13: (1.5 + 3 + 4.5) s busy of 180 s, not the cut capture's 4.5 s of 6 s counted in as well
    assert _hourly(built, "GROWN") == [(13, 5.0), (14, 3.75), (15, 10.0)]


# -- 8. leftovers and no room --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def full(home) -> dict:
    """Run before the build. A killed publish's leftovers beside the database, then an ingest; a file with a
    byte order mark ingested with less room than its copy needs, then with room."""
    warehouse = home.warehouse_dir
    (warehouse / "serving-b.duckdb.new").write_bytes(b"half a database")
    (warehouse / "serving.duckdb.new").symlink_to("serving-b.duckdb")  # the link, never renamed into place
    cleaned = perfdb(home.root, "ingest", str(_write(home.root / "landing8" / "cpu.csv", HEADER + _row("FULL", 16, 3_000_000))))
    left = sorted(p.name for p in warehouse.iterdir())
    bom = _write(home.root / "landing8" / "bom" / "cpu.csv", "\ufeff" + HEADER + _row("FULL", 17, 1_500_000)
                 + "".join(_row("FULL", 17, 1_500_000, minute=1).replace(",0,", f",{cpu},", 1) for cpu in range(1, 2000)))
    no_room = perfdb(home.root, "--json", "ingest", str(bom), file_size_limit=64 * 1024)
    staging_left = sorted(p.name for p in warehouse.glob("perfdb-ingest-*"))
    with_room = pipeline.ingest_paths(home, [bom])
    return {"cleaned": cleaned, "left": left, "no_room": no_room, "staging_left": staging_left, "with_room": with_room,
            "bom": bom}


def test_leftovers_are_removed_by_the_next_command_and_no_room_is_one_line(full, built):
    assert full["cleaned"].returncode == 0, full["cleaned"].stderr
    assert "serving" not in " ".join(full["left"])
    bom, run = full["bom"], full["no_room"]
    assert run.returncode == 1
    assert _one_line(run.stderr) == (
        f"perfdb ingest: no room to write while staging {bom} (OSError: [Errno 27] File too large): free space on the "
        "disc (or raise the file size limit) and run the command again; what was committed before stays, nothing "
        "half-written does")
    assert json.loads(run.stdout)["fault"] == "NoRoom"
    assert full["staging_left"] == []
    assert [(r.status, r.records_loaded) for r in full["with_room"]] == [("loaded", 2000)]
    assert built.execute("select count(*) from raw.ingest_files where path = ?", [str(bom)]).fetchall() == [(1,)]
    # the build with no room stopped with one line; the marts are those of the build before it
    build = full["build"]
    assert build.returncode == 1
    assert _one_line(build.stderr).startswith("perfdb build: no room to write while ")
    assert _hourly(built, "FULL") == [(16, 5.0), (17, 2.5)]


# -- 7. commit groups ----------------------------------------------------------------------------------------

KILLED_FILES = 2 * loading._Group.COMMIT_FILES + 2


def _killed_busy(k: int) -> int:
    return 600_000 * (k % 7 + 1)


@pytest.fixture(scope="module")
def killed(home) -> dict:
    """``perfdb ingest`` of KILLED_FILES one-minute files of \\KILLED (50 minutes an hour from 00:00), then a
    FIFO it waits on (``held_on_a_fifo``): killed there with SIGKILL, after two groups were committed and with
    two files parsed but not committed; then the same command again, without the FIFO."""
    root = home.root / "landing7"
    files = [str(_write(root / f"{k:03d}.csv", HEADER + _row("KILLED", k // 50, _killed_busy(k), minute=k % 50)))
             for k in range(KILLED_FILES)]
    with held_on_a_fifo(home.root, root / "zz-incoming.csv", *files):
        pass
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        kept = con.execute("select count(*) from raw.ingest_files where path like '%landing7%'").fetchone()[0]
    retry = perfdb(home.root, "--json", "ingest", *files)
    return {"kept": kept, "retry": retry}


def test_a_killed_ingest_keeps_its_committed_groups_and_the_retry_loads_the_rest(killed, built):
    assert killed["kept"] == 2 * loading._Group.COMMIT_FILES
    retry = killed["retry"]
    assert retry.returncode == 0, retry.stderr
    summary = json.loads(retry.stdout)
    assert (summary["files"], summary["duplicates"], summary["loaded"]) == (KILLED_FILES, 2 * loading._Group.COMMIT_FILES, 2)
    assert retry.stderr.startswith("perfdb ingest: took over the writer lock of pid ")
    assert built.execute("select count(*), count(distinct sha256) from raw.ingest_files where path like '%landing7%'"
                         ).fetchall() == [(KILLED_FILES, KILLED_FILES)]
    # each hour: the busy of its minutes over their seconds, every file once
    expected = [(hour, round(sum(_killed_busy(k) for k in range(KILLED_FILES) if k // 50 == hour)
                             / (60_000_000 * sum(k // 50 == hour for k in range(KILLED_FILES))) * 100, 6))
                for hour in sorted({k // 50 for k in range(KILLED_FILES)})]
    assert _hourly(built, "KILLED") == expected


# -- the one build -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(home, links, grown, full, killed):
    assert dbt_runner.build(home, select=MODELS, quiet=True) == 0, "dbt build failed (see stderr)"
    # then once more with no room for dbt's output (case 8): the warehouse stays as the first build left it
    full["build"] = perfdb(home.root, "build", "--select", MODELS, file_size_limit=4096)
    yield from read_only(home.db_path)


def _hourly(con, system: str) -> list[tuple[int, float]]:
    """The hourly mart's CPU busy % of ``system``'s processor 0, by hour of 2026-01-05."""
    return [(hour.hour, round(pct, 6)) for hour, pct in con.execute(
        "select hour_start, busy_pct from intermediate.int_cpu__hourly where system_name = ? and cpu_num = 0 "
        "and cast(hour_start as date) = ? order by 1", ["\\" + system, dt.date(2026, 1, 5)]).fetchall()]
