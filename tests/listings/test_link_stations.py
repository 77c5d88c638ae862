"""rpt_link_stations: seed 002's rules on both ends of a link (002-R13, 002-F11: L755-L757, L920) and on a network
node's ports (002-R25: L567-L569), across listings. The document's experiment fixed the sender's transmit window
count at 32 and found throughput dropping once the receiver's receive window count exceeded it (L764-L768): a
receiver granting 64 fires, one granting 16 does not; a network node whose ports carry 4,000- and 4,105-byte
I-fields (L942-L946) fires, one whose ports match does not; of a link's two frame sizes the smaller end fires
(seed 000's R16, L435-L439)."""

from __future__ import annotations

import pytest

from read_only_db import dict_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(network_listings):
    """What tests/listings/shared.py's link_stations() lands, in the warehouse the network marts' tests share."""
    return network_listings.db


def test_a_receiver_granting_more_than_its_partner_transmits_fires(db):
    rows = {(r["rule_id"], r["node"]): (r["partner_node"], r["value"], r["limit_value"], r["fired"])
            for r in dict_rows(db, "select * from marts.rpt_link_stations where rule_id in ('002-R13', '002-F11')")}
    for rule_id in ("002-R13", "002-F11"):
        assert {node: got for (rule, node), got in rows.items() if rule == rule_id} == {
            "nodea-nodeb": ("nodeb-nodea", 16, 32, False), "nodeb-nodea": ("nodea-nodeb", 64, 32, True)}


def test_a_network_node_whose_ports_carry_different_frames_fires_on_each(db):
    for rule_id in ("002-R25", "002-F17"):
        rows = {r["node"]: (r["value"], r["limit_value"], r["fired"])
                for r in dict_rows(db, f"select * from marts.rpt_link_stations where rule_id = '{rule_id}'")}
        # nodea is an end node: its port is not judged
        assert rows == {"nodeb-nodea": (4105, 4105, False), "nodeb-nodec": (4105, 4105, False),
                        "nodec-nodeb": (4000, 4105, True), "nodec-noded": (4105, 4000, True)}, rule_id


def test_the_smaller_frame_of_a_link_fires_on_its_end(db):
    # seed 000 L435-L439: of two frame sizes the lesser is used; B's 4105 toward C meets C's 4000, A and B match
    rows = {r["node"]: (r["partner_node"], r["value"], r["limit_value"], r["fired"])
            for r in dict_rows(db, "select * from marts.rpt_link_stations where rule_id = '000-R16'")}
    assert rows == {"nodea-nodeb": ("nodeb-nodea", 4105, 4105, False), "nodeb-nodea": ("nodea-nodeb", 4105, 4105, False),
                    "nodeb-nodec": ("nodec-nodeb", 4105, 4000, False), "nodec-nodeb": ("nodeb-nodec", 4000, 4105, True)}
