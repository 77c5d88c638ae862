"""Linux netstat -s and netstat -i: recorded captures of the development machine, jc's golden output."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from command_helpers import GOLDEN, JC_ORACLES, parse_file, values
from ingest.formats.netstat.linux_s import digit_runs

LINUX = GOLDEN / "linux"
SINGLE_S = LINUX / "devbox__netstat-s__20261121T063246.out"
REAL_S = SINGLE_S.read_text()


def test_netstat_s_values_of_the_recorded_capture():
    _, ctx, rows, _ = parse_file(SINGLE_S)
    v = values(rows)
    assert len(rows) == 54 and ctx.records_read == 1
    assert {k: v[k] for k in ("tcp_active_opens", "tcp_passive_opens", "tcp_attempt_fails", "tcp_estab_resets",
                              "tcp_curr_estab", "tcp_in_segs", "tcp_out_segs", "tcp_retrans_segs", "tcp_in_errs",
                              "tcp_out_rsts")} == {
        "tcp_active_opens": 516, "tcp_passive_opens": 298, "tcp_attempt_fails": 11, "tcp_estab_resets": 5,
        "tcp_curr_estab": 2, "tcp_in_segs": 54204, "tcp_out_segs": 23582, "tcp_retrans_segs": 0,
        "tcp_in_errs": 0, "tcp_out_rsts": 413,
    }
    assert v["ip_in_receives"] == 54681 and v["ip_forwarding"] == 2 and v["ip_out_transmits"] == 24128
    assert v["icmp_in_dest_unreachs"] == 1 and v["icmpmsg_in_type3"] == 1 and v["icmp_out_msgs"] == 0
    assert v["tcpext_delayed_ack_lost"] == 74 and v["tcpext_tw_recycled"] == 1 and v["tcpext_tcp_timeouts"] == 2
    assert v["ipext_in_octets"] == 1054582834 and v["udp_out_datagrams"] == 747
    kinds = {r["counter_name"]: (r["kind"], r["unit"], r["section"]) for r in rows}
    assert kinds["tcp_curr_estab"] == ("gauge", "count", "Tcp")
    assert kinds["tcp_retrans_segs"] == ("counter", "segments", "Tcp")
    assert kinds["ipext_in_octets"] == ("counter", "bytes", "IpExt")
    labels = {r["counter_name"]: r["counter"] for r in rows}
    assert labels["tcpext_delayed_ack_lost"] == "Quick ack mode was activated # times"
    assert labels["icmp_in_dest_unreachs"] == "ICMP input histogram: destination unreachable: #"


def test_every_value_is_the_number_printed_on_its_line():
    lines = (LINUX / "devbox_netstat_s_log.out").read_text().splitlines()
    _, _, rows, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    for r in rows:
        line = lines[r["line_number"] - 1].strip()
        assert re.sub(r"(?<![\w])\d+(?![\w])", "#", line, count=1) == r["counter"].split("histogram: ")[-1]
        assert f"{int(r['value'])}" in re.findall(r"\d+", line)


def test_captures_read_through_the_layout_cache_equal_captures_read_alone(tmp_path):
    _, _, logged, _ = parse_file(LINUX / "devbox_netstat_s_log.out")
    text = (LINUX / "devbox_netstat_s_log.out").read_text()
    parts = re.split(r"(?m)^(?=# captured:)", text)[1:]
    for k, part in enumerate(parts):
        f = tmp_path / f"capture{k}.txt"
        f.write_text(part)
        _, _, alone, _ = parse_file(f)
        offset = text[: text.index(part)].count("\n")
        expected = [dict(r, record_ordinal=0, line_number=r["line_number"] - offset)
                    for r in logged if r["record_ordinal"] == k]
        assert alone == expected


def test_old_net_tools_spellings_get_the_same_names(tmp_path):
    f = tmp_path / "old.txt"
    f.write_text("# captured: 2026-01-05T10:00:00 host: old\n" + REAL_S
                 .replace("0 segments retransmitted", "428 segments retransmited")
                 .replace("516 active connection openings", "516 active connections openings")
                 .replace("23582 segments sent out", "23582 segments send out"))
    _, _, rows, _ = parse_file(f)
    v = values(rows)
    assert (v["tcp_retrans_segs"], v["tcp_active_opens"], v["tcp_out_segs"]) == (428, 516, 23582)


@pytest.mark.parametrize(
    "damage, line, text, reason, lost",
    [
        (lambda t: t.replace("54204 segments received", "54x04 segments received"), 25, "    54x04 segments received",
         "in section Tcp: expected '<number> <text>', '<Name>: <number>' or a sub-title ending in ':'", "tcp_in_segs"),
        (lambda t: t.replace("Udp:\n", "Udp:\nerror parsing /proc/net/snmp: Success\n"), 31,
         "error parsing /proc/net/snmp: Success", "expected a section title such as 'Tcp:' at column 0", None),
        # the stray line of Red Hat insights-core's netstat -s test (insights/tests/parsers/test_netstat.py)
        (lambda t: t.replace("Icmp:\n", "    three hundred and eighty eight packets glanced at\nIcmp:\n"), 9,
         "    three hundred and eighty eight packets glanced at",
         "in section Ip: expected '<number> <text>', '<Name>: <number>' or a sub-title ending in ':'", None),
    ],
    ids=["non-numeric value", "net-tools warning between sections", "stray text in a section"],
)
def test_a_line_not_understood_is_kept_and_the_rest_of_its_capture_loads(tmp_path, damage, line, text, reason, lost):
    f = tmp_path / "web01.log"
    header = "# captured: 2026-01-05T10:{:02d}:00 host: web01\n"
    f.write_text(header.format(0) + damage(REAL_S) + header.format(5) + REAL_S)
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects
    assert [(u["record_ordinal"], u["line_number"], u["line_text"], u["reason"]) for u in unparsed] == [
        (0, line + 1, text, reason)]  # + 1: the header line
    assert ctx.records_read == 3  # two captures and the line kept
    damaged, intact = values(rows, 0), values(rows, 1)
    assert len(intact) == 54 and {k: v for k, v in intact.items() if k != lost} == damaged


def test_a_tcp_section_cut_short_rejects_its_capture_only(tmp_path):
    f = tmp_path / "web01.log"
    cut = REAL_S[: REAL_S.index("    23582 segments sent out")]
    f.write_text("# captured: 2026-01-05T10:00:00 host: web01\n" + cut + "# captured: 2026-01-05T10:05:00 host: web01\n"
                 + REAL_S)
    _, ctx, rows, unparsed = parse_file(f)
    assert {r["record_ordinal"] for r in rows} == {1} and len(rows) == 54 and not unparsed
    (reject,) = ctx.rejects
    assert (reject.line, reject.record_ordinal) == (26, 0)
    assert "the Tcp section lacks OutSegs, RetransSegs, InErrs, OutRsts: truncated capture" in reject.reason
    assert ctx.records_read == 2


def test_a_capture_without_a_tcp_section_is_not_truncated(tmp_path):
    """``netstat -su`` prints the Udp sections only."""
    f = tmp_path / "web01__netstat-su__20260105T100000.txt"
    f.write_text(REAL_S[REAL_S.index("Udp:"):REAL_S.index("UdpLite:")])
    _, ctx, rows, _ = parse_file(f)
    assert not ctx.rejects and values(rows) == {"udp_in_datagrams": 476, "udp_no_ports": 0, "udp_in_errors": 0,
                                                "udp_out_datagrams": 747, "udp_rcvbuf_errors": 0,
                                                "udp_sndbuf_errors": 0}


def test_netstat_i_recorded_log():
    _, ctx, rows, _ = parse_file(LINUX / "devbox_netstat_i_log.out")
    assert ctx.records_read == 4 and len(rows) == 4 * 2 * 10  # 4 captures, 2 interfaces
    assert values(rows, 2, entity="lo") == {
        "mtu": 65536, "rx_packets": 2879, "rx_errors": 0, "rx_drops": 0, "rx_overruns": 0, "tx_packets": 2879,
        "tx_errors": 0, "tx_drops": 0, "tx_overruns": 0, "flags": "LRU",
    }
    assert values(rows, 3, entity="eth0")["rx_packets"] == 50347
    assert {r["command"] for r in rows} == {"netstat -i"} and {r["section"] for r in rows} == {"link"}


def test_netstat_i_matches_jc_on_centos(tmp_path):
    oracle = JC_ORACLES / "centos-7.7"
    f = tmp_path / "centos__netstat-i__20200101T000000.out"
    shutil.copy(oracle / "netstat-i.out", f)
    _, _, rows, _ = parse_file(f)
    names = {"rx_ok": "rx_packets", "rx_err": "rx_errors", "rx_drp": "rx_drops", "rx_ovr": "rx_overruns",
             "tx_ok": "tx_packets", "tx_err": "tx_errors", "tx_drp": "tx_drops", "tx_ovr": "tx_overruns",
             "mtu": "mtu", "flg": "flags"}
    for expected in json.loads((oracle / "netstat-i.json").read_text()):
        got = values(rows, entity=expected["iface"])
        assert {jc: got[ours] for jc, ours in names.items()} == {jc: expected[jc] for jc in names}
    assert len({r["entity"] for r in rows}) == 3


def test_a_label_differing_only_in_its_digits_is_not_read_with_the_other_layout(tmp_path):
    f = tmp_path / "web01.log"
    other = REAL_S.replace("InType3: 1", "InType8: 1")  # the same text once digits are removed
    f.write_text("".join(f"# captured: 2026-01-05T10:0{k}:00 host: web01\n{text}"
                         for k, text in enumerate([REAL_S, REAL_S, other])))
    _, ctx, rows, _ = parse_file(f)
    assert not ctx.rejects
    assert [sorted(n for n in values(rows, k) if n.startswith("icmpmsg")) for k in range(3)] == [
        ["icmpmsg_in_type3"], ["icmpmsg_in_type3"], ["icmpmsg_in_type8"]]


def test_digit_runs_reads_every_number_of_a_block():
    block = b"Tcp:\n    0 resets\n    InOctets: 696733790517\n9\nInType3: 12345678901234567890123"
    starts, numbers = digit_runs(block)
    assert [block[s:s + 1] for s in starts] == [b"0", b"6", b"9", b"3", b"1"]  # runs start on their first digit
    # the 23-digit run is beyond int64 and read on its own
    assert numbers.tolist() == [0.0, 696733790517.0, 9.0, 3.0, 12345678901234567890123.0]
    assert [a.tolist() for a in digit_runs(b"no digits")] == [[], []]
