"""rpt_aix_host_memory: seed 002's thewall for channel attachment (002-R21, L1089: "This should be set to 25% of
memory"), per host, from its no -a and lsattr -El sys0 listings joined with a CS/AIX listing that shows it
channel-attached (an ESCON or BLKMUX link station, L1047). The document's own channel test rigs ran thewall at
16 MB (16,384 KB) on 256 MB machines (L969, L1111): 6.25 %, which fires; 64 MB on the same RAM is the advised
quarter and does not; a host on a LAN only is not judged, whatever its thewall."""

from __future__ import annotations

import pytest

from listings.shared import RAM_KB
from read_only_db import dict_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(network_listings):
    """What tests/listings/shared.py's host_memory() lands, in the warehouse the network marts' tests share."""
    return network_listings.db


def test_thewall_below_a_quarter_of_ram_fires_on_a_channel_attached_host_only(db):
    rows = {r["system_name"]: (r["rule_id"], r["channel_station"], r["thewall_kb"], r["ram_kb"],
                               round(r["thewall_ram_pct"], 2), r["limit_kb"], r["fired"])
            for r in dict_rows(db, "select * from marts.rpt_aix_host_memory")}
    assert rows == {
        "rig": ("002-R21", "rig-host", 16384, RAM_KB, 6.25, 65536, True),
        "tuned": ("002-R21", "tuned-host", 65536, RAM_KB, 25.0, 65536, False),
    }
