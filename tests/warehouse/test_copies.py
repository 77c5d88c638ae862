"""Copies of the same measurements in two files, and idle captures that are byte for byte the same.

* Two sites export the same MEASURE CPU day, one with another busy value for one processor-minute: the
  later file's conflict is reported at ingest naming both files, counted in ``raw.key_conflicts`` and the
  Data health mart, ``perfdb check`` fails, the marts use the copy loaded first; after ``perfdb remove`` of
  that copy the check passes and the marts show the kept copy's value. The same day exported again with
  CRLF line endings is a duplicate (the parsed values alike), not a conflict, and changes no figure.
* An idle host's ``netstat -s`` captures, their time only in their names, print the same bytes: each loads as
  its own snapshot (an interval of 0 segments), and the same file sent again is still "already ingested".
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
from pathlib import Path

import pytest
import read_only_db
from cpu_copies import write_sites

from ingest import cli, dbt_runner
from ingest.formats import capture, registry
from ingest.formats.base import SNIFF_BYTES
from ingest.home import Home
from ingest.warehouse import database, loading
from quality import runner
from quality.suites import by_name

TESTS = Path(__file__).resolve().parents[1]
NETSTAT_S = """Tcp:
    516 active connection openings
    298 passive connection openings
    11 failed connection attempts
    5 connection resets received
    2 connections established
    {segments_in} segments received
    {segments_out} segments sent out
    0 segments retransmitted
    0 bad segments received
    413 resets sent
"""
# a dbt invocation costs tens of seconds on a busy machine: the two cases share a home and its builds, which
# leave the models' data tests to the demo's build
BUILD = ["build", "--select", "+fct_cpu_shift +fct_tcpip_interval rpt_key_conflicts",
         "--exclude-resource-type", "test", "unit_test"]


def _rows(home: Home, sql: str) -> list[tuple]:
    return read_only_db.rows(home.db_path, sql)


def _busy(home: Home) -> list[tuple]:
    return _rows(home, "select cpu_num, busy_pct_avg from marts.fct_cpu_shift order by cpu_num")


def _check_passes(home: Home) -> bool:
    """What a nightly ``perfdb check`` says of the copies (the suite of raw.key_conflicts)."""
    return runner.validate_warehouse(home, [by_name("raw.key_conflicts")], everything=False, docs=False).success


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A home holding, ingested file by file and built once: site A's CPU day, its CRLF export, site B's copy
    of it with one other value; and web01's three name-timed captures, the last two byte for byte the same."""
    home = Home(tmp_path_factory.mktemp("copies") / "home").create()
    site_a, crlf, site_b = write_sites(home.landing)
    web01 = home.landing / "web01"
    web01.mkdir()
    captures = [web01 / f"web01__netstat-s__20260105T10{m}000.txt" for m in (0, 1, 2)]
    texts = [NETSTAT_S.format(segments_in=54_204, segments_out=23_582)] + [
        NETSTAT_S.format(segments_in=54_804, segments_out=23_882)] * 2  # idle from 10:10: the same bytes at 10:20
    for path, text in zip(captures, texts):
        path.write_text(text)

    con = database.connect(home)
    results = {path: result for path in (site_a, crlf, *captures) for result in loading.ingest_files(con, [path])}
    con.close()
    told, summary = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(told), contextlib.redirect_stdout(summary):  # site B's copy as a user ingests it
        results[site_b] = cli.main(["--home", str(home.root), "ingest", str(site_b)]), told.getvalue(), summary.getvalue()
    failed_check = not _check_passes(home)
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0
    return home, (site_a, crlf, site_b), captures, results, failed_check


def test_conflicting_copies_are_reported_counted_and_fail_check_until_one_is_removed(site):
    home, (site_a, crlf, site_b), _, results, failed_check = site
    # the CRLF export: other bytes, the same values: a duplicate of every row, no conflict, a success
    assert [(r.status, r.duplicate_rows, r.conflicting_rows, r.ok) for r in map(results.get, (site_a, crlf))] == [
        ("loaded", 0, 0, True), ("loaded", 4, 0, True)]
    assert results[crlf].copies == [f"{crlf}: 4 rows of raw.measure_cpu (\\PROD1) duplicate {site_a} "
                                    "(same values, or a printed report's rounding of them): counted once"]

    # site B's: one row of four contradicts each earlier copy (the three others duplicate them); told on
    # stderr naming both files and the key, and the ingest fails
    exit_code, stderr, stdout = results[site_b]
    assert exit_code == 1
    assert (f"{site_b}: loaded (measure.csv) records read=4 loaded=4 rejected=0 skipped=0; rows written=4\n" in stderr)
    key = '{"system_name":"\\\\PROD1","cpu_num":"1","from_timestamp":"2026-01-05 10:00:00","to_timestamp":"2026-01-05 10:01:00"}'
    for other in (site_a, crlf):
        assert (f"    {site_b}: 1 rows of raw.measure_cpu (\\PROD1) hold the same measurements as {other} with other "
                f"values (e.g. {key}); the marts use the copy loaded first until `perfdb remove` takes the wrong one "
                "out\n") in stderr, stderr
    assert stdout == ("1 files: 1 loaded, 0 with rejects, 0 rejected, 0 failed, 0 already ingested; 4 rows loaded, "
                      "0 rejected, 0 skipped; 2 rows contradict another file's copy, 6 duplicate one (see raw.key_conflicts)\n")
    assert _rows(home,
        "select others.path, copies.table_name, copies.system_name, cast(copies.first_day as varchar), "
        "copies.duplicate_rows, copies.conflicting_rows from raw.key_conflicts as copies "
        "join raw.ingest_files as others on others.file_id = copies.other_file_id order by copies.file_id, copies.other_file_id"
    ) == [
        (str(site_a), "measure_cpu", "\\PROD1", "2026-01-05", 4, 0),
        (str(site_a), "measure_cpu", "\\PROD1", "2026-01-05", 3, 1),
        (str(crlf), "measure_cpu", "\\PROD1", "2026-01-05", 3, 1),
    ]
    assert failed_check
    # unresolved, the marts use the copy loaded first: site A's 50 % (30 s + 30 s of 120 s), counted once
    assert _busy(home) == [(0, 50.0), (1, 50.0)]
    assert _rows(home, "select path, other_path, copy_kind, duplicate_rows, conflicting_rows from marts.rpt_key_conflicts "
                       "order by file_id, other_file_id") == [
        (str(crlf), str(site_a), "duplicate", 4, 0),
        (str(site_b), str(site_a), "conflict", 3, 1),
        (str(site_b), str(crlf), "conflict", 3, 1),
    ]

    # site B's copy is the right one: the other two go, and their conflicts with it
    con = database.connect(home)
    removed = database.remove_files(con, paths=[site_a, crlf])
    assert con.execute("select count(*) from raw.key_conflicts").fetchone() == (0,)
    con.close()
    assert [(r["path"], r["rows"]) for r in removed] == [(str(site_a), 4), (str(crlf), 4)]
    assert _check_passes(home)
    assert dbt_runner.run_dbt(home, BUILD, quiet=True) == 0
    assert _busy(home) == [(0, 50.0), (1, 62.5)]  # (45 s + 30 s) / 120 s
    assert _rows(home, "select count(*) from marts.rpt_key_conflicts") == [(0,)]


def test_idle_captures_timed_by_their_names_each_load(site):
    home, _, captures, results, _ = site
    assert captures[1].read_bytes() == captures[2].read_bytes()
    assert [(results[path].status, results[path].records_loaded) for path in captures] == [("loaded", 1)] * 3
    # the same file (name and bytes) sent again is still known
    con = database.connect(home)
    [again] = loading.ingest_files(con, [captures[2]])
    assert con.execute("select count(distinct sha256) from raw.ingest_files where file_name like 'web01%'").fetchone() == (3,)
    con.close()
    assert (again.status, again.ok) == ("duplicate", True)
    # each capture its own snapshot: 600 segments in over 10:00-10:10, none over the idle 10:10-10:20
    assert _rows(home,
        "select strftime(interval_start, '%H:%M'), strftime(interval_end, '%H:%M'), segments_in_count, "
        "segments_out_count from marts.fct_tcpip_interval where host = 'web01' order by interval_start"
    ) == [("10:00", "10:10", 600, 300), ("10:10", "10:20", 0, 0)]


# -- identity: what a file's name gives its records ------------------------------------------------------------

def _name_timed_samples() -> list[tuple[str, bytes]]:
    """The first sample input of each format named ``<host>__<command>__<YYYYmmddTHHMMSS>.<ext>``, as it is and,
    when ``# captured:`` lines give its times, without them (its time then comes from the name)."""
    samples, formats = [], set()
    for path in sorted(TESTS.rglob("*")):
        if not path.is_file() or path.suffix == ".json" or capture.FILE_NAME_RE.match(path.name) is None:
            continue
        data = path.read_bytes()
        parser = registry.sniff(data[:SNIFF_BYTES], path.name)
        if parser is None or parser.format in formats:
            continue
        formats.add(parser.format)
        samples.append((path.name, data))
        lines = data.splitlines(keepends=True)
        if any(capture.HEADER_START_B.match(line) for line in lines):
            samples.append((path.name, b"".join(line for line in lines if not capture.HEADER_START_B.match(line))))
    return samples


def _renamed(name: str, days: int) -> str:
    host, _ = capture.file_name_info(name)
    stamp = capture.FILE_NAME_RE.match(name)["ts"]
    later = dt.datetime.strptime(stamp, "%Y%m%dT%H%M%S") + dt.timedelta(days=days)
    return name.replace(f"__{stamp}", f"__{later:%Y%m%dT%H%M%S}")


def _file_rows(con, file_id: int) -> dict[str, list]:
    """Every raw row of a file, less the file id: what its records are."""
    tables = [t for (t,) in con.execute("select table_name from duckdb_columns() where schema_name = 'raw' "
                                        "and column_name = 'source_file_id' order by 1").fetchall()]
    found = {t: con.execute(f'select * exclude (source_file_id) from raw."{t}" where source_file_id = ? order by all',
                            [file_id]).fetchall() for t in tables}
    return {t: rows for t, rows in found.items() if rows}


def test_a_file_whose_records_take_something_from_its_name_is_not_known_by_its_bytes_alone(tmp_path):
    """The same bytes under the same name but a day later: when the records the name gives them differ (an idle
    host's captures, a quiet link's APING run, timed by their names), the later file loads as its own, with
    its own records; when they are the same (the content gives the time, or the records have none), it is
    the same file, already ingested."""
    samples = _name_timed_samples()
    homes = {k: Home(tmp_path / k).create() for k in ("first", "later", "both")}
    cons = {k: database.connect(h) for k, h in homes.items()}
    told = []
    for n, (name, data) in enumerate(samples):
        first, later = tmp_path / "in" / f"{n}" / name, tmp_path / "in" / f"{n}" / _renamed(name, 1)
        first.parent.mkdir(parents=True)
        first.write_bytes(data)
        later.write_bytes(data)
        [alone_first] = loading.ingest_files(cons["first"], [first])
        [alone_later] = loading.ingest_files(cons["later"], [later])
        both = list(loading.ingest_files(cons["both"], [first, later]))
        assert alone_first.status == alone_later.status != "failed", (name, alone_first.error)
        if alone_first.status == "rejected":
            continue
        ids = lambda con, path: [i for (i,) in con.execute(  # noqa: E731
            "select file_id from raw.ingest_files where path = ?", [str(path)]).fetchall()]
        [first_id], [later_id] = ids(cons["first"], first), ids(cons["later"], later)
        differ = _file_rows(cons["first"], first_id) != _file_rows(cons["later"], later_id)
        told.append((name, differ, both[1].status))
        if differ:  # the name gave the records something: the later file is its own, its rows those it alone gets
            assert both[1].status == alone_later.status, (name, both[1].messages)
            [both_id] = ids(cons["both"], later)
            assert _file_rows(cons["both"], both_id) == _file_rows(cons["later"], later_id), name
        else:
            assert both[1].status == "duplicate", (name, both[1].messages)
    for con in cons.values():
        con.close()
    # the rule met both ways: name-timed captures and APING runs load again, listings (no time) do not
    assert {(name.split("__")[1], differ) for name, differ, _ in told} >= {
        ("netstat-s", True), ("aping", True), ("aping", False), ("as400-cl", False)}
