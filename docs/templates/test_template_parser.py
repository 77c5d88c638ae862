"""The template parser's test (``template_parser``, format ``template.vmstat``): copy it beside your parser
as ``tests/<family>/test_<form>.py``, its golden input to ``tests/fixtures/<family>/``, and import your
module instead of ``template_parser``.

Golden input: ``vmstat-t.out``, the sample of the parser's docstring (procps-ng 4.0.2 ``vmstat -t 1 3`` on
Linux). The expected rows are worked out by hand from the printed figures: memory KiB x 1024, the rest as
printed. ``tests/warehouse/test_parser_template.py`` runs these tests and loads the same file through the
warehouse, so that the template cannot rot.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from ingest.formats.base import FormatError, ParseContext
from template_parser import PARSER, TABLE  # yours: from ingest.formats.<family>.<form> import PARSER, TABLE

GOLDEN = Path(__file__).parent / "vmstat-t.out"


def parse(text: str, tmp_path: Path) -> tuple[list[dict], ParseContext]:
    """The rows of every batch, and the context (records read, rejects) of parsing ``text``."""
    path = tmp_path / "vmstat.txt"
    path.write_text(text)
    ctx = ParseContext(path)
    rows = [row for batch in PARSER.parse(path, ctx) for row in batch.rows.to_pylist()]
    return rows, ctx


def test_golden_sample_gives_one_row_per_sample(tmp_path):
    rows, ctx = parse(GOLDEN.read_text(), tmp_path)
    assert list(rows[0]) == list(TABLE.column_names)
    assert rows[0] == {
        "record_ordinal": 0, "line_number": 3, "sampled_at": dt.datetime(2026, 11, 25, 16, 52, 53), "time_zone": "UTC",
        "runnable_count": 5, "blocked_count": 0, "swap_used_bytes": 0,
        "free_bytes": 18_784_264 * 1024, "buffer_bytes": 68_668 * 1024, "cache_bytes": 4_332_980 * 1024,
        "swap_in_bytes_per_s": 0, "swap_out_bytes_per_s": 0, "blocks_in_per_s": 1274, "blocks_out_per_s": 3446,
        "interrupts_per_s": 557, "context_switches_per_s": 1236,
        "user_pct": 66, "system_pct": 8, "idle_pct": 26, "iowait_pct": 0, "steal_pct": 0,
    }
    assert [(r["sampled_at"].second, r["blocks_out_per_s"], r["steal_pct"]) for r in rows] == [
        (53, 3446, 0), (54, 0, 0), (55, 5872, 1)]
    assert ctx.records_read == 3 and ctx.rejects == []


def test_a_bad_line_is_rejected_with_its_line_and_the_others_load(tmp_path):
    lines = GOLDEN.read_text().splitlines(keepends=True)
    lines.insert(3, lines[3].replace(" 1133 ", " n/a "))  # a mangled copy of the second sample, as line 4
    rows, ctx = parse("".join(lines), tmp_path)
    (reject,) = ctx.rejects
    assert (reject.line, reject.record_ordinal) == (4, 1)
    assert reject.reason.startswith("line 4: expected 17 numbers and a time YYYY-MM-DD HH:MM:SS, found '4 0 0")
    assert [r["line_number"] for r in rows] == [3, 5, 6]
    assert [r["record_ordinal"] for r in rows] == [0, 2, 3]
    # the accounting every parser keeps: records read = rows loaded + rows rejected
    assert ctx.records_read == len(rows) + len(ctx.rejects) == 4


def test_sniff_takes_vmstat_t_output_only():
    assert PARSER.sniff(GOLDEN.read_bytes()[:4096], "anything.txt")
    assert not PARSER.sniff(b"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n", "x")


def test_a_file_without_the_headings_is_not_vmstat(tmp_path):
    sample_line = GOLDEN.read_text().splitlines()[2]
    with pytest.raises(FormatError, match="expected the vmstat -t headings before the first sample") as error:
        parse(sample_line + "\n", tmp_path)
    assert error.value.position() == "line 1"
