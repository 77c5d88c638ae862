"""VSE PRTY: the attention routine's display of the partition priorities (a real operator's session)."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file

SESSION = GOLDEN / "vse" / "vse24adcd__prty__20190107T000000.out"


def _order(rows: list[dict]) -> dict[str, float]:
    return {r["entity"]: r["value"] for r in rows if r["counter_name"] == "priority_position"}


def test_the_last_display_gives_the_order_lowest_first():
    _, ctx, rows, unparsed = parse_file(SESSION)
    assert not ctx.rejects and ctx.records_read == 3
    order = _order(rows)
    # "listed in the order of lowest priority first": the dynamic class Z lowest, VSE/POWER's F1 highest
    assert list(order) == ["Z", "Y", "S", "R", "P", "C", "BG", "FA", "F8", "F6", "F5", "F4", "F9", "F2", "F7", "FB",
                           "F3", "F1"]
    assert (order["Z"], order["F2"], order["F7"], order["FB"], order["F1"]) == (1, 14, 15, 16, 18)
    assert {r["line_number"] for r in rows} == {11} and {r["kind"] for r in rows} == {"gauge"}
    # the refused command (its order unchanged) and the display before the operator's last PRTY are kept
    assert [(u["line_number"], u["line_text"].split()[2]) for u in unparsed] == [(2, "1Y63I"), (6, "PRTY")]
    assert unparsed[1]["reason"] == "an earlier PRTY display of the capture: its last display gives the order"


def test_a_partition_balancing_group_shares_its_place(tmp_path):
    # seed 004 L2270-L2272: the TCP/IP partition F7 in one balancing group with the CICS partition, below
    # VTAM (F3) and POWER (F1): PRTY ...,'Fx'=F7,F3,F1
    f = tmp_path / "VSE1__prty__20260105T060000.out"
    f.write_text("PRTY BG,F2=F7,F3,F1\nAR 0015 PRTY BG,F2=F7,F3,F1\nAR 0015\nAR 0015 1I40I  READY\n")
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and not unparsed
    assert _order(rows) == {"BG": 1, "F2": 2, "F7": 2, "F3": 3, "F1": 4}


def test_a_display_that_names_no_partition_is_kept_and_a_capture_whose_last_display_is_one_is_rejected(tmp_path):
    f = tmp_path / "VSE1__prty__20260105T060000.out"
    f.write_text("AR 0015 PRTY BG,F2,F7,F2,F1\nAR 0015 PRTY BG,F2,F7,F3,F1\nAR 0015 1I40I  READY\n")
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and _order(rows) == {"BG": 1, "F2": 2, "F7": 3, "F3": 4, "F1": 5}
    assert [(u["line_number"], u["reason"]) for u in unparsed] == [(1, "partition F2 is displayed twice")]
    f.write_text("AR 0015 PRTY BG,F2,F7,F3,F1\nAR 0015 PRTY BG,F2,TCPIP,F1\nAR 0015 1I40I  READY\n")
    _, ctx, rows, unparsed = parse_file(f)
    (reject,) = ctx.rejects
    assert not rows and "no counters found: expected PRTY output" in reject.reason
