"""rpt_paging_space: the clause "paging space %used rising" of seed 002's 002-R23 (L412, L428) on lsps -a captures
(L830), day by day: a day whose highest %Used is above the previous day's fires; a flat or falling day does not;
a host's first day has nothing to compare with, and an NFS paging space (NaNQ) no use to compare."""

from __future__ import annotations

import pytest

from read_only_db import dict_rows

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def db(network_listings):
    """What tests/listings/shared.py's paging_space() lands, in the warehouse the network marts' tests share."""
    return network_listings.db


def test_a_day_whose_paging_space_use_rises_above_the_day_before_fires(db):
    rows = [(str(r["day"]), r["paging_space"], r["used_pct_peak"], r["previous_used_pct_peak"], r["fired"])
            for r in dict_rows(db, "select * from marts.rpt_paging_space order by day")]
    assert rows == [("2026-01-06", "hd6", 1, 1, False), ("2026-01-07", "hd6", 4, 1, True),
                    ("2026-01-08", "hd6", 3, 4, False)]
