"""CS/AIX snaadmin (the real output of seed 002) and VTAM D NET,BFRUSE (IBM's real capture and templates)."""

from __future__ import annotations

import datetime as dt

from command_helpers import GOLDEN, parse_file, values

SNA = GOLDEN / "sna"
VTAM = GOLDEN / "vtam"

SEED_002_BUFFERS = {
    "reset_max_values": "NO", "buf_avail": 25058340, "buf_total_count": 75, "buf_total_bytes": 34504,
    "buf_rsrv_count": 0, "buf_rsrv_bytes": 0, "buf_res_use_count": 0, "buf_res_use_bytes": 0, "peak_usage": 100,
    "peak_decay": 0, "throttle_status": 30, "buf_use_status": "UNCONGESTED", "max_buf_total_count": 78,
    "max_buf_total_bytes": 34820, "max_buf_rsrv_count": 0, "max_buf_rsrv_bytes": 0, "max_buf_res_use_count": 0,
    "max_buf_res_use_bytes": 0, "max_peak_usage": 0, "max_throttle_status": 30,
    "max_buf_use_status": "UNCONGESTED", "debug_param": "<00000000000000000000000000000000000",
}


def test_snaadmin_buffer_availability_of_seed_002_parses_to_its_exact_values():
    _, ctx, rows, _ = parse_file(SNA / "csaix1__snaadmin-query_buffer_availability__19980601T100000.out")
    assert not ctx.rejects and ctx.records_read == 1 and len(rows) == 22
    assert values(rows) == SEED_002_BUFFERS
    assert {(r["host"], r["command"], r["section"]) for r in rows} == {
        ("csaix1", "snaadmin query_buffer_availability", "query_buffer_availability")}
    kinds = {r["counter_name"]: (r["kind"], r["unit"]) for r in rows}
    assert kinds["buf_total_bytes"] == ("gauge", "bytes") and kinds["throttle_status"] == ("gauge", "scale_0_100")
    assert kinds["buf_use_status"] == ("text", None)


def test_snaadmin_session_with_both_queries_split_at_the_prompt():
    _, _, rows, _ = parse_file(SNA / "csaix1_session.out")
    assert values(rows, 0) == SEED_002_BUFFERS
    assert values(rows, 1) == {"limit": 0, "actual": 231596, "max_used": 231596, "reset_max_used": "NO"}
    assert {r["command"] for r in rows if r["record_ordinal"] == 1} == {"snaadmin query_kernel_memory_limit"}


def test_snaadmin_as_scanned_lost_underscores_tabs_pre_tags_and_n0(tmp_path):
    f = tmp_path / "csaix1__snaadmin__19980601T100000.out"
    f.write_text("peak usage = 100\t\nthrottle status = 30\t\n<pre>buf_res_use_count = 0</pre>\t\n"
                 "buf use status = UNCONGESTED\t\nbuf_total_bytes = 34504\t\nreset_max_values = N0\t\n")
    _, ctx, rows, _ = parse_file(f)
    assert values(rows) == {"peak_usage": 100, "throttle_status": 30, "buf_res_use_count": 0,
                            "buf_use_status": "UNCONGESTED", "buf_total_bytes": 34504, "reset_max_values": "NO"}
    assert {r["counter"] for r in rows} >= {"peak usage", "throttle status"}


def test_a_failed_snaadmin_command_is_rejected(tmp_path):
    f = tmp_path / "csaix1__snaadmin__19980601T100000.out"
    f.write_text("csaix1:/ > snaadmin query_buffer_availability\nprimary_rc = STATE_CHECK\nsecondary_rc = 3\n")
    _, ctx, rows, _ = parse_file(f)
    assert rows == []
    (reject,) = ctx.rejects
    assert reject.line == 1 and "printed none of buf_avail, buf_total_bytes" in reject.reason
    assert "primary_rc = STATE_CHECK" in reject.reason


def test_bfruse_real_pools():
    _, ctx, rows, _ = parse_file(VTAM / "zos1_bfruse_complete_pools.out")
    assert not ctx.rejects and ctx.records_read == 1 and len(rows) == 34
    assert values(rows, entity="IO00") == {
        "buff_size": 334, "exp_increment": 55, "times_exp": 0, "exp_threshold": 36, "curr_total": 110,
        "curr_available": 110, "max_total": 110, "max_used": 1, "exp_limit": 2147483647, "buffs_requested": 0,
    }
    assert values(rows, entity="LP00") == {
        "buff_size": 2032, "exp_increment": 4, "times_exp": 0, "exp_threshold": 22, "curr_total": 64,
        "curr_available": 60, "max_total": 64, "max_used": 4,
    }
    assert {r["entity"] for r in rows} == {"IO00", "BS00", "LP00", "XD00"}
    assert {r["counter_name"]: r["kind"] for r in rows}["times_exp"] == "counter"


def test_bfruse_real_capture_cut_short_is_rejected_at_the_incomplete_pool():
    _, ctx, rows, _ = parse_file(VTAM / "zos1__d-net-bfruse__20170301T120000.out")
    assert rows == []
    (reject,) = ctx.rejects
    assert reject.line == 25 and "pool LF00 has no IST923I line (truncated capture)" in reject.reason


def test_bfruse_in_the_hardcopy_log_time_system_tail_and_short_format():
    _, ctx, rows, _ = parse_file(VTAM / "zos1_syslog_bfruse.out")
    assert not ctx.rejects and ctx.records_read == 2 and len(rows) == 62
    stamps = sorted({(r["record_ordinal"], r["host"], r["captured_at"]) for r in rows})
    assert stamps == [(0, "SYSA", dt.datetime(2026, 1, 5, 10, 0, 0, 50000)),
                      (1, "SYSA", dt.datetime(2026, 1, 5, 10, 15, 0, 50000))]
    assert values(rows, 0, entity="IO00")["cont_threshold"] == 72
    assert values(rows, 0, entity="CSA") == {"current_k": 2196, "maximum_k": 2226, "maximum_used_k": 2226,
                                             "modules_k": 8212}
    assert values(rows, 0, entity="SYSTEM CSA") == {"limit_k": 65535 * 1024, "remaining_pct": 82, "remaining_k": 44390}
    assert values(rows, 0, entity="PRIVATE") == {"current_k": 5406, "maximum_used_k": 5478, "modules_k": 10536}
    short = values(rows, 1, entity="IO00")
    assert (short["curr_total"], short["curr_available"], short["max_used"], short["times_exp"], short["flags"]) == (
        330, 0, 330, 4, "QF")
    assert "cont_threshold" not in values(rows, 1, entity="BS00")  # *NA*


def test_bfruse_other_jobs_messages_between_the_display_lines_are_skipped(tmp_path):
    lines = (VTAM / "zos1_syslog_bfruse.out").read_text().splitlines(keepends=True)
    other = "N 0000000 SYSA     26005 10:00:00.06 STC00057 00000090  IST663I INIT OTHER REQUEST FAILED, SENSE=08570002\n"
    f = tmp_path / "syslog.txt"
    f.write_text("".join(lines[:6] + [other] + lines[6:]))
    _, ctx, rows, _ = parse_file(f)
    _, _, expected, _ = parse_file(VTAM / "zos1_syslog_bfruse.out")
    assert not ctx.rejects
    assert [{**r, "line_number": None} for r in rows] == [{**r, "line_number": None} for r in expected]


def test_bfruse_a_line_out_of_layout_is_kept_and_the_display_loads(tmp_path):
    text = (VTAM / "zos1_bfruse_complete_pools.out").read_text()
    f = tmp_path / "bfruse.log"
    f.write_text(text.replace("IST922I CURR TOTAL 34 CURR AVAILABLE 34", "IST922I CURR TOTAL 34 CURR AVAILABLE 3A", 1)
                 + text.replace("2017-03-01T12:00:00", "2017-03-01T12:15:00"))
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects
    (kept,) = unparsed
    assert (kept["record_ordinal"], kept["line_number"], kept["line_text"]) == (
        0, 13, "IST922I CURR TOTAL 34 CURR AVAILABLE 3A")
    assert kept["reason"] == "IST922I does not have the documented layout"
    # BS00 lost its IST922I values only; the pool was not cut short, so nothing else is lost
    first, second = values(rows, 0, entity="BS00"), values(rows, 1, entity="BS00")
    assert {k: v for k, v in second.items() if k not in ("curr_total", "curr_available")} == first


def test_sessions_bind_ru_sizes_of_z_os_ist2064i(tmp_path):
    # seed 003's display (L657-L683) with the line z/OS Communications Server prints between IST1635I and IST1636I,
    # in the layout of IBM's SNA Messages (the IST879I message group: IST2064I PLU TO SLU RU SIZE = plu_to_slu_rusize
    # SLU TO PLU RU SIZE = slu_to_plu_rusize); the sizes are those of its LOGMODE #BAT2K's name, 2K
    text = (VTAM / "share1999__d-net-sessions__19990301T120000.out").read_text()
    f = tmp_path / "share1999__d-net-sessions__19990301T120000.out"
    f.write_text(text.replace("IST1636I", "IST2064I PLU TO SLU RU SIZE = 2048 SLU TO PLU RU SIZE = 2048\nIST1636I", 1))
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and not unparsed
    session = values(rows, section="session")
    assert (session["logmode"], session["plu_to_slu_ru_size"], session["slu_to_plu_ru_size"]) == ("#BAT2K", 2048, 2048)
    assert {(r["entity"], r["unit"], r["kind"]) for r in rows if r["counter_name"].endswith("_ru_size")} == {
        ("FD87C05900BCFE62", "bytes", "gauge")}
    # the pacing rows are those of the display without the line
    _, _, without, _ = parse_file(VTAM / "share1999__d-net-sessions__19990301T120000.out")
    assert values(rows, section="pacing") == values(without, section="pacing")
