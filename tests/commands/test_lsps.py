"""AIX lsps -a (gopsutil's real captures; seed 002 L830): each paging space's size in MB and %Used, a row that is
no paging space kept unparsed at its line, a capture with no paging space at all rejected."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file

AIX = GOLDEN / "aix"
HEADING = "Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum\n"


def gauges(rows) -> dict[tuple[str, str], float]:
    return {(r["entity"], r["counter_name"]): r["value"] for r in rows if r["kind"] == "gauge"}


def test_sizes_in_gb_are_mb_and_an_nfs_paging_space_has_no_use():
    _, ctx, rows, _ = parse_file(AIX / "gopsutil_aix__lsps-a__20250101T000000.out")
    assert not ctx.rejects and gauges(rows) == {("hd6", "size_mb"): 512, ("hd6", "used_pct"): 5,
                                                ("paging01", "size_mb"): 2048, ("paging01", "used_pct"): 20}
    _, ctx, rows, _ = parse_file(AIX / "gopsutil_aix_nfs__lsps-a__20250101T000000.out")
    assert gauges(rows) == {("nfspg", "size_mb"): 256}  # NaNQ: nothing known of its use


def test_a_line_that_is_no_paging_space_is_kept_and_the_others_load(tmp_path):
    f = tmp_path / "aix01__lsps-a__20260105T100000.out"
    f.write_text(HEADING + "hd6             hdisk0            rootvg         512MB     5     yes     yes      lv       0\n"
                 "0517-076 lsps: Cannot get information about paging space paging00.\n")
    _, ctx, rows, unparsed = parse_file(f)
    assert gauges(rows) == {("hd6", "size_mb"): 512, ("hd6", "used_pct"): 5} and not ctx.rejects
    (line,) = unparsed
    assert line["line_number"] == 3 and line["reason"].startswith("expected a paging space as 'name volume group")


def test_a_capture_without_a_paging_space_is_rejected(tmp_path):
    f = tmp_path / "aix01__lsps-a__20260105T100000.out"
    f.write_text(HEADING + "garbage\n")
    _, ctx, rows, _ = parse_file(f)
    assert rows == [] and len(ctx.rejects) == 1
