"""VM/MVS NETSTAT POOLSIZE, DEVLINKS and GATE (real, Cisco tech note 12989-69) and z/OS NETSTAT STATS."""

from __future__ import annotations

from command_helpers import GOLDEN, parse_file, values

ZOS = GOLDEN / "zos"

POOLS = {  # object: (# alloc, # free, Lo-water, Permit size), as printed
    "ACB": (1000, 997, 993, 100), "CCB": (150, 129, 129, 10), "Dat buf": (160, 157, 157, 32),
    "Sm dat buf": (0, 0, 0, 1), "Tiny dat buf": (0, 0, 0, 0), "Env": (750, 750, 730, 75),
    "Lrg env": (50, 49, 49, 10), "RCB": (50, 50, 50, 3), "SCB": (256, 237, 236, 17),
    "SKCB": (256, 256, 256, 17), "TCB": (256, 254, 254, 17), "UCB": (100, 100, 99, 6),
}


def _pools(rows):
    return {
        entity: tuple(values(rows, entity=entity)[k] for k in ("allocated", "free", "low_water", "permit_size"))
        for entity in {r["entity"] for r in rows}
    }


def test_poolsize_collapsed_real_copy_and_relined_copy_agree():
    _, ctx, collapsed, _ = parse_file(ZOS / "mvs1__netstat-poolsize__19990224T100000.out")
    _, _, relined, _ = parse_file(ZOS / "mvs1_poolsize_relined.out")
    assert not ctx.rejects and len(collapsed) == 48
    assert _pools(collapsed) == _pools(relined) == POOLS
    assert {r["kind"] for r in collapsed} == {"gauge"}


def test_devlinks_real_copy():
    _, _, rows, _ = parse_file(ZOS / "mvs1__netstat-devlinks__19990224T100000.out")
    assert values(rows, entity="CIP1") == {"type": "CLAW", "status": "Ready", "queue_size": 0, "address": "0580"}
    assert values(rows, entity="CIP1 CHIP1") == {"type": "IP", "net_number": 1}


def test_devlinks_z_os_key_spellings(tmp_path):
    f = tmp_path / "ZOS1__netstat-d__20260105T100000.out"
    f.write_text("MVS TCP/IP NETSTAT CS V2R1       TCPIP Name: TCPCS           10:00:00\n"
                 "DevName: OSAQDIO1          DevType: MPCIPA\n"
                 "  DevStatus: Not Active\n"
                 "  LnkName: OSAQDIOL1       LnkType: IPAQENET     LnkStatus: Ready\n")
    _, ctx, rows, _ = parse_file(f)
    assert not ctx.rejects
    assert values(rows, entity="OSAQDIO1") == {"type": "MPCIPA", "status": "Not Active"}
    assert values(rows, entity="OSAQDIO1 OSAQDIOL1") == {"type": "IPAQENET", "status": "Ready"}


def test_gate_real_copy():
    _, _, rows, _ = parse_file(ZOS / "mvs1__netstat-gate__19990224T100000.out")
    assert values(rows, entity="Default") == {"packet_size": 1500, "first_hop": "128.207.161.1", "link": "CHIP1",
                                              "subnet_mask": "{none}"}
    assert values(rows, entity="128.207.0.0")["subnet_value"] == "0.0.161.0"


def test_stats_sections_stack_and_conformed_tcp_names():
    _, ctx, rows, _ = parse_file(ZOS / "zos1_netstat_stats.out")
    assert not ctx.rejects and ctx.records_read == 2 and len(rows) == 2 * 33
    first = values(rows, 0, entity="TCPCS")
    assert (first["tcp_in_segs"], first["tcp_out_segs"], first["tcp_retrans_segs"]) == (1731120, 1502233, 1822)
    assert (first["tcp_curr_estab"], first["tcp_out_rsts"], first["udp_no_port_errors"]) == (412, 512, 120)
    assert (first["icmpv4_echo_request_received"], first["icmpv4_echo_request_sent"]) == (10, 3)
    second = values(rows, 1, entity="TCPCS")
    assert (second["tcp_in_segs"], second["tcp_retrans_segs"]) == (1745120, 1943)
    kinds = {r["counter_name"]: r["kind"] for r in rows}
    assert kinds["tcp_curr_estab"] == "gauge" and kinds["tcp_in_segs"] == "counter"


def test_stats_truncated_report_is_rejected(tmp_path):
    text = (ZOS / "zos1_netstat_stats.out").read_text()
    f = tmp_path / "stats.log"
    f.write_text(text.replace("  Output Requests                      = 1611002\n",
                              "REPORT TRUNCATED DUE TO GREATER THAN 65533 LINES OF OUTPUT\n", 1))
    _, ctx, rows, _ = parse_file(f)
    (reject,) = ctx.rejects
    assert reject.line == 11 and "truncated by NETSTAT" in reject.reason
    assert {r["record_ordinal"] for r in rows} == {1}
