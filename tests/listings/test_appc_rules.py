"""Seed 000's mode, AS/400, CM/2 and RUSIZES rules and seed 003's 4K-RU rule (VT-TP-05): each fires on the values
the document tunes away and stays quiet on those it recommends, in config_checks and in rpt_config_findings alike;
the document-derived AS/400 and CM/2 listings (tests/listings/golden) pass every rule; the demo's APPC listings
(ingest.generate.appc_listings) break the rules they were written to break."""

from __future__ import annotations

import pytest

from ingest.capacity import config_checks
from ingest.generate import appc_listings, listings
from ingest.home import Home
from listings.golden_rows import GOLDEN, parse
from listings.findings import assert_mart_finds_what_config_checks_finds, by_listing, listings_warehouse
from read_only_db import dict_rows

# rule -> (settings that break it, settings that follow it): (parameter, value) of one node, the document's values
CASES = {
    # L294: a bulk mode on a MEDIUM or LOW priority class of service; #BATCH is a good mode (L296)
    "000-R02": ([("MODE_NAME", "#BATCH"), ("COS_NAME", "#INTER")], [("MODE_NAME", "#BATCH"), ("COS_NAME", "#BATCH")]),
    # L304 read literally: an RU larger than the frame, a whole number of frames (Figure 7's 4000-byte frame, L1169:
    # 8,000 is two, 8,192 two and a small third)
    "000-R03": ([("RU size", "8192"), ("DLC frame size", "4000")], [("RU size", "8000"), ("DLC frame size", "4000")]),
    # L310-L311: an RU larger than the frame, a multiple of frame - 29 in subarea (2 x 3971) ...
    "000-R05": ([("network type", "subarea"), ("RU size", "8192"), ("DLC frame size", "4000")],
                [("network type", "subarea"), ("RU size", "7942"), ("DLC frame size", "4000")]),
    # ... and of frame - 9 in APPN (L312: 2 x 3991)
    "000-R06": ([("RU size", "8192"), ("DLC frame size", "4000")], [("RU size", "7982"), ("DLC frame size", "4000")]),
    # L496: a 16,384-byte RU fits one 16,393-byte frame; CM/2's 4000-byte frame of Figure 7 (L1169) segments it
    "000-R21": ([("RU size", "16384"), ("DLC frame size", "4000")], [("RU size", "16384"), ("DLC frame size", "16393")]),
    # L614: NS/DOS's MAXIN and MAXOUT raised to 8 (Figure 6's 2 and 2, L1135-L1136; Figure 7's 8 and 8, L1191-L1195)
    "000-R25": ([("DLC MAXIN", "2"), ("DLC MAXOUT", "2")], [("DLC MAXIN", "8"), ("DLC MAXOUT", "8")]),
    # L844-L848: RCVBUFC holds two frames: Figure 6's 4095 against Figure 7's MAXTSL 4060; Figure 7's 16240
    "000-F11": ([("RCVBUFC", "4095"), ("MAXTSL", "4060")], [("RCVBUFC", "16240"), ("MAXTSL", "4060")]),
    # L320-L322: default mode tables under 2 KB suit interactive traffic; 4 KB is good for bulk
    "000-R07": ([("MODD", "#BATCH"), ("RU size", "1024")], [("MODD", "#BATCH"), ("RU size", "4096")]),
    # L378-L389: the architected modes
    "000-R15": ([("MODE_NAME", "FILEXFER")], [("MODE_NAME", "#BATCHSC")]),
    # L500: use 16,384 for your RU size (CM/2)
    "000-R20": ([("MODE_NAME", "#BATCH"), ("MAX_RU_SIZE_UPPER_BOUND", "4096")],
                [("MODE_NAME", "#BATCH"), ("MAX_RU_SIZE_UPPER_BOUND", "16384")]),
    # L510: always choose 63 (the Appendix A baseline's receive pacing was 8, L1114)
    "000-R22": ([("MAX_RU_SIZE_UPPER_BOUND", "16384"), ("RECEIVE_PACING_WINDOW", "8")],
                [("MAX_RU_SIZE_UPPER_BOUND", "16384"), ("RECEIVE_PACING_WINDOW", "63")]),
    # L721: always use *CALC
    "000-R34": ([("MAXLENRU", "4096")], [("MAXLENRU", "*CALC")]),
    # L725: IN and OUT pacing of 7
    "000-R35": ([("INPACING", "3"), ("OUTPACING", "7")], [("INPACING", "7"), ("OUTPACING", "7")]),
    # L764: MAXFRAME changed in both the line and the controller description
    "000-R39": ([("LIND MAXFRAME", "16393"), ("CTLD MAXFRAME", "1994")],
                [("LIND MAXFRAME", "16393"), ("CTLD MAXFRAME", "16393")]),
    # L769-L775: *CALC (2 and 1), or 4 and 2 on a link dedicated to bulk transfer
    "000-R40": ([("LANMAXOUT", "8"), ("LANACKFRQ", "1")], [("LANMAXOUT", "4"), ("LANACKFRQ", "2")]),
    # L910: X'8D8D' for bulk modes; Figure 6's X'F7F7' (L1087) is what Figure 7 tuned away (L1146)
    "000-R53": ([("RUSIZES", "x'F7F7'")], [("RUSIZES", "x'8D8D'")]),
    # L959: X'ABAB', not X'ABCD'
    "000-rusizes-symmetric": ([("RUSIZES", "X'ABCD'")], [("RUSIZES", "X'ABAB'")]),
    # seed 003 L511-L514: CPU per byte with 4K RUs more than twice that with 16K
    "003-VT-TP-05": ([("RUSIZES", "X'8989'")], [("RUSIZES", "X'8B8B'")]),
    # L357, L465: raise both windows; Figure 6's RS/6000 sent 10 and received 127 (L1121-L1122), Figure 7 127 both
    "000-R13": ([("DLC Transmit Count", "10"), ("DLC Receive Count", "127")],
                [("DLC Transmit Count", "127"), ("DLC Receive Count", "127")]),
    # L456-L461: the largest DLC window; Figure 6's OS/2 at 3 and 3 (L1116-L1117), Figure 7's 8 and 8 (L1172-L1173)
    "000-R17": ([("DLC SEND PACING", "3"), ("DLC RECEIVE PACING", "3")],
                [("DLC SEND PACING", "8"), ("DLC RECEIVE PACING", "8")]),
    # L563: '*' in MODE.NSD; the 960 bytes Figure 6 says '*' negotiated (L1132), coded as a number
    "000-R23": ([("DLC MAXIN", "8"), ("RU SIZE", "960")], [("DLC MAXIN", "8"), ("RU SIZE", "*")]),
    # L1277: 2 toward NS/DOS, not the default 4 (Figure 9, L1337)
    "000-R26": ([("DLC Send Receive Window Count", "4"), ("partner", "NS/DOS")],
                [("DLC Send Receive Window Count", "2"), ("partner", "NS/DOS")]),
    # L636-L644: SNA Services/6000's counts at 127 (Figure 6's transmit count 10, L1121)
    "000-R27": ([("DLC Transmit Count", "10"), ("DLC Receive Count", "127")],
                [("DLC Transmit Count", "127"), ("DLC Receive Count", "127")]),
    # L656: RU 3840 on SNA Services/6000 (Figure 6's 2816, L1128; Figure 7's 3840, L1184)
    "000-R30": ([("Mode Send Pacing", "63"), ("Mode RU size", "2816")],
                [("Mode Send Pacing", "63"), ("Mode RU size", "3840")]),
    # L662: send pacing 127; the lab's 63 (L1185) passes, Figure 6's 3 (L1129) does not
    "000-R31": ([("Mode Send Pacing", "3")], [("Mode Send Pacing", "63")]),
    # L888: a subarea connection's W from 16: Figure 7's BUILD T2TIMER (1,1,8) (L1159) on a subarea link, (1,3,16)
    "000-R51": ([("network type", "subarea"), ("T2TIMER", "(1,1,8)")],
                [("network type", "subarea"), ("T2TIMER", "(1,3,16)")]),
    # L963: the APPL (TOMVSAP's TUNEMODE, L918-L922) and the PU connecting to VTAM with the same mode table
    "000-R59": ([("APPL MODETAB", "TUNEMODE"), ("PU MODETAB", "AIXMODES")],
                [("APPL MODETAB", "TUNEMODE"), ("PU MODETAB", "TUNEMODE")]),
    # L1271-L1273: OS/2's Max DLC RU mid-plateau, 7168 (Figure 9's default 1024, L1336)
    "000-R60": ([("Max DLC RU", "1024")], [("Max DLC RU", "7168")]),
    # L1273: NS/DOS's frame maximised for file transfer with OS/2 (Figure 10's default 256 and tuned 16393, L1352)
    "000-R61": ([("Session Receive Pacing Window", "63"), ("DLC Frame Size", "256"), ("partner", "OS/2")],
                [("Session Receive Pacing Window", "63"), ("DLC Frame Size", "16393"), ("partner", "OS/2")]),
}
CASES |= {
    # L956-L958: IOBUF = UNITSZ = 4000 and MAXDATA >= MAXTSL: Figure 6's 384 (L1093, L1106), Figure 7's 4000 (L1152, L1164)
    "000-F12": ([("IOBUF", "(200,384,,,100,50)"), ("UNITSZ", "384"), ("MAXDATA", "65535"), ("MAXTSL", "2044")],
                [("IOBUF", "(200,4000,,,100,50)"), ("UNITSZ", "4000"), ("MAXDATA", "65535"), ("MAXTSL", "4060")]),
    # seed 002 L1065-L1081: a channel-attached PU with VTAM's default MAXBFRU 1 and PACING / VPACING 1, DELAY 0.1
    "002-R29": ([("CUADDR", "E20"), ("DELAY", "0.1"), ("MAXBFRU", "1")],
                [("CUADDR", "E20"), ("DELAY", "0"), ("MAXBFRU", "4"), ("PACING", "7"), ("VPACING", "7")]),
}
# a rule's exception, as a node named "<case>: <rule> breaks / follows"
EXCEPTIONS = {
    # L458, L614: 2 and 2 on a link between CM/2 and NS/DOS, where 8 and 8 would break the rule
    ("000-R17", "toward NS/DOS"): ([("DLC SEND PACING", "8"), ("DLC RECEIVE PACING", "8"), ("partner", "NS/DOS")],
                                   [("DLC SEND PACING", "2"), ("DLC RECEIVE PACING", "2"), ("partner", "NS/DOS")]),
    # the NS/DOS end of the same link (its MAXIN / MAXOUT as the DLC windows: R25's own check says the same)
    ("000-R17", "NS/DOS toward CM/2"): ([("DLC MAXIN", "8"), ("transmit window count", "8"),
                                         ("receive window count", "8"), ("partner", "CM/2")],
                                        [("DLC MAXIN", "2"), ("transmit window count", "2"),
                                         ("receive window count", "2"), ("partner", "CM/2")]),
    # seed 002 measured CS/AIX's receive window at half its transmit window best (L768): no asymmetry finding there
    ("000-R13", "CS/AIX"): ([("DLC Transmit Count", "8"), ("DLC Receive Count", "16")],
                            [("target_pacing_count", "16"), ("max_ifrm_rcvd", "8")]),
    # NS/DOS's frame toward an NCP (Figure 7's 4100 bytes, L1190): the rule is Appendix B's, toward OS/2
    ("000-R61", "toward an NCP"): ([("DLC MAXIN", "8"), ("DLC FRAME SIZE", "4100"), ("partner", "OS/2")],
                                   [("DLC MAXIN", "8"), ("DLC FRAME SIZE", "4100"), ("partner", "NCP")]),
}
DEMO = ["AS4A__as400-cl__20260105T060000.out", "OS2A__cm2-ndf__20260105T060000.out",
        "SYSA__vtam-modetab__20260105T060000.out", "NCP1__subarea-route__20260105T060000.csv"]
GOLDEN_TUNED = [GOLDEN / "AS4A__as400-cl__19940601T000000.out", GOLDEN / "OS2A__cm2-ndf__19940601T000000.out"]


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
def db(tmp_path_factory):
    def landed(home: Home) -> list:
        cases = home.landing / "rule_cases.csv"  # every case above as a node of its own: <rule> breaks / follows
        named = {rule_id: pairs for rule_id, pairs in CASES.items()} | {
            f"{case}: {rule_id}": pairs for (rule_id, case), pairs in EXCEPTIONS.items()}
        cases.write_text("node,parameter,value\n" + "".join(
            f'{name} {kind},{p},"{v}"\n' for name, (breaks, follows) in named.items()
            for kind, pairs in (("breaks", breaks), ("follows", follows)) for p, v in pairs))
        tuned = [home.landing / p.name for p in GOLDEN_TUNED]
        for src, dst in zip(GOLDEN_TUNED, tuned):
            dst.write_bytes(src.read_bytes())
        return listings.demo(home, seed=1) + appc_listings.demo(home, seed=1) + [cases] + tuned

    yield from listings_warehouse(tmp_path_factory.mktemp("appc_dbt"), landed,
                                  ["loaded"] * 20 + ["loaded_with_rejects"] * 2)


def test_the_mart_finds_what_config_checks_finds_on_every_listing(db):
    assert_mart_finds_what_config_checks_finds(db, 22, {"002-adapter-queues-150", "002-F20"})


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
