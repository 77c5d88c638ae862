"""rpt_mode_consistency: seed 000's R14 (L370-L413) across the listings loaded. The document's example fires: CM/2
asks for #BATCH RUs of 8,192 bytes while VTAM, with no #BATCH entry for CICS, binds with its 256-byte default
(L407-L412); a mode defined alike on two nodes does not, nor does one whose size is computed at bind (*CALC), and
a mode one node defines is not compared."""

from __future__ import annotations

import pytest

from read_only_db import dict_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(network_listings):
    """What tests/listings/shared.py's modes() lands, in the warehouse the network marts' tests share."""
    return network_listings.db


def test_a_mode_defined_differently_fires_on_each_definition_and_one_defined_alike_does_not(db):
    rows = {r["node"]: r for r in dict_rows(db, "select * from marts.rpt_mode_consistency")}
    # #BATCHSC is defined once: nothing to compare
    assert set(rows) == {"CM2/#BATCH", "CICS/#BATCH", "CM2/#INTER", "CICS/#INTER", "AS4A/#INTERSC", "CM2/#INTERSC"}
    assert {node: (r["mode_name"], r["ru_bytes"], r["pacing_window"], r["fired"]) for node, r in rows.items()} == {
        "CM2/#BATCH": ("#BATCH", 8192, 63, True), "CICS/#BATCH": ("#BATCH", 256, 63, True),
        # X'87' = 8 x 2**7 = 1024 bytes (L904-L906): the same mode as CM/2's
        "CM2/#INTER": ("#INTER", 1024, 24, False), "CICS/#INTER": ("#INTER", 1024, 24, False),
        "AS4A/#INTERSC": ("#INTERSC", None, None, False), "CM2/#INTERSC": ("#INTERSC", 4096, None, False),
    }
    assert (rows["CICS/#BATCH"]["min_ru_bytes"], rows["CICS/#BATCH"]["max_ru_bytes"]) == (256, 8192)
    assert {r["system_name"] for r in rows.values()} == {"CM2", "CICS", "AS4A"}
