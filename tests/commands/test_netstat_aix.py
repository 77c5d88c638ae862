"""AIX netstat -m (IBM documentation example) and netstat -v (three real adapter records)."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file, values

AIX = GOLDEN / "aix"


def test_netstat_m_documentation_example():
    _, ctx, rows, _ = parse_file(AIX / "aixdoc__netstat-m__20260105T100000.out")
    assert ctx.records_read == 1 and len(rows) == 4 * 7  # one capture, 28 counters
    assert values(rows, section="CPU 0", entity="256") == {
        "inuse": 1064, "calls": 5331, "failed": 0, "delayed": 0, "free": 1384, "hiwat": 1392, "freed": 42,
    }
    kinds = {r["counter_name"]: r["kind"] for r in rows}
    assert kinds == {"inuse": "gauge", "calls": "counter", "failed": "counter", "delayed": "counter",
                     "free": "gauge", "hiwat": "gauge", "freed": "counter"}


def test_netstat_m_summary_lines_and_a_row_cut_short(tmp_path):
    doc = (AIX / "aixdoc__netstat-m__20260105T100000.out").read_text()
    f = tmp_path / "aix1.log"
    f.write_text(
        "# captured: 2026-01-05T10:00:00 host: aix1\n"
        "1024 mbufs in use:\n3 requests for mbufs denied\n0 calls to protocol drain routines\n" + doc
        + "# captured: 2026-01-05T10:05:00 host: aix1\n" + doc + "512                  33 \n"
    )
    _, ctx, rows, unparsed = parse_file(f)
    summary = values(rows, section="summary")
    assert summary == {"mbufs_in_use": 1024, "requests_for_mbufs_denied": 3, "calls_to_protocol_drain_routines": 0}
    assert {r["counter_name"]: r["kind"] for r in rows if r["section"] == "summary"}["mbufs_in_use"] == "gauge"
    # the row cut short is kept and counted; the four rows above it in the same capture load
    assert not ctx.rejects and ctx.records_read == 3
    (cut,) = unparsed
    assert (cut["record_ordinal"], cut["line_number"]) == (1, 26)  # 1 header + 3 summary + 10 doc + header + 10 doc + 1
    assert cut["line_text"] == "512                  33 "
    assert cut["reason"] == "CPU 0: expected a key and 7 whole numbers (inuse calls failed delayed free hiwat freed)"
    assert values(rows, 1, section="CPU 0", entity="256")["calls"] == 5331


def test_netstat_v_physical_adapter():
    _, ctx, rows, _ = parse_file(AIX / "snapper_netstat_v.out")
    assert not ctx.rejects and ctx.records_read == 1 and len(rows) == 237
    ent2 = values(rows, entity="ent2")
    assert (ent2["tx_packets"], ent2["rx_packets"], ent2["tx_bytes"], ent2["rx_bytes"]) == (241295, 238619, 1995516069, 18097146)
    assert (ent2["rx_interrupts"], ent2["rx_bad_packets"], ent2["tx_broadcast_packets"]) == (155955, 0, 76)
    assert (ent2["max_packets_on_sw_transmit_queue"], ent2["adapter_reset_count"], ent2["adapter_data_rate"]) == (3, 1, 2000)
    assert ent2["driver_flags"] == "Up Broadcast Running Simplex Promiscuous 64BitSupport ChecksumOffload LargeSend DataRateSet"
    assert ent2["tcp_segmentation_offload_packets_transmitted"] == 121748
    assert ent2["media_speed_running"] == "1000 Mbps Full Duplex"
    kinds = {r["counter_name"]: r["kind"] for r in rows if r["entity"] == "ent2"}
    assert kinds["rx_crc_errors"] == "counter" and kinds["current_sw_hw_transmit_queue_length"] == "gauge"
    assert kinds["hardware_address"] == "text"


def test_netstat_v_vio_and_vlan_records():
    _, _, rows, _ = parse_file(AIX / "snapper_netstat_v.out")
    ent4 = values(rows, entity="ent4")
    assert (ent4["tx_errors"], ent4["tx_drops"], ent4["rx_bytes"]) == (312738086, 312738102, 58363966969519)
    assert (ent4["hypervisor_send_failures"], ent4["invalid_vlan_id_packets"]) == (3504348, 312738106)
    assert ent4["vlan_tag_ids"] == "205   298   299  1510  1600  1601  3520  3521  3551 3552  3820  3832"
    small = values(rows, entity="ent4 Small")
    assert small["receive_information_receive_buffers_history_max_allocated"] == 791
    assert small["receive_information_receive_buffers_max_buffers"] == 2048
    ent13 = values(rows, entity="ent13")
    assert ent13["device_type"] == ""
    # 0 days 19 hours 55 minutes 41 seconds, then the partial reset's own elapsed time
    assert (ent13["elapsed_s"], ent13["elapsed_since_partial_reset_s"]) == (71741, 0)
    assert (ent13["rx_errors"], ent13["rx_drops"], ent13["rx_packets_discarded_by_adapter"]) == (116277, 2288, 116274)


def test_netstat_v_truncated_record_is_rejected(tmp_path):
    text = (AIX / "snapper_netstat_v.out").read_text().split("\n", 1)[1]
    cut = text[: text.index("General Statistics:")]
    f = tmp_path / "aix1.log"
    f.write_text("# captured: 2026-01-05T10:00:00 host: aix1\n" + cut
                 + "# captured: 2026-01-05T10:05:00 host: aix1\n" + text)
    _, ctx, rows, _ = parse_file(f)
    (reject,) = ctx.rejects
    assert reject.line == 2 and "adapter ent2: record has no 'General Statistics:' block (truncated capture?)" in reject.reason
    assert {r["record_ordinal"] for r in rows} == {1}
