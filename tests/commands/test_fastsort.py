"""HP NonStop FastSort statistics (the manual's own example, HP FastSort Manual 429834-003 p. 2-13; the input of
seed 001's one-pass rule 001-aF19, L1284): every statistic of the listing with its unit, a line in no form of it
kept unparsed at its line while the rest loads, and the demo's nightly listings (``ingest.generate._fastsort``):
the small file sorted in one pass with the memory AUTOMATIC gives it, in two on a night it is given 16 pages."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file

from ingest.generate import _fastsort

REAL = GOLDEN / "nonstop" / "hp_fastsort_manual__fastsort__20080101T000000.out"


def statistics(rows) -> dict[str, float]:
    return {r["counter_name"]: r["value"] for r in rows}


def test_every_statistic_of_the_manuals_listing():
    _, ctx, rows, unparsed = parse_file(REAL)
    assert not ctx.rejects and not unparsed
    assert statistics(rows) == {
        "records": 7, "max_record_bytes": 132, "elapsed_s": 7, "buffer_pages": 166, "io_wait_s": 0,
        "initial_runs": 0, "compares": 16, "first_merge_order": 0, "scratch_bytes": 0, "merge_order": 0,
        "scratch_seeks": 0, "intermediate_passes": 0, "duplicates_removed": 0, "errors_detected": 0,
        "warnings_detected": 0}
    assert {r["unit"] for r in rows if r["counter_name"] in ("elapsed_s", "io_wait_s")} == {"s"}
    # 7 records of at most 132 bytes (924 bytes) in 166 pages of 2,048 bytes: a sort in memory, no run written
    s = statistics(rows)
    assert s["records"] * s["max_record_bytes"] == 924 <= s["buffer_pages"] * _fastsort.PAGE_BYTES == 339968


def test_a_line_in_no_form_of_the_listing_is_kept_and_the_rest_loads(tmp_path):
    lines = REAL.read_text().splitlines(keepends=True)
    f = tmp_path / "PROD1__fastsort__20260105T020000.out"
    # an elapsed time with hours is no form the manual prints
    f.write_text("".join(lines[:2]) + " 1:00:07 ELAPSED TIME 166 BUFFER PAGES\n" + "".join(lines[3:]))
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and len(rows) == 13 and "elapsed_s" not in statistics(rows)
    (line,) = unparsed
    assert line["line_number"] == 3 and line["reason"].startswith("expected FastSort statistics")


def test_the_demo_small_sort_runs_in_one_pass_but_on_its_short_memory_nights(tmp_path):
    prod1 = _fastsort.SYSTEMS[0]
    f = tmp_path / "PROD1__fastsort__20260105T020000.out"
    found = {}
    for day in (0, prod1.short_memory_days[0]):
        (_, small), (_, large) = _fastsort.night(prod1, day)
        f.write_text(small)
        _, ctx, rows, unparsed = parse_file(f)
        assert not ctx.rejects and not unparsed
        found[day] = statistics(rows)
        f.write_text(large)
        assert statistics(parse_file(f).rows)["initial_runs"] == 5  # 20 Mbytes in 2 Mbytes: runs of twice that
    # 800 records of 120 bytes: 96,000 bytes, under seed 001's 100 Kbytes (L1344)
    assert [(s["records"] * s["max_record_bytes"], s["buffer_pages"], s["initial_runs"], s["scratch_bytes"])
            for s in found.values()] == [(96000, 64, 0, 0), (96000, 16, 2, 96000)]
