"""Input that used to load with exit 0 and make the marts wrong without a word: now loaded right, or refused
with the file and the position named.

* schema drift: a MEASURE CSV whose required counter was renamed is refused naming it; ``perfdb check`` fails
  a system-day whose required counters are NULL in every record (a MEASCOM report without the item);
* intervals: an interval of a processor that starts before the one before it ended loads, and ``perfdb check``
  names it by file and record (its shared seconds would count twice); a copy of the same interval does not;
* values: counters that fit BIGINT but no interval accumulates, a negative interval, a 1e29 double and a
  control character in a label are rejects with their lines, counted by rule in the manifest; a CSV line of
  8 MB is stepped past (its 192 good records load); a MEASCOM identification line misplaced among the counter
  lines rejects its block at that line instead of failing the file with an ArrowTypeError.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from ingest.formats.measure.csv_records import LINE_LIMIT
from ingest.home import Home
from ingest.warehouse import database, loading
from quality import runner
from quality.suites import by_name

MEASCOM = Path(__file__).parents[1] / "fixtures" / "measure" / "meascom"
HEADER = "system-name,cpu-num,loadid,from-timestamp,to-timestamp,delta-time,error,cpu-busy-time,cpu-qtime,swaps,site-temp\n"


def _row(cpu: int, *, busy="1500000", delta="60000000", loadid="DT00510", temp="21.5") -> str:
    return f"\\TAHITI,{cpu},{loadid},2026-01-05 10:00:00,2026-01-05 10:01:00,{delta},0,{busy},200000,3,{temp}\n"


def _warehouse(tmp_path: Path) -> tuple[Home, duckdb.DuckDBPyConnection]:
    home = Home(tmp_path / "home").create()
    return home, database.connect(home)


def _rejects(con, file_id: int) -> list[tuple]:
    return con.execute("select line_number, reason from raw.rejects where file_id = ? order by line_number",
                       [file_id]).fetchall()


def _manifest(con, path: Path) -> tuple:
    return con.execute("select file_id, status, records_read, records_loaded, rows_rejected, rejects_by_rule "
                       "from raw.ingest_files where file_name = ?", [path.name]).fetchone()


# -- 2. schema drift ---------------------------------------------------------------------------------------

def test_a_csv_whose_required_counter_was_renamed_is_refused_naming_it(tmp_path):
    home, con = _warehouse(tmp_path)
    drifted = home.landing / "cpu.csv"
    drifted.write_text(HEADER.replace("cpu-busy-time", "cpu-busy-tyme") + _row(0) + _row(1))
    result = loading.ingest_file(con, drifted)
    assert (result.status, result.rows_loaded) == ("rejected", 0)
    file_id, status, read, loaded, rejected, rules = _manifest(con, drifted)
    assert (status, read, loaded, rejected, json.loads(rules)) == ("rejected", 1, 0, 1, {"unreadable": 1})
    [(line, reason)] = _rejects(con, file_id)
    assert line == 1 and reason.startswith("header lacks cpu-busy-time: a CPU record needs them")
    assert con.execute("select count(*) from raw.measure_cpu").fetchone() == (0,)
    # an extra column is still welcome: with the counter under its name the same rows load, site-temp kept
    fine = home.landing / "cpu_fine.csv"
    fine.write_text(HEADER + _row(0) + _row(1))
    assert loading.ingest_file(con, fine).status == "loaded"
    assert con.execute("select cpu_num, cpu_busy_time, site_temp from raw.measure_cpu order by 1").fetchall() == [
        (0, 1_500_000, 21.5), (1, 1_500_000, 21.5)]
    con.close()


def test_check_fails_a_system_day_whose_required_counters_are_all_null(tmp_path):
    """Two MEASCOM reports of one processor on two days; the second day's lacks the Cpu-Busy-Time line (as a
    form without the item would): it loads (the form allows a missing item), and the check names that day."""
    home, con = _warehouse(tmp_path)
    text = (MEASCOM / "cpu_rate_on.txt").read_text()
    (home.landing / "day1.txt").write_text(text)
    day2 = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("Cpu-Busy-Time"))
    (home.landing / "day2.txt").write_text(day2.replace("7 Feb 1997", "8 Feb 1997"))
    results = list(loading.ingest_files(con, [home.landing / "day1.txt", home.landing / "day2.txt"]))
    assert [r.status for r in results] == ["loaded", "loaded"]
    assert con.execute("select cast(from_timestamp as date), cpu_busy_time from raw.measure_cpu order by 1").fetchall() == [
        (__import__("datetime").date(1997, 2, 7), 1_530_360), (__import__("datetime").date(1997, 2, 8), None)]
    con.close()
    suite = by_name("raw.measure_cpu.required")
    for everything in (True, False):  # the first check validates everything; the slice is the same here
        report = runner.validate_warehouse(home, [suite], docs=False, store=False, everything=everything)
        assert not report.success
        [failure] = report.failures
        assert (failure.check, failure.unexpected_count, failure.element_count) == ("cpu_busy_time_present", 1, 2)
        assert [(e["system_name"], str(e["day"])[:10], e["records"]) for e in failure.examples] == [
            ("\\TAHITI", "1997-02-08", 1)]
        assert report.rows_read[suite.name] == 2


# -- 4. intervals that overlap ----------------------------------------------------------------------------

def _minute_rows(*spans: tuple[str, str], busy="30000000") -> str:
    """Processor 0 of \\TAHITI over each (start, end) of 2026-01-05, 15 minutes long."""
    return "".join(f"\\TAHITI,0,DT00510,2026-01-05 {start}:00,2026-01-05 {end}:00,900000000,0,{busy},200000,3,21.5\n"
                   for start, end in spans)


def test_check_fails_an_interval_that_overlaps_the_one_before_it_and_not_a_copy(tmp_path):
    """MEASURE intervals carry their own deltas, so nothing is differenced; but an interval of a processor that
    starts before the one before it ended (10:10-10:25 after 10:00-10:15) would count its 5 shared minutes
    twice in the hour. It loads (each record is plausible on its own) and ``perfdb check`` names it by file
    and record; the same intervals exported again (CRLF line ends: a copy, raw.key_conflicts' duplicate) and
    intervals that only touch are no overlap."""
    home, con = _warehouse(tmp_path)
    clean = home.landing / "clean.csv"
    clean.write_text(HEADER + _minute_rows(("10:00", "10:15"), ("10:15", "10:30")))
    again = home.landing / "again.csv"
    again.write_bytes(clean.read_bytes().replace(b"\n", b"\r\n"))
    overlapping = home.landing / "overlapping.csv"
    overlapping.write_text(HEADER + _minute_rows(("10:30", "10:45"), ("10:40", "10:55"), ("10:55", "11:10")))
    suite = by_name("raw.measure_cpu")

    def failures() -> list[tuple]:
        report = runner.validate_warehouse(home, [suite], docs=False, store=False)
        return [(f.check, f.unexpected_count, [(e["source_file"], e["record_ordinal"]) for e in f.examples])
                for f in report.failures]

    assert [r.status for r in loading.ingest_files(con, [clean, again])] == ["loaded", "loaded"]
    con.close()
    assert failures() == []
    con = database.connect(home)
    assert loading.ingest_file(con, overlapping).status == "loaded"
    con.close()
    assert failures() == [("no_overlap_with_the_interval_before", 1, [("overlapping.csv", 1)])]


# -- 9. values ---------------------------------------------------------------------------------------------

def test_implausible_values_are_rejects_by_rule_with_their_lines(tmp_path):
    home, con = _warehouse(tmp_path)
    path = home.landing / "cpu.csv"
    path.write_text(
        HEADER
        + _row(0)                                           # line 2: good
        + _row(1, busy="9000000000000000000")               # line 3: fits BIGINT, not 60 s of busy
        + _row(2, delta="-60000000")                        # line 4: a negative interval
        + _row(3, temp="1e29")                              # line 5: a garbled double
        + _row(4, loadid="DT\x07510")                       # line 6: a control character in a label
        + _row(5, busy="120000000")                         # line 7: 2 s busy per second: the bound itself
    )
    result = loading.ingest_file(con, path)
    assert (result.status, result.records_read, result.records_loaded, result.rows_rejected) == (
        "loaded_with_rejects", 6, 2, 4)
    file_id, *_, rules = _manifest(con, path)
    assert json.loads(rules) == {"beyond_float_limit": 1, "beyond_rate": 1, "control_character": 1, "not_positive": 1}
    assert _rejects(con, file_id) == [
        (3, "implausible in raw.measure_cpu: cpu_busy_time 9000000000000000000 is more than 2e+06 per second of "
            "the record's interval (delta_time) can accumulate"),
        (4, "implausible in raw.measure_cpu: delta_time -60000000 is not positive"),
        (5, "implausible in raw.measure_cpu: site_temp 1e+29 is beyond 1.845e+19 (2**64, the widest counter)"),
        (6, "implausible in raw.measure_cpu: loadid 'DT\\x07510' holds a control character"),
    ]
    assert con.execute("select cpu_num, cpu_busy_time from raw.measure_cpu order by 1").fetchall() == [
        (0, 1_500_000), (5, 120_000_000)]
    con.close()


def test_a_csv_line_longer_than_the_limit_is_stepped_past(tmp_path):
    home, con = _warehouse(tmp_path)
    path = home.landing / "cpu.csv"
    good = [_row(k % 8).replace("10:00:00", f"10:{k // 8:02d}:00").replace("10:01:00", f"10:{k // 8 + 1:02d}:00")
            for k in range(192)]
    long_line = "9" * (8 << 20) + "\n"
    path.write_text(HEADER + "".join(good[:100]) + long_line + "".join(good[100:]))
    result = loading.ingest_file(con, path)
    assert (result.status, result.records_read, result.records_loaded, result.rows_rejected) == (
        "loaded_with_rejects", 193, 192, 1)
    file_id, *_, rules = _manifest(con, path)
    assert json.loads(rules) == {"unreadable": 1}
    assert _rejects(con, file_id) == [
        (102, f"line 102: a line of {8 << 20:,} bytes, longer than the {LINE_LIMIT:,} a record may have "
              "(stepped past; the first bytes are kept)")]
    assert con.execute("select count(*), min(record_ordinal), max(record_ordinal) from raw.measure_cpu").fetchone() == (
        192, 0, 192)
    con.close()


def test_a_misplaced_meascom_line_rejects_its_block_at_that_line(tmp_path):
    home, con = _warehouse(tmp_path)
    lines = (MEASCOM / "process_rate_on.txt").read_text().splitlines(keepends=True)
    userid = next(i for i, line in enumerate(lines) if line.startswith("Userid"))
    moved = lines[userid].split(" Creatorid")[0] + "\n"  # the identification line, among the counters
    block_end = next(i for i, line in enumerate(lines) if line.startswith("File-Open-Calls"))
    # the report listed twice (as a LIST run twice): first with the misplaced line, then as printed
    text = "".join(lines[:block_end] + [moved] + lines[block_end:] + lines)
    path = home.landing / "process.txt"
    path.write_text(text)
    result = loading.ingest_file(con, path)
    records = text.count("Local System")
    assert (result.status, result.records_read, result.records_loaded, result.rows_rejected) == (
        "loaded_with_rejects", records, records - 1, 1)
    file_id, *_, rules = _manifest(con, path)
    assert json.loads(rules) == {"unreadable": 1}
    [(line, reason)] = _rejects(con, file_id)
    assert (line, reason) == (1, f"PROCESS block at line 1 rejected: line {block_end + 1}: expected <label> <number> "
                                 "[unit], found 'Userid'")
    assert con.execute("select record_ordinal, process_name, userid, cpu_busy_time from raw.measure_process").fetchall() == [
        (1, "$B30S", "255,255", 61_776_000)]  # Cpu-Busy-Time 31.20 % of 3.3 minutes
    con.close()
