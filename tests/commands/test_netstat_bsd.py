"""BSD/macOS netstat -i and -ib against jc's golden JSON (every interface table under the jc oracle)."""

from __future__ import annotations

import json
import shutil
from collections import defaultdict

import pytest

from command_helpers import JC_ORACLES, parse_file

# jc field -> our counter_name
JC_NAMES = {"mtu": "mtu", "network": "network", "address": "address", "ipkts": "rx_packets",
            "ierrs": "rx_errors", "idrop": "rx_drops", "ibytes": "rx_bytes", "opkts": "tx_packets",
            "oerrs": "tx_errors", "obytes": "tx_bytes", "coll": "collisions"}


@pytest.mark.parametrize("oracle", ["freebsd12/netstat-i", "freebsd12/netstat-ib", "osx-10.14.6/netstat-i"])
def test_interface_table_matches_jc(tmp_path, oracle):
    source = JC_ORACLES / f"{oracle}.out"
    f = tmp_path / f"{oracle.split('/')[0]}__netstat-i__20200101T000000.out"
    shutil.copy(source, f)
    _, ctx, rows, _ = parse_file(f)
    assert not ctx.rejects and ctx.records_read == 1 and rows
    by_line = defaultdict(dict)
    for r in rows:
        by_line[r["line_number"]]["iface"] = r["entity"].split()[0]
        by_line[r["line_number"]][r["counter_name"]] = r["text_value"] if r["kind"] == "text" else r["value"]
    expected = json.loads(source.with_suffix(".json").read_text())
    got = [by_line[line] for line in sorted(by_line)]
    assert len(got) == len(expected)
    for ours, theirs in zip(got, expected):
        assert ours["iface"] == theirs["iface"]
        for jc, name in JC_NAMES.items():
            if jc in theirs:
                assert ours.get(name) == theirs[jc], (theirs["iface"], jc)


def test_link_and_address_rows_and_the_b_variant(tmp_path):
    f = tmp_path / "freebsd12__netstat-ib__20200101T000000.out"
    shutil.copy(JC_ORACLES / "freebsd12" / "netstat-ib.out", f)
    _, _, rows, _ = parse_file(f)
    assert {r["command"] for r in rows} == {"netstat -ib"}
    links = {r["entity"] for r in rows if r["section"] == "link"}
    addresses = {r["entity"] for r in rows if r["section"] == "address"}
    assert links == {"em0", "lo0"}
    assert addresses == {"em0 fe80::%em0/64 fe80::20c:29ff:fe", "em0 192.168.71.0/ 192.168.71.163",
                         "lo0 localhost localhost", "lo0 fe80::%lo0/64 fe80::1%lo0", "lo0 your-net localhost"}
    rx_bytes = {r["entity"]: r["value"] for r in rows if r["counter_name"] == "rx_bytes"}
    assert rx_bytes["em0"] == 372538087 and rx_bytes["em0 192.168.71.0/ 192.168.71.163"] == 68178099


def test_a_row_with_a_word_for_a_count_is_kept_and_the_other_rows_load(tmp_path):
    text = (JC_ORACLES / "freebsd12" / "netstat-i.out").read_text()
    f = tmp_path / "bsd.log"
    f.write_text("# captured: 2026-01-05T10:00:00 host: bsd1\n" + text.replace("189449", "lots")
                 + "# captured: 2026-01-05T10:05:00 host: bsd1\n" + text)
    _, ctx, rows, unparsed = parse_file(f)
    assert not ctx.rejects and ctx.records_read == 3
    (kept,) = unparsed
    assert (kept["record_ordinal"], kept["line_number"]) == (0, 3) and "lots" in kept["line_text"]
    assert kept["reason"] == "expected name, MTU, network, [address] and 6 whole numbers or '-' (Ipkts Ierrs Idrop Opkts Oerrs Coll)"
    shift = len(text.splitlines()) + 1  # the second capture's lines come after the first's and its header
    damaged, intact = ({(r["line_number"] - k * shift, r["counter_name"]): r["value"] for r in rows
                        if r["record_ordinal"] == k} for k in (0, 1))
    # only the damaged row's counters are missing; every other row's are there with the same values
    assert {key for key in intact if key[0] == 3} == intact.keys() - damaged.keys()
    assert all(intact[key] == value for key, value in damaged.items())
