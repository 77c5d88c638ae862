"""rpt_paging_space: the clause "paging space %used rising" of seed 002's 002-R23 (L412, L428) on lsps -a captures
(L830), day by day: a day whose highest %Used is above the previous day's fires; a flat or falling day does not;
a host's first day has nothing to compare with, and an NFS paging space (NaNQ) no use to compare."""

from __future__ import annotations

import pytest

from listings.findings import listings_warehouse
from read_only_db import dict_rows

pytestmark = pytest.mark.slow

HEADING = "Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum\n"
USED = {"2026-01-05": (1, 1), "2026-01-06": (1, 1), "2026-01-07": (2, 4), "2026-01-08": (3, 2)}  # two captures a day


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    def landed(home):
        text = ""
        for day, used in USED.items():
            for hour, pct in zip((6, 18), used):
                text += (f"# captured: {day}T{hour:02d}:00:00 host: aix01\n" + HEADING
                         + f"hd6             hdisk0            rootvg         512MB {pct:>5}     yes     yes      lv       0\n"
                         + "nfspg           -                 -              256MB  NaNQ     yes     yes     nfs       0\n")
        path = home.landing / "aix01_lsps-a_2026-01.log"
        path.write_text(text, encoding="utf-8")
        return [path]

    yield from listings_warehouse(tmp_path_factory.mktemp("paging_dbt"), landed, ["loaded"], "rpt_paging_space")


def test_a_day_whose_paging_space_use_rises_above_the_day_before_fires(db):
    rows = [(str(r["day"]), r["paging_space"], r["used_pct_peak"], r["previous_used_pct_peak"], r["fired"])
            for r in dict_rows(db, "select * from marts.rpt_paging_space order by day")]
    assert rows == [("2026-01-06", "hd6", 1, 1, False), ("2026-01-07", "hd6", 4, 1, True),
                    ("2026-01-08", "hd6", 3, 4, False)]
