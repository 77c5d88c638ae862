"""TCP/IP for VSE QUERY STATS, QUERY ISTATS and QUERY IPSTATS in the layout docs/commands.md expects."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file, values

CONSOLE = GOLDEN / "vse" / "vse1_console.out"


def test_query_stats_values_and_names():
    _, ctx, rows, _ = parse_file(CONSOLE)
    assert not ctx.rejects and ctx.records_read == 4 and len(rows) == 69
    first = values(rows, 0)
    assert first == {
        "ftp_daemons": 4, "ftp_daemons_active": 1, "ftp_daemons_active_max": 2, "telnet_daemons": 40,
        "telnet_daemons_active": 23, "telnet_daemons_active_max": 31, "telnet_buffers_active_max": 12,
        "tcp_inbound_rejections": 7, "ftp_files_sent": 18, "ftp_files_received": 4, "ftp_bytes_sent": 10747742,
        "ftp_bytes_received": 2011, "telnet_bytes_sent": 88120334, "telnet_bytes_received": 4511020,
        "tcp_bytes_sent": 99120004, "tcp_bytes_received": 6900217, "rx_blocks": 1628410, "rx_datagrams": 1600112,
        "rx_non_ip": 0, "rx_misrouted": 12, "tx_blocks": 1411007, "tx_datagrams": 1409880,
    }
    by_name = {r["counter_name"]: r for r in rows if r["record_ordinal"] == 0}
    assert by_name["rx_non_ip"]["section"] == "Received Blocks" and by_name["rx_non_ip"]["counter"] == "Non-IP"
    assert by_name["tx_blocks"]["section"] == "Transmitted Blocks" and by_name["tx_blocks"]["counter"] == "Total"
    assert by_name["telnet_daemons_active"]["kind"] == "gauge" and by_name["rx_misrouted"]["kind"] == "counter"
    assert by_name["ftp_bytes_sent"]["unit"] == "bytes"
    assert {r["command"] for r in rows if r["record_ordinal"] in (0, 1)} == {"QUERY STATS"}
    assert values(rows, 1)["rx_non_ip"] == 4


def test_query_istats_dispatch_counts_add_up():
    _, _, rows, _ = parse_file(CONSOLE)
    istats = values(rows, 2)
    assert {r["command"] for r in rows if r["record_ordinal"] == 2} == {"QUERY ISTATS"}
    # Di = Ac + Fx + Qu + Pr + Co + Pa, the foil's SET RECORD=ON sample (seed 004 L3366)
    parts = ["dispatch_active_scans", "dispatch_fixed_scans", "dispatch_quick_scans",
             "dispatch_persistent_scans", "dispatch_complete_scans", "dispatch_passed"]
    assert istats["dispatches"] == 1628 == sum(istats[p] for p in parts)
    assert [istats[p] for p in parts] == [890, 0, 0, 7, 1, 730]


def test_query_ipstats_per_foreign_address():
    _, _, rows, _ = parse_file(CONSOLE)
    ip = values(rows, 3, entity="10.0.0.1")
    assert {r["command"] for r in rows if r["record_ordinal"] == 3} == {"QUERY IPSTATS"}
    assert ip["sws_mode_time"] == 16160538 and ip["sws_mode_count"] == 123
    assert ip["overall_max_window"] == 32768 and ip["tcp_outbound_bytes"] == 10747742
    sws = next(r for r in rows if r["counter_name"] == "sws_mode_time")
    assert (sws["section"], sws["unit"], sws["kind"]) == ("PERFORMANCE INFORMATION / SWS MODE", "us", "counter")
    assert next(r for r in rows if r["counter_name"] == "overall_max_window")["kind"] == "gauge"


def test_unknown_labels_are_kept_and_bare_labels_without_prefix_are_read(tmp_path):
    f = tmp_path / "VSE2__query-stats__20260105T100000.out"
    f.write_text(
        "QUERY STATS\n"
        "POP3 Daemons: 1\n"
        "SSL Handshakes: 5,120\n"         # a counter of a later release: kept under its own name
        "Current Active Widgets: 3\n"
        "Received Blocks\n"
        "   Total: 100\n"
        "   Non-IP: 2\n"
        "Discarded UDP: 9\n"
    )
    _, ctx, rows, _ = parse_file(f)
    assert not ctx.rejects
    assert values(rows) == {"pop3_daemons": 1, "ssl_handshakes": 5120, "current_active_widgets": 3,
                            "rx_blocks": 100, "rx_non_ip": 2, "udp_discarded": 9}
    kinds = {r["counter_name"]: r["kind"] for r in rows}
    assert kinds["ssl_handshakes"] == "counter" and kinds["current_active_widgets"] == "gauge"


def test_a_non_numeric_counter_is_kept_and_the_rest_of_its_display_loads(tmp_path):
    text = CONSOLE.read_text()
    f = tmp_path / "console.txt"
    f.write_text(text.replace("Non-IP: 0", "Non-IP: 1x3", 1))
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects
    (kept,) = unparsed
    assert (kept["record_ordinal"], kept["line_number"]) == (0, 17) and kept["line_text"].endswith("Non-IP: 1x3")
    assert kept["reason"] == "expected '<label>: <number>' items (a counter with a non-numeric value?)"
    _, _, intact, _ = parse_file(CONSOLE)
    assert {k: v for k, v in values(intact, 0).items() if k != "rx_non_ip"} == values(rows, 0)
