"""Seed 000's mode, AS/400, CM/2 and RUSIZES rules and seed 003's 4K-RU rule (VT-TP-05): each fires on the values
the document tunes away and stays quiet on those it recommends, in config_checks and in rpt_config_findings alike;
the document-derived AS/400 and CM/2 listings (tests/listings/golden) pass every rule; the demo's APPC listings
(ingest.generate.appc_listings) break the rules they were written to break."""

from __future__ import annotations

import pytest

from ingest.capacity import config_checks
from listings.golden_rows import parse
from listings.findings import assert_mart_finds_what_config_checks_finds, by_listing
from listings.shared import CASES, EXCEPTIONS, GOLDEN_TUNED
from read_only_db import dict_rows

# the rule cases (CASES, EXCEPTIONS) are landed as a listing of their own too: tests/listings/shared.py
DEMO = ["AS4A__as400-cl__20260105T060000.out", "OS2A__cm2-ndf__20260105T060000.out",
        "SYSA__vtam-modetab__20260105T060000.out", "NCP1__subarea-route__20260105T060000.csv"]


def findings(node: str, pairs: list[tuple[str, str]]) -> tuple[list[str], dict[str, int]]:
    found, applied = config_checks.evaluate([config_checks.setting(node, p, v) for p, v in pairs])
    return [f.rule_id for f in found], applied


@pytest.mark.parametrize("rule_id, case", sorted([(r, "") for r in CASES] + list(EXCEPTIONS)))
def test_each_rule_fires_on_what_the_document_tunes_away_and_not_on_what_it_recommends(rule_id, case):
    breaks, follows = EXCEPTIONS[rule_id, case] if case else CASES[rule_id]
    fired, applied = findings("node", breaks)
    assert rule_id in fired and applied[rule_id] == 1
    fired, applied = findings("node", follows)
    assert rule_id not in fired and applied[rule_id] == 1


def test_the_document_derived_as400_and_cm2_listings_pass_every_rule():
    applied: set[str] = set()
    for path in GOLDEN_TUNED:
        got = parse(path)
        found, checked = config_checks.evaluate([config_checks.setting(r[1], r[2], r[4], r[6], r[0]) for r in got["rows"]])
        assert found == [], path.name
        applied |= set(checked)
    assert {"000-R02", "000-R15", "000-R20", "000-R22", "000-R33", "000-R34", "000-R35", "000-R39", "000-R40"} <= applied


@pytest.fixture(scope="module")
def db(configuration_listings):
    return configuration_listings.db


def test_the_mart_finds_what_config_checks_finds_on_every_listing(db, configuration_listings):
    # the demo's listings, the APPC listings, the rule cases and the two golden listings (not the PEEK displays)
    loaded = configuration_listings.names["listings"] + configuration_listings.names["appc"]
    assert len(loaded) == 22
    assert_mart_finds_what_config_checks_finds(db, loaded, {"002-adapter-queues-150", "002-F20"})


def test_in_sql_each_rule_fires_on_its_breaking_case_only(db):
    rows = dict_rows(db, "select * from marts.rpt_config_findings where listing like '%rule_cases.csv'")
    for rule_id in CASES:  # (a case of another rule may apply this one too: R15 reads every mode's name)
        assert {(r["node"], r["fired"]) for r in rows if r["rule_id"] == rule_id and r["node"].startswith(rule_id)} == {
            (f"{rule_id} breaks", True), (f"{rule_id} follows", False)}, rule_id
    for rule_id, case in EXCEPTIONS:
        name = f"{case}: {rule_id}"
        assert {(r["node"], r["fired"]) for r in rows if r["rule_id"] == rule_id and r["node"].startswith(name)} == {
            (f"{name} breaks", True), (f"{name} follows", False)}, name
    (ru,) = [r for r in rows if r["rule_id"] == "003-VT-TP-05" and r["node"] == "003-VT-TP-05 breaks"]
    assert (ru["value"], ru["limit_value"]) == (4096, 4096)  # X'89' = 8 x 2**9 (seed 000 L904-L906)
    (bulk,) = [r for r in rows if r["rule_id"] == "000-R53" and r["node"] == "000-R53 breaks"]
    assert (bulk["value"], bulk["limit_value"]) == (1920, 65536)  # X'F7' = 15 x 2**7


def test_the_demo_appc_listings_break_the_rules_they_were_written_to_break(db):
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    got = {name: sorted((r["rule_id"], r["node"]) for r in evaluations[name] if r["fired"]) for name in DEMO}
    assert got == {
        # QPFRADJ 0; MAXFRAME 16,393 on the line, 1,994 on the controller; LANMAXOUT 8 / LANACKFRQ 1; #BATCH on COS
        # #INTER with MAXLENRU 4096; FILEXFER, no architected mode, paced 3 / 3
        DEMO[0]: sorted([("000-R33", "AS4A"), ("000-R39", "AS4A"), ("000-R40", "AS4A"), ("000-R02", "AS4A/#BATCH"),
                         ("000-R34", "AS4A/#BATCH"), ("000-R15", "AS4A/FILEXFER"), ("000-R35", "AS4A/FILEXFER")]),
        # #BATCH's RU of 4,096 (not 16,384); #INTER's receive pacing window of 24 (not 63)
        DEMO[1]: [("000-R20", "OS2A/#BATCH"), ("000-R22", "OS2A/#INTER")],
        # RUSIZES X'8989': 4,096 both ways
        DEMO[2]: [("000-R53", "SYSA"), ("003-VT-TP-05", "SYSA")],
        # 8,192-byte RUs in 4,000-byte subarea frames: 3 segments of 3,971 bytes, the last 6 % full
        # (seed 002's restatement of the rule, 002-R26, judges CS/AIX nodes only: NCP1's finding is counted once);
        # T2TIMER (1,3,8): a subarea connection's acknowledgement window below the 16 L888 starts at; 8,192 is no
        # whole number of 4,000-byte frames either (L304 read literally)
        DEMO[3]: [("000-R03", "NCP1"), ("000-R05", "NCP1"), ("000-R51", "NCP1"), ("000-ru-fits-frame", "NCP1")],
    }
    quiet = {(r["rule_id"], r["node"]) for name in DEMO for r in evaluations[name] if not r["fired"]}
    assert {("000-R02", "OS2A/#BATCH"), ("000-R20", "OS2A/#INTER"), ("000-R22", "OS2A/#BATCH"),
            ("000-R34", "AS4A/FILEXFER"), ("000-R35", "AS4A/#BATCH"), ("000-rusizes-symmetric", "SYSA"),
            ("000-R15", "AS4A/#BATCH")} <= quiet
    for path in GOLDEN_TUNED:
        assert evaluations[path.name] and not [r for r in evaluations[path.name] if r["fired"]], path.name
