"""rpt_aix_host_memory: seed 002's thewall for channel attachment (002-R21, L1089: "This should be set to 25% of
memory"), per host, from its no -a and lsattr -El sys0 listings joined with a CS/AIX listing that shows it
channel-attached (an ESCON or BLKMUX link station, L1047). The document's own channel test rigs ran thewall at
16 MB (16,384 KB) on 256 MB machines (L969, L1111): 6.25 %, which fires; 64 MB on the same RAM is the advised
quarter and does not; a host on a LAN only is not judged, whatever its thewall."""

from __future__ import annotations

import pytest

from listings.findings import listings_warehouse
from read_only_db import dict_rows

pytestmark = pytest.mark.slow

STAMP = "20260105T060000"
RAM_KB = 262144  # 256 MB, the J30s of the document's tests (L967), as lsattr -El sys0 prints realmem in KB
HOSTS = {  # host: (thewall in KB, its CS/AIX link station and DLC)
    "rig": (16384, ("rig-host", "ESCON")),
    "tuned": (65536, ("tuned-host", "BLKMUX")),
    "lanonly": (16384, ("lanonly-ncp", "TR")),
}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    def landed(home):
        paths = []
        for host, (thewall, (station, dlc)) in HOSTS.items():
            files = {
                f"{host}__no-a__{STAMP}.out": f"{'thewall':>25} = {thewall}\n{'sb_max':>25} = 1048576\n",
                f"{host}__lsattr-El-sys0__{STAMP}.out":
                    f"{'keylock':<13} {'normal':<14} {'State of system keylock at boot time':<44} False\n"
                    f"{'realmem':<13} {RAM_KB:<14} {'Amount of usable physical memory in Kbytes':<44} False\n",
                f"{host}__csaix-listing__{STAMP}.csv": f"node,parameter,value\n{station},dlc_type,{dlc}\n",
            }
            for name, text in files.items():
                path = home.landing / name
                path.write_text(text, encoding="utf-8")
                paths.append(path)
        return paths

    yield from listings_warehouse(tmp_path_factory.mktemp("aix_memory_dbt"), landed, ["loaded"] * 9,
                                  "rpt_aix_host_memory")


def test_thewall_below_a_quarter_of_ram_fires_on_a_channel_attached_host_only(db):
    rows = {r["system_name"]: (r["rule_id"], r["channel_station"], r["thewall_kb"], r["ram_kb"],
                               round(r["thewall_ram_pct"], 2), r["limit_kb"], r["fired"])
            for r in dict_rows(db, "select * from marts.rpt_aix_host_memory")}
    assert rows == {
        "rig": ("002-R21", "rig-host", 16384, RAM_KB, 6.25, 65536, True),
        "tuned": ("002-R21", "tuned-host", 65536, RAM_KB, 25.0, 65536, False),
    }
