"""A listing as config_checks reads it, and listings through perfdb ingest into the warehouse (each parser's golden
listings are compared with their expected parse by tests/golden, with every other family's)."""

from __future__ import annotations

import json

import duckdb
import pytest

from ingest import pipeline
from ingest.capacity import config_checks
from ingest.home import Home
from listings.golden_rows import GOLDEN, INPUTS, parse


def test_csv_listing_reads_as_config_checks_reads_it(tmp_path):
    path = GOLDEN / "seed000_fig6_host__listing.csv"
    got = parse(path)
    # config_checks refuses the whole listing at its first bad row; the parser rejects each bad row alone
    with pytest.raises(config_checks.ListingError, match=r"listing.csv: line 6: expected 5 columns .*found 3"):
        config_checks.read_listing(path)
    assert [line for line, _ in got["rejects"]] == [6, 7]
    clean = tmp_path / "clean.csv"
    clean.write_text("\n".join(ln for n, ln in enumerate(path.read_text().splitlines(), 1) if n not in (6, 7)) + "\n")
    settings = config_checks.read_listing(clean)
    assert [[s.node, s.parameter, s.key, s.text, s.value, s.unit] for s in settings] == [r[1:] for r in got["rows"]]


def test_listings_land_in_the_warehouse_with_line_rejects(tmp_path):
    home = Home(tmp_path / "home").create()
    landed = [home.landing / p.name for p in INPUTS]
    for src, dst in zip(INPUTS, landed):
        dst.write_bytes(src.read_bytes())
    results = pipeline.ingest_paths(home, landed)
    expected = {p.name: json.loads(p.with_suffix(".json").read_text()) for p in INPUTS}
    # a document's sample kept byte for byte (seed 001's PEEK Figure 3) has no damaged line to reject
    assert [r.status for r in results] == [
        "loaded_with_rejects" if expected[p.name]["rejects"] else "loaded" for p in INPUTS]
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        got = con.execute(
            "select f.path, count(*), sum(p.value) from raw.parameter_listings p "
            "join raw.ingest_files f on f.file_id = p.source_file_id group by f.path").fetchall()
        rejected = con.execute("select line_number from raw.rejects order by line_number").fetchall()
    assert {path.rsplit("/", 1)[1]: (n, total) for path, n, total in got} == {
        name: (len(e["rows"]), sum(r[5] or 0 for r in e["rows"])) for name, e in expected.items()}
    assert sorted(line for (line,) in rejected) == sorted(r[0] for e in expected.values() for r in e["rejects"])


def test_two_nodes_tuned_alike_are_two_listings_and_a_resent_one_is_known(tmp_path):
    """Identical bytes under two hosts' names (a cloned ``no -a``) are each host's settings: the sha256 alone
    took the second for the first and dropped it."""
    home = Home(tmp_path / "home").create()
    sample = (GOLDEN / "rs6000__no-a__19940601T000000.out").read_bytes()
    names = ["aix01__no-a__19940601T000000.out", "aix02__no-a__19940601T000000.out"]
    for name in names:
        (home.landing / name).write_bytes(sample)
    first = pipeline.ingest_paths(home, [home.landing / n for n in names])
    (home.landing / "again").mkdir()
    (home.landing / "again" / names[0]).write_bytes(sample)
    again = pipeline.ingest_paths(home, [home.landing / "again" / names[0]])
    assert [r.status for r in first] == ["loaded_with_rejects"] * 2 and [r.status for r in again] == ["duplicate"]
    rows = len(json.loads((GOLDEN / "rs6000__no-a__19940601T000000.json").read_text())["rows"])
    with duckdb.connect(str(home.db_path), read_only=True) as con:
        nodes = con.execute("select node, count(*) from raw.parameter_listings group by node order by node").fetchall()
    assert nodes == [("aix01", rows), ("aix02", rows)]


# a VTAM MPC CTC link's TRL and local major nodes, byte for byte as SDL-Hercules-390/hyperion's
# readme/README.NETWORKING.md (CTCE) prints them
HERCULES_MPC_CTC = """\
CTCATRL  VBUILD TYPE=TRL
C0E40TRL TRLE  LNCTL=MPC,READ=(0E40,0E42),WRITE=(0E41,0E43)

CTCALCL  VBUILD TYPE=LOCAL
C0E40LCL PU    TRLE=C0E40TRL,XID=YES,CONNTYPE=APPN,CPCP=YES,TGP=CHANNEL
"""


def test_a_trle_keeps_its_operands_as_its_own_node(tmp_path):
    path = tmp_path / "SYSB__vtam-trl__20260105T060000.out"
    path.write_text(HERCULES_MPC_CTC)
    got = parse(path)
    assert got["format"] == "listing.assembler" and not got["rejects"]
    assert [(line, node, parameter, text) for line, node, parameter, _, text, *_ in got["rows"]] == [
        (1, "SYSB", "TYPE", "TRL"),
        (2, "SYSB/C0E40TRL", "LNCTL", "MPC"), (2, "SYSB/C0E40TRL", "READ", "(0E40,0E42)"),
        (2, "SYSB/C0E40TRL", "WRITE", "(0E41,0E43)"),
        (4, "SYSB", "TYPE", "LOCAL"), (5, "SYSB", "TRLE", "C0E40TRL"), (5, "SYSB", "XID", "YES"),
        (5, "SYSB", "CONNTYPE", "APPN"), (5, "SYSB", "CPCP", "YES"), (5, "SYSB", "TGP", "CHANNEL")]
