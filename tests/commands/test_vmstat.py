"""AIX vmstat (aRRDvark's real capture; the CPU busy of seed 002's rule 002-R27, L1022, L1155): every column of
every report line under its group (``sy`` twice: system calls and system time), the partition's configuration,
a line that is no report kept unparsed at its line, and the busy share (us + sy) of each report: the capture's
last report crosses 85 %, the others do not."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file

from ingest.generate.commands import AixHost

AIX = GOLDEN / "aix"
REAL = AIX / "arrdvark__vmstat__20160326T000000.out"
BUSY_LIMIT = 85  # seed 002 L1155: 85 % at 2,000 TN sessions (the catalogue row of 002-R27)


def busy(rows) -> dict[str, float]:
    """us + sy of each report line."""
    out: dict[str, float] = {}
    for r in rows:
        if r["counter_name"] in ("user_pct", "system_pct"):
            out[r["entity"]] = out.get(r["entity"], 0) + r["value"]
    return out


def test_every_report_of_the_real_capture_and_its_busy_share():
    _, ctx, rows, unparsed = parse_file(REAL)
    assert not ctx.rejects and not unparsed and len(rows) == 3 + 10 * 19
    config = {r["counter_name"]: r["value"] for r in rows if r["section"] == "configuration"}
    assert config == {"lcpu": 8, "mem_mb": 2048, "ent": 0.2}
    last = {(r["section"], r["counter_name"]): r["value"] for r in rows if r["entity"] == "report 10"}
    assert last[("faults", "system_calls")] == 42773 and last[("cpu", "system_pct")] == 15
    assert last[("cpu", "physical_processors")] == 0.85 and last[("cpu", "entitlement_pct")] == 422.5
    shares = busy(rows)
    assert shares["report 1"] == 49 and shares["report 9"] == 71 and shares["report 10"] == 88
    assert [report for report, pct in shares.items() if pct >= BUSY_LIMIT] == ["report 10"]


def test_a_line_that_is_no_report_is_kept_and_the_others_load(tmp_path):
    lines = REAL.read_text().splitlines(keepends=True)
    f = tmp_path / "aix01__vmstat__20260105T100000.out"
    f.write_text("".join(lines[:8]) + "vmstat: 0551-128 Interval and count must be integers\n")
    _, ctx, rows, unparsed = parse_file(f)
    assert len(rows) == 3 + 19 and not ctx.rejects
    (line,) = unparsed
    assert line["line_number"] == 9 and line["reason"].startswith("expected a report line of numbers")


def test_the_demo_host_prints_a_busy_share_that_follows_its_load(tmp_path):
    host = AixHost.__new__(AixHost)
    host.load = 1.0
    f = tmp_path / "aix01__vmstat__20260105T120000.out"
    f.write_text(host.vmstat())
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and not unparsed and busy(rows) == {"report 1": 24, "report 2": 85}
    host.load = 0.9
    f.write_text(host.vmstat())
    assert busy(parse_file(f).rows)["report 2"] == 77
