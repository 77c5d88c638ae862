"""Real captures from public parser test suites, checked against what those suites expect of them.

Each test quotes the source's own assertions (pedz/Snapper's RSpec, gopsutil's Go tests, Red Hat
insights-core's pytest) in our names; the golden runner (tests/golden) holds every other row.
"""

from __future__ import annotations

from collections import Counter

import pytest

from command_helpers import GOLDEN, parse_file, values

AIX, BSD, LINUX = GOLDEN / "aix", GOLDEN / "bsd", GOLDEN / "linux"
SNAPPER = "__netstat-v__20151225T000000.out"


def _snapper(name: str):
    _, ctx, rows, unparsed = parse_file(AIX / f"snapper_{name}{SNAPPER}")
    assert not ctx.rejects
    return rows, unparsed


def _flags(text: str) -> list[str]:
    return text.split()


def test_snapper_etherchannel_record():
    rows, unparsed = _snapper("ent20_etherchannel")
    v = values(rows, entity="ent20")
    # spec/entstat_ethchan_spec.rb, "operating in normal mode"
    assert v["hardware_address"] == "00:00:c9:d9:d8:96"
    assert v["tx_packets"] == 615469971 and v["rx_bytes"] == 751885396976
    assert _flags(v["driver_flags"]) == ["Up", "Broadcast", "Running", "Simplex", "Promiscuous", "64BitSupport",
                                         "ChecksumOffload", "LargeSend", "DataRateSet"]
    assert v["operating_mode"] == "Standard mode"
    assert (v["number_of_adapters"], v["hash_mode"], v["device_type"]) == (2, "Destination IP address", "EtherChannel")
    assert not unparsed


def test_snapper_link_aggregation_record_and_its_lacp_counters():
    rows, _ = _snapper("ent10_lacp")
    v = values(rows, entity="ent10")
    # spec/entstat_ethchan_spec.rb, "operating in 802.3ad mode"
    assert v["hardware_address"] == "e4:1f:13:d8:28:c4"
    assert (v["tx_packets"], v["rx_bytes"]) == (127492, 43872971)
    assert v["operating_mode"] == "Standard mode (IEEE 802.3ad)"
    assert "64BitSupport" in _flags(v["driver_flags"])
    lacp = "ieee_802_3ad_link_aggregation_statistics_"
    assert (v[lacp + "aggregation_status"], v[lacp + "received_lacpdus"], v[lacp + "transmitted_lacpdus"]) == (
        "Aggregated", 4587, 5011)


def test_snapper_shared_ethernet_adapter():
    rows, _ = _snapper("ent22_sea")
    v = values(rows, entity="ent22")
    # spec/entstat_sea_spec.rb
    assert v["hardware_address"] == "e4:1f:13:fd:29:75"
    assert (v["tx_packets"], v["rx_bytes"]) == (359754, 22016683)
    assert _flags(v["driver_flags"]) == ["Up", "Broadcast", "Running", "Simplex", "64BitSupport", "ChecksumOffload",
                                         "LargeSend", "DataRateSet"]
    hex_flags, *names = v["sea_flags"].replace("<", " ").replace(">", " ").split()
    assert int(hex_flags, 16) == 19 and names == ["THREAD", "LARGESEND", "LARGE_RECEIVE"]
    assert v["vlan_ids_ent15"] == 300
    assert v["real_side_statistics_packets_transmitted"] == 241274
    # the same label on the real and the virtual side, and per SEA thread, keeps its own key
    assert (v["real_side_statistics_packets_received"], v["virtual_side_statistics_packets_received"]) == (238619, 33781)
    threads = {r["entity"]: r["value"] for r in rows if r["counter_name"] == "queue_packets_count"}
    assert threads == {"ent22 Thread 0": 13280, "ent22 Thread 1": 17688, "ent22 Thread 2": 9137, "ent22 Thread 3": 10362,
                       "ent22 Thread 4": 11255, "ent22 Thread 5": 200098, "ent22 Thread 6": 10580}
    assert (v["elapsed_s"], v["elapsed_since_partial_reset_s"]) == (2 * 3600 + 52 * 60 + 41, 0)
    assert v["real_adapter"] == "ent2"


@pytest.mark.parametrize("name, adapter, serial, node, tx_frames, rx_frames, elapsed", [
    ("fcs3", "fcs3", "1A203001E4", "0x20000000C9D660FA", 180323917, 358920289, 10364),
    ("fcs0", "fcs0", "11S42C1831YK5122217GYP", "0x200000C0DD1E0C01", 1440907, 1639466, 5327),
])
def test_snapper_fibre_channel_reports_are_read(name, adapter, serial, node, tx_frames, rx_frames, elapsed):
    rows, unparsed = _snapper(name)
    v = values(rows, entity=adapter)
    # spec/entstat_fibre_spec.rb
    assert v["serial_number"] == serial and v["world_wide_node_name"] == node
    assert v["tx_frames"] == tx_frames
    assert v["ip_over_fc_adapter_driver_information_no_dma_resource_count"] == 0
    assert (v["rx_frames"], v["elapsed_s"]) == (rx_frames, elapsed)
    assert {r["section"] for r in rows} == {"fibre channel"} and not unparsed


def test_snapper_per_receive_queue_counters_are_cumulative_and_keyed_by_queue():
    rows, _ = _snapper("ent0_rxq")
    # spec/entstat_elxent_spec.rb, "PCIe2 2-port 10GbE SR Adapter"
    assert values(rows, entity="ent0")["hardware_address"] == "00:00:c9:d9:d8:96"
    assert values(rows, entity="ent0")["rx_interrupts"] == 157147159
    assert values(rows, entity="ent0 RXQ 0")["number_of_receive_interrupts"] == 78848
    packets = {r["entity"]: (r["value"], r["kind"]) for r in rows if r["counter_name"] == "number_of_receive_packets"}
    assert packets == {"ent0 RXQ 0": (81107, "counter"), "ent0 RXQ 1": (210174400, "counter"),
                       "ent0 RXQ 2": (253252022, "counter")}
    assert values(rows, entity="ent0 TXQ 1")["number_of_transmit_bytes"] == 181844280081


def test_snapper_lacp_actor_and_partner_states_are_told_apart():
    rows, _ = _snapper("ent2_lacp_member")
    v = values(rows, entity="ent2")
    # spec/entstat_elxent_spec.rb, third context
    assert v["hardware_address"] == "e4:1f:13:d7:28:15"
    assert v["rx_interrupts"] == 62 and values(rows, entity="ent2 RXQ 0")["number_of_receive_interrupts"] == 62
    assert v["actor_state_lacp_activity"] == "Active"
    labels = {r["counter"] for r in rows if r["counter_name"].endswith("_lacp_activity")}
    assert labels == {"Actor State: LACP activity", "Partner State: LACP activity"}
    assert (v["partner_system"], v["received_lacpdus"], v["transmitted_lacpdus"]) == ("00-23-04-EE-BE-CA", 13, 12)


def test_snapper_gigabit_adapters_alone_and_as_aggregation_member_with_a_backup():
    rows, _ = _snapper("ent6_sea_real_adapter")
    v = values(rows, entity="ent6")
    # spec/entstat_musent_spec.rb
    assert (v["hardware_address"], v["rx_interrupts"]) == ("6c:ae:8b:02:d7:68", 92721)
    assert (v["rx_drops"], v["rx_bytes"], v["virtual_adapter"]) == (2046, 93120838, "ent0")
    rows, _ = _snapper("ent4_backup_adapter")
    v = values(rows, entity="ent4")
    assert (v["hardware_address"], v["rx_interrupts"], v["actor_state_lacp_activity"]) == ("40:f2:e9:5a:21:68", 0, "Active")
    assert (v["partner_state_synchronization"], v["backup_adapter"]) == ("OUT_OF_SYNC", "ent5")
    assert values(rows, entity="ent4 TXQ 1")["number_of_transmit_bytes"] == 372


def test_snapper_per_queue_lines_and_device_statistics():
    rows, _ = _snapper("ent1_per_queue")
    # spec/entstat_shient_spec.rb
    assert values(rows, entity="ent1")["hardware_address"] == "40:f2:e9:d3:45:a1"
    assert values(rows, entity="ent1 q-0")["tx_bytes"] == 0
    assert {r["entity"] for r in rows if r["counter_name"] == "rx_discards"} == {"ent1", "ent1 q-0", "ent1 q-1",
                                                                               "ent1 q-2", "ent1 q-3"}
    assert values(rows, entity="ent1 RXQ 3")["receive_q_no_buffers"] == 0
    assert (values(rows, entity="ent1")["physical_port_mtu"], values(rows, entity="ent1")["adapter_reset_count"]) == (9014, 3)


def test_snapper_wrapped_device_type_and_qlogic_counters():
    rows, _ = _snapper("ent2_wrapped_device_type")
    v = values(rows, entity="ent2")
    # spec/entstat_nment_spec.rb
    assert v["hardware_address"] == "e4:1f:13:90:8f:f4"
    assert v["rx_multicast_packets"] == 124106624
    assert _flags(v["driver_flags"]) == ["Up", "Broadcast", "Running", "Simplex", "Promiscuous", "64BitSupport",
                                         "ChecksumOffload", "PrivateSegment", "LargeSend", "DataRateSet"]
    assert v["transmit_and_receive_flow_control_status"] == "Disabled"
    assert v["device_type"] == "Qlogic combo Gigabit Ethernet PCI-Express Adapter (e4143a161410a003)"
    assert (v["tx_drops"], v["rx_interrupts"], v["adapter_reset_count"]) == (18654, 14819093778, 30)


def test_snapper_pcie3_adapter_everything_but_its_tables_loads():
    rows, unparsed = _snapper("ent104_lnc2ent")
    v = values(rows, entity="ent104")
    # spec/entstat_lnc2ent_spec.rb and spec/entstat_generic_spec.rb (the same capture)
    assert v["adapter_reset_count"] == 5
    assert int(v["enabled_vlan_ids"]) == 148
    assert v["transmit_and_receive_flow_control_status"] == "Enabled"
    assert values(rows, entity="ent104 TXQ 1")["transmit_q_packets"] == 21392257
    assert v["hardware_address"] == "98:be:94:67:f5:14"
    assert v["actor_state_lacp_activity"] == "Active" and v["partner_system"] == "00-23-04-EE-BE-9E"
    # the interrupt-source and DCBX tables are kept as lines, not read
    assert [u["line_number"] for u in unparsed] == [*range(57, 63), *range(256, 264), 266]


def test_snapper_qset_adapter():
    rows, _ = _snapper("ent10_qsets")
    v = values(rows, entity="ent10")
    # spec/entstat_rrent_spec.rb
    assert v["hardware_address"] == "34:40:b5:b6:bb:18"
    assert (v["number_of_q_sets_allocated"], v["adapter_reset_count_due_to_disable_enable"]) == (2, 1)
    assert v["tcp_segmentation_offload_packets_transmitted"] == 14 and v["virtual_adapter"] == "ent14"


def test_every_aix_adapter_counter_has_its_own_key():
    for path in sorted(AIX.glob(f"*{SNAPPER}")) + sorted(AIX.glob("*entstat*.out")):
        _, _, rows, _ = parse_file(path)
        keys = Counter((r["section"], r["entity"], r["counter_name"]) for r in rows)
        assert [k for k, n in keys.items() if n > 1] == [], path.name


def test_snapper_aix_netstat_in_link_rows():
    _, ctx, rows, _ = parse_file(AIX / "snapper__netstat-in__20151225T000000.out")
    assert not ctx.rejects
    # spec/netstat_in_spec.rb
    links = {r["entity"] for r in rows if r["section"] == "link"}
    assert links == {"en9", "en22", "lo0"}
    assert values(rows, entity="en9", section="link")["mtu"] == 1500
    assert values(rows, entity="en9", section="link")["address"] == "0.0.c9.d9.e8.bf"
    en22 = values(rows, entity="en22", section="link")
    assert (en22["rx_packets"], en22["rx_errors"], en22["tx_packets"], en22["tx_errors"], en22["collisions"]) == (
        190896, 0, 210601, 0, 0)
    addresses = {r["entity"] for r in rows if r["section"] == "address"}
    assert addresses == {"en9 10.201.10 10.201.10.31", "en22 10.201.52 10.201.55.100", "lo0 127 127.0.0.1", "lo0 ::1%1"}


def test_gopsutil_aix_netstat_idn_and_entstat():
    _, _, rows, _ = parse_file(AIX / "gopsutil_aix73__netstat-idn__20250101T000000.out")
    # net/net_aix_nocgo_test.go TestParseNetstatI
    assert {r["entity"] for r in rows if r["section"] == "link"} == {"en0", "lo0"}
    en0, lo0 = values(rows, entity="en0"), values(rows, entity="lo0")
    assert [en0[k] for k in ("rx_packets", "rx_errors", "tx_packets", "tx_errors", "tx_drops")] == [7167418, 0, 2902787, 0, 0]
    assert [lo0[k] for k in ("rx_packets", "rx_errors", "tx_packets", "tx_errors", "tx_drops")] == [1986929, 0, 1986929, 0, 0]
    _, _, rows, _ = parse_file(AIX / "gopsutil_aix73__entstat-en0__20250101T000000.out")
    en0 = values(rows, entity="en0")
    # TestParseEntstat
    assert (en0["tx_bytes"], en0["rx_bytes"]) == (699977762, 1084168420)
    assert (en0["elapsed_s"], en0["rx_broadcast_packets"]) == (((22 * 24 + 6) * 60 + 6) * 60 + 25, 4144143)
    assert _flags(en0["driver_flags"])[-3:] == ["VIOENT", "IPV6_LSO", "IPV6_CSO"]


def test_gopsutil_aix_netstat_s():
    _, ctx, rows, _ = parse_file(AIX / "gopsutil_aix73__netstat-s__20250101T000000.out")
    assert not ctx.rejects
    v = values(rows)
    # net/net_aix_test.go TestParseNetstatS, in our names
    assert (v["tcp_out_segs"], v["tcp_in_segs"], v["tcp_active_opens"], v["tcp_passive_opens"]) == (
        8864927, 13907119, 2177, 465222)
    assert (v["udp_datagrams_received"], v["udp_datagrams_output"]) == (1886908, 2224137)
    assert (v["ip_total_packets_received"], v["ip_packets_sent_from_this_host"]) == (16177190, 11912013)
    assert (v["icmp_calls_to_icmp_error"], v["icmp_messages_with_bad_code_fields"]) == (3, 12)
    # the detail lines the gopsutil parser leaves out are kept, with their parenthesised counts
    assert (v["tcp_retrans_segs"], v["tcp_packets_sent_data_packets_retransmitted_bytes"]) == (26849, 23271573)
    assert (v["tcp_connections_closed"], v["tcp_connections_closed_drops"]) == (467502, 1913)


def test_gopsutil_aix_netstat_s_full_layout():
    _, _, rows, _ = parse_file(AIX / "gopsutil_layout__netstat-s__20250101T000000.out")
    v = values(rows)
    # shirou/gopsutil net/net_aix_test.go (testdata/aix/netstat_s.txt), MIB-II values in our names
    assert [v[k] for k in ("tcp_out_segs", "tcp_in_segs", "tcp_retrans_segs", "tcp_active_opens", "tcp_passive_opens",
                           "tcp_attempt_fails")] == [1001, 2002, 303, 404, 505, 606]
    assert v["tcp_packets_received_discarded_for_bad_checksums"] == 707  # InCsumErrors
    assert (v["tcp_packets_received_discarded_for_bad_header_offset_fields"]
            + v["tcp_packets_received_discarded_because_packet_too_short"]) == 1603  # InErrs
    assert (v["ip_total_packets_received"], v["ip_packets_for_this_host"], v["ip_packets_sent_from_this_host"]) == (
        50000, 40000, 30000)
    assert (v["udp_delivered"], v["udp_datagrams_output"], v["udp_bad_checksums"]) == (1100, 2200, 5500)
    assert (v["ipv6_input_histogram_udp"], v["ipv6_input_histogram_icmp_v6"]) == (30000, 25000)
    # the same text sent and received keeps two names
    assert (v["tcp_packets_sent_window_update_packets"], v["tcp_packets_received_window_update_packets"]) == (0, 0)
    kinds = {r["counter_name"]: r["kind"] for r in rows}
    assert kinds["tcp_packets_sent_bytes_is_the_biggest_largesend"] == "gauge" and kinds["tcp_out_segs"] == "counter"


@pytest.mark.parametrize("name, wanted", [
    ("inb", {"vioif": {"rx_bytes": 3716508243, "tx_bytes": 2240547599}, "lo0": {"rx_bytes": 41764800, "tx_bytes": 41764800}}),
    ("ind", {"vioif": {"rx_packets": 11524361, "tx_packets": 18735351}, "lo0": {"rx_packets": 835296, "tx_packets": 835296}}),
])
def test_gopsutil_netbsd_interface_tables(name, wanted):
    _, ctx, rows, _ = parse_file(BSD / f"gopsutil_netbsd__netstat-{name}__20250101T000000.out")
    assert not ctx.rejects
    # net/net_netbsd_test.go TestParseNetstat: the link rows give the interface totals
    got = {iface: {k: values(rows, entity=iface, section="link")[k] for k in want} for iface, want in wanted.items()}
    assert got == wanted and {r["entity"] for r in rows if r["section"] == "link"} == set(wanted)


def test_gopsutil_macos_tables_and_names_cut_to_five_characters():
    _, _, rows, _ = parse_file(BSD / "gopsutil_macos__netstat-ibdn__20250101T000000.out")
    # net/net_darwin_test.go TestParseNetstatOutput: 8 rows, link ids 1-4 on the link rows
    assert len({r["line_number"] for r in rows}) == 8
    links = {r["entity"]: r["text_value"] for r in rows if r["section"] == "link" and r["counter_name"] == "network"}
    assert links == {"lo0": "<Link#1>", "gif0*": "<Link#2>", "stf0*": "<Link#3>", "en0": "<Link#4>"}
    en0 = values(rows, entity="en0")
    assert (en0["rx_packets"], en0["rx_bytes"], en0["tx_packets"], en0["tx_bytes"], en0["tx_drops"]) == (
        5708989, 7295722068, 3494252, 379533492, 230)
    _, _, rows, _ = parse_file(BSD / "gopsutil_macos_truncated_names__netstat-ibdn__20250101T000000.out")
    # TestParseNetstatTruncated: utun8 stands for five interfaces, link ids 88, 90, 92, 93 and 95
    utun = {r["entity"]: r["value"] for r in rows if r["section"] == "link" and r["counter_name"] == "rx_bytes"
            and r["entity"].startswith("utun8")}
    assert utun == {"utun8 <Link#88>": 27175, "utun8 <Link#90>": 29554, "utun8 <Link#92>": 29244,
                    "utun8 <Link#93>": 28267, "utun8 <Link#95>": 28593}


def test_insights_rhel_netstat_s():
    _, ctx, rows, unparsed = parse_file(LINUX / "insights_rhel__netstat-s__20170101T000000.out")
    assert not ctx.rejects and not unparsed
    v = values(rows)
    # insights/tests/parsers/test_netstat.py test_netstat_s, in our (kernel MIB) names
    assert [v[k] for k in ("ip_in_receives", "ip_forw_datagrams", "ip_in_discards", "ip_in_delivers", "ip_out_requests",
                           "ip_out_discards", "ip_frag_oks", "ip_frag_creates")] == [
        3405107, 0, 0, 2900146, 2886201, 456, 4, 8]
    assert [v[k] for k in ("tcp_active_opens", "tcp_passive_opens", "tcp_attempt_fails", "tcp_estab_resets",
                           "tcp_curr_estab", "tcp_in_segs", "tcp_out_segs", "tcp_retrans_segs", "tcp_in_errs",
                           "tcp_out_rsts")] == [1648, 1525, 105, 69, 139, 2886370, 2890303, 428, 0, 212]
    assert [v[k] for k in ("udp_in_datagrams", "udp_no_ports", "udp_in_errors", "udp_out_datagrams",
                           "udp_rcvbuf_errors", "udp_sndbuf_errors")] == [4901, 107, 0, 1793, 0, 0]
    assert [v[k] for k in ("ipext_in_no_routes", "ipext_in_mcast_pkts", "ipext_in_bcast_pkts", "ipext_in_octets",
                           "ipext_out_octets", "ipext_in_mcast_octets", "ipext_in_bcast_octets")] == [
        9, 406, 517437, 865450302, 812810111, 12992, 46402081]
    assert (v["icmp_in_dest_unreachs"], v["icmpmsg_out_type3"], v["tcpext_delayed_ack_lost"]) == (107, 254, 9)
    assert (v["tcpext_tcp_loss_probes"], v["tcpext_tcp_spurious_rtx_host_queues"]) == (12, 3)


def test_insights_netstat_s_with_a_warning_and_a_stray_line():
    _, ctx, rows, unparsed = parse_file(LINUX / "insights_warning__netstat-s__20170101T000000.out")
    # insights/tests/parsers/test_netstat.py test_netstat_s_w: the Ip values, nothing else
    assert values(rows) == {"ip_in_receives": 6440, "ip_in_addr_errors": 3, "ip_forw_datagrams": 0,
                            "ip_in_discards": 0, "ip_in_delivers": 6437, "ip_out_requests": 4777}
    assert [u["line_text"] for u in unparsed] == ["error parsing /proc/net/netstat: No such file or directory",
                                                   "    three hundred and eighty eight packets glanced at"]
    assert not ctx.rejects and ctx.records_read == 3


def test_insights_netstat_i_with_the_metric_column():
    _, _, rows, _ = parse_file(LINUX / "insights_rhel__netstat-i__20170101T000000.out")
    # insights/tests/parsers/test_netstat.py test_get_netstat_i
    assert len({r["entity"] for r in rows}) == 7
    names = {"MTU": "mtu", "Met": "metric", "RX-OK": "rx_packets", "RX-ERR": "rx_errors", "RX-DRP": "rx_drops",
             "RX-OVR": "rx_overruns", "TX-OK": "tx_packets", "TX-ERR": "tx_errors", "TX-DRP": "tx_drops",
             "TX-OVR": "tx_overruns", "Flg": "flags"}
    for iface, expected in {
        "bond0": ("1500", "0", "845265", "0", "0", "0", "1753", "0", "0", "0", "BMmRU"),
        "eth0": ("1500", "0", "422518", "0", "0", "0", "1703", "0", "0", "0", "BMsRU"),
    }.items():
        got = values(rows, entity=iface)
        assert tuple(str(got[n]) if isinstance(got[n], str) else str(int(got[n])) for n in names.values()) == expected


def test_tcpmon_busy_server_netstat_s_beyond_32_bits():
    _, ctx, rows, unparsed = parse_file(LINUX / "tcpmon__netstat-s__20230901T000000.out")
    assert not ctx.rejects and not unparsed
    v = values(rows)
    # zperf/tcpmon test/cmd_netstat_test.go TestParseNetstat, in our (kernel MIB) names
    assert [v[k] for k in ("ip_in_receives", "ip_forw_datagrams", "ip_in_discards", "ip_in_delivers",
                           "ip_out_requests", "ip_out_discards")] == [12984693843, 0, 0, 12975893623, 11393863778, 2960]
    assert [v[k] for k in ("tcp_active_opens", "tcp_passive_opens", "tcp_attempt_fails", "tcp_estab_resets",
                           "tcp_curr_estab", "tcp_in_segs", "tcp_out_segs", "tcp_retrans_segs", "tcp_in_errs",
                           "tcp_out_rsts")] == [49845605, 46253346, 6129349, 2184394, 892, 12596717510, 31113950007,
                                                48107538, 27, 11229045]
    assert [v[k] for k in ("udp_in_datagrams", "udp_no_ports", "udp_in_errors", "udp_out_datagrams",
                           "udp_rcvbuf_errors", "udp_sndbuf_errors")] == [196786471, 6480, 68957158, 265752378,
                                                                          68957158, 0]


def test_genie_junos_system_statistics():
    _, ctx, rows, unparsed = parse_file(BSD / "genie_junos__show-system-statistics__20200101T000000.out")
    assert not ctx.rejects
    v = values(rows)
    # genieparser junos/tests/test_show_system.py, golden_parsed_output_1 of 'show system statistics'
    assert (v["tcp_out_segs"], v["tcp_packets_sent_window_update_packets"], v["tcp_in_segs"]) == (
        265063785, 3986235, 568914028)
    assert (v["tcp_syncache_entries_added"], v["tcp_syncache_entries_added_stale"]) == (1283, 15)
    assert [v[k] for k in ("udp_datagrams_received", "udp_delivered", "udp_dropped_due_to_full_socket_buffers",
                           "udp_dropped_due_to_no_socket", "udp_datagrams_output")] == [
        86628897, 86615318, 26, 13553, 98245187]
    assert [v[k] for k in ("ttp_packets_sent", "ttp_l2_packets_received", "ttp_ipv4_l3_packets_received",
                           "ttp_ipv6_l3_packets_received")] == [185307601, 56842, 83525851, 100720250]
    assert (v["tnp_broadcast_packets_received"], v["tnp_hello_packets_sent"]) == (18139196, 18140767)
    # its two 'Output/Input Histogram' blocks stay apart; its three 'pfkey:' blocks are three sections
    assert (v["icmp_output_histogram_echo_reply"], v["icmp_input_histogram_echo_reply"]) == (18108704, 15)
    assert (v["pfkey_histogram_by_message_type_dump"], v["pfkey_2_histogram_by_message_type_dump"],
            v["pfkey_3_messages_toward_single_socket"]) == (626, 10626, 22500)
    # the echoed command, and the second 'Hello packets dropped'/'Fragments dropped' of tnp: kept, not counted twice
    assert [u["line_number"] for u in unparsed] == [1, 549, 550]
