"""The intake under the accidents of a landing folder (issue 26, "nothing silently wrong"), each on its own
system in one home, then one dbt build whose hourly CPU rates every case asserts:

* 6. a day folder linked into the landing folder is read; a link back into a folder above it (a loop) and a
  link that leads nowhere are reported; a file renamed while ``ingest DIR`` runs is reported, the others load,
  and it loads under its new name at the next ingest;

Every change of a file while it is read is injected into the loader's own reading (no sleeps).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from ingest import dbt_runner, pipeline
from ingest.home import Home
from ingest.warehouse import loading

from read_only_db import read_only

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
    read = loading.sha256_of

    def rename_second_while_reading_first(path: Path):
        if path == first:
            second.rename(second.with_name("b2.csv"))
        return read(path)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loading, "sha256_of", rename_second_while_reading_first)
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


# -- the one build -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(home, links):
    assert dbt_runner.build(home, select=MODELS, quiet=True) == 0, "dbt build failed (see stderr)"
    yield from read_only(home.db_path)


def _hourly(con, system: str) -> list[tuple[int, float]]:
    """The hourly mart's CPU busy % of ``system``'s processor 0, by hour of 2026-01-05."""
    return [(hour.hour, round(pct, 6)) for hour, pct in con.execute(
        "select hour_start, busy_pct from intermediate.int_cpu__hourly where system_name = ? and cpu_num = 0 "
        "and cast(hour_start as date) = ? order by 1", ["\\" + system, dt.date(2026, 1, 5)]).fetchall()]
