"""rpt_config_findings on the demo's listings: the same findings as config_checks on the same listing, none on
seed 000's tuned Appendix A listing, on its baseline exactly those the document tunes away."""

from __future__ import annotations

import csv
import pytest

from ingest.capacity import config_checks
from listings.findings import assert_mart_finds_what_config_checks_finds, by_listing


@pytest.fixture(scope="module")
def db(configuration_listings):
    return configuration_listings.db


@pytest.fixture(scope="module")
def demo_listings(configuration_listings):
    """The demo's 15 listings (ingest.generate.listings); the warehouse holds the APPC and PEEK listings too."""
    return configuration_listings.names["listings"]


def test_mart_and_config_checks_find_the_same_on_every_listing(db, demo_listings):
    # config_checks' adapter-queue rules apply to every node (they need no parameter)
    assert len(demo_listings) == 15
    assert_mart_finds_what_config_checks_finds(db, demo_listings, {"002-adapter-queues-150", "002-F20"})


def test_seed_000_tuned_listing_passes_every_rule_and_the_baseline_breaks_what_the_document_tunes(db):
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    assert evaluations["appA_tuned.csv"] and not [r for r in evaluations["appA_tuned.csv"] if r["fired"]]
    base = sorted((r["rule_id"], r["node"], r["parameters"], r["value"]) for r in evaluations["appA_base.csv"] if r["fired"])
    # Figure 6 against the rules: pacing windows of 3 RUs (L1090-L1092, L1129-L1130, L1133), SLODOWN 50 (L1103),
    # UNITSZ 384 (L1106), the RS/6000's adapter queues of 30 (L1119-L1120; R29 is the transmit queue) and its
    # thewall of 2048 KB (L1126), VTAM's RUSIZES X'F7F7' (L1087: 1,920 bytes, not the X'8D8D' of L910; seed 003's
    # VT-TP-05 flags a bulk RU of 4K or less) and NS/DOS's DLC MAXIN and MAXOUT of 2 (L1135-L1136, L614: 8)
    assert base == sorted([
        ("000-pacing-window-8", "VTAM", "PSNDPAC", 3), ("000-pacing-window-8", "VTAM", "SSNDPAC", 3),
        ("000-pacing-window-8", "VTAM", "SRCVPAC", 3), ("000-pacing-window-8", "RS/6000", "Mode Send Pacing", 3),
        ("000-pacing-window-8", "RS/6000", "Mode Receive Pacing", 3), ("000-pacing-window-8", "DOS", "RU Receive Pacing", 3),
        ("000-slodown-6", "NCP", "SLODOWN", 50), ("000-unitsz-4000", "NCP", "UNITSZ", 384),
        ("002-adapter-queues-150", "RS/6000", "Lan adapter Transmit Q size", 30),
        ("002-adapter-queues-150", "RS/6000", "Lan adapter Receive Q size", 30),
        ("002-F20", "RS/6000", "Lan adapter Transmit Q size", 30), ("002-F20", "RS/6000", "Lan adapter Receive Q size", 30),
        ("000-R29", "RS/6000", "Lan adapter Transmit Q size", 30), ("000-R32", "RS/6000", "thewall", 2048),
        ("000-R53", "VTAM", "rusizes", 1920), ("003-VT-TP-05", "VTAM", "rusizes", 1920),
        ("000-R25", "DOS", "dlc_maxin, dlc_maxout", 2),
        # CM/2's DLC windows of 3 (L1116-L1117; L456-L461 the largest, Figure 7's 8); SNA Services/6000's DLC transmit
        # count 10 against a receive count of 127 (L1121-L1122: raised one way, L357, L465; not both 127, L636-L644),
        # its mode RU 2816 (L1128, L656: 3840) and mode send pacing 3 (L1129; L662, the lab's 63 at L1185)
        ("000-R17", "OS/2", "transmit_window_count, receive_window_count", 3),
        ("000-R13", "RS/6000", "transmit_window_count, receive_window_count", 10),
        ("000-R27", "RS/6000", "transmit_window_count, receive_window_count", 10),
        ("000-R30", "RS/6000", "ru_size", 2816), ("000-R31", "RS/6000", "Mode Send Pacing", 3),
        # IOBUF = UNITSZ, but 384, not 4000 (L956-L958)
        ("000-F12", "NCP+VTAM", "iobuf, unitsz", 384),
        # T2TIMER left at its default (L1100) toward stations sending up to 10 frames per acknowledgement (the
        # RS/6000's DLC Transmit Count, L1121; CM/2's 3, NS/DOS's 2): L886 codes T2TIMER = (1,1,2)
        ("000-R49", "NCP", "t2timer, transmit_window_count, dlc_maxout, dlc_window_count", 10),
    ])
    # NS/DOS's RU is '*' in both (L1132, L1188: L563 wants it so)
    assert {(r["listing"].rsplit("/", 1)[-1], r["fired"]) for r in evaluations["appA_base.csv"] + evaluations["appA_tuned.csv"]
            if r["rule_id"] == "000-R23"} == {("appA_base.csv", False), ("appA_tuned.csv", False)}
    # the cross-node rule is evaluated once on the listing: VTAM's IOBUF buffer 384 = NCP's UNITSZ 384
    (iobuf,) = [r for r in evaluations["appA_base.csv"] if r["rule_id"] == "000-iobuf-equals-unitsz"]
    assert (iobuf["node"], iobuf["value"], iobuf["limit_value"], iobuf["fired"]) == ("NCP+VTAM", 384, 384, False)


def test_seed_000_appendix_b_tuned_values_pass_every_rule_and_its_defaults_break_what_it_tunes(db):
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    assert evaluations["appB_tuned.csv"] and not [r for r in evaluations["appB_tuned.csv"] if r["fired"]]
    # Figures 9 and 10's defaults (OS/2 client, DOS server, file transfer): pacing windows of 4 and 3 (L1335,
    # L1351), a Max DLC RU of 1024 (L1336: 7168), a DLC window count of 4 toward NS/DOS (L1337, L1277: 2) and
    # NS/DOS's 256-byte DLC frame (L1352, L1273: 16393)
    assert sorted((r["rule_id"], r["node"], r["value"], r["limit_value"]) for r in evaluations["appB_default.csv"]
                  if r["fired"]) == sorted([
        ("000-pacing-window-8", "OS/2", 4, 8), ("000-pacing-window-8", "DOS", 3, 8), ("000-R60", "OS/2", 1024, 7168),
        ("000-R26", "OS/2", 4, 2), ("000-R61", "DOS", 256, 16393)])


def test_the_demo_listings_evaluate_65_configuration_rules(db, demo_listings):
    # the 78 rows config_checks evaluates less the AS/400's and CM/2's mode and link rules and the subarea
    # T2TIMER rule: those are evaluated on ingest.generate.appc_listings' listings (tests/listings/test_appc_rules.py);
    # and less seed 001's READLINK cache rules, on ingest.generate.peek's displays (tests/listings/test_peek_expedited.py)
    with config_checks.CATALOGUE.open() as f:
        rows = {r["rule_id"] for r in csv.DictReader(f) if r["evaluated_by"] == "config_checks"}
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    evaluated = {r["rule_id"] for name in demo_listings for r in evaluations.get(name, [])}
    assert len(rows) == 78 and rows - evaluated == {"000-R02", "000-R05", "000-R15", "000-R20", "000-R22", "000-R33",
                                                    "000-R34", "000-R35", "000-R39", "000-R40", "000-R51",
                                                    "001-aF12", "001-aF13"}


def test_demo_systems_break_some_rules_and_follow_others(db):
    evaluations = by_listing(db, "select * from marts.rpt_config_findings")
    sysa = {r["rule_id"]: r["fired"] for r in evaluations["SYSA__vtam-ncp-listing__20260105T060000.csv"]}
    # IOBUF 3992: 2 x 3992 leaves 16 bytes of an 8000-byte NLP (seed 003 L637); MAXDATA 16384 < 3992 x 5 = 19960
    assert {k for k, fired in sysa.items() if fired} == {"003-iobuf-nlp-hpr", "000-size-chain", "000-unitsz-4000",
                                                         "000-delay-0", "003-VT-TP-04", "000-F12"}
    assert {k for k, fired in sysa.items() if not fired} == {
        "000-iobuf-equals-unitsz", "000-maxbfru-from-piu", "000-maxdata-ge-maxtsl", "000-rcvbufc-two-frames",
        "000-maxtsl-tic1", "000-slodown-6", "000-R44", "003-csm-dataspace", "003-tibuf-without-mpc", "000-R07",
        "000-F11"}
    # SYSB's VTAM uses MPC+: its TIBUF of 120K holds the HPR headers of MPC+ data (seed 003 L620), no finding
    sysb = {r["rule_id"]: (r["value"], r["fired"]) for r in evaluations["SYSB__vtam-listing__20260105T060000.csv"]}
    assert sysb == {"003-tibuf-without-mpc": (120, False)}
    csaix = evaluations["aix01__csaix-listing__20260105T060000.csv"]
    (sdlc,) = [r for r in csaix if r["node"] == "aix01-sdlc"]
    assert (sdlc["rule_id"], sdlc["value"], sdlc["fired"]) == ("002-sdlc-timer", 0.5, False)
    assert sdlc["limit_value"] == pytest.approx(2 * 256 * 8 / 9600)
    # the link station's timers in order (seed 002 L738, L743), its 4096-byte RU in a 4105-byte I-field (L942-L946),
    # its windows at 16:8 (L768, L780); the link station to aix02: windows equal at 32 (R15), a 4096-byte RU in
    # 4000-byte I-fields (R26, and seed 000's own rules on the same RU)
    assert {r["rule_id"]: r["fired"] for r in csaix if r["node"] == "aix01" and r["rule_id"] in (
        "002-R17", "002-F13", "002-R26", "002-R15", "002-R16", "002-F14")} == {
        "002-R17": False, "002-F13": False, "002-R26": False, "002-R15": False, "002-R16": False, "002-F14": False}
    assert {r["rule_id"]: r["fired"] for r in csaix if r["node"] == "aix01-aix02"} == {
        "002-R15": True, "002-R16": False, "002-R26": True, "002-receive-window-ncp": False, "002-F14": False,
        "000-ru-fits-frame": True, "000-R06": True, "000-R07": False, "000-R21": False,
        # and L304 read literally: 4,096 is no whole number of 4,000-byte frames
        "000-R03": True,
        # seed 000's DLC window rules: 32 both ways is large and alike
        "000-R13": False, "000-R17": False}
    # aix01's 16:8 windows are seed 002's best ratio (L768): on CS/AIX R13 sees no asymmetry
    assert {r["rule_id"]: r["fired"] for r in csaix if r["node"] == "aix01" and r["rule_id"] in ("000-R13", "000-R17")} == {
        "000-R13": False, "000-R17": False}
    # aix02's station to aix01 transmits 16 and receives 8 frames: seed 002's 16:8 (L768, L780); its port to the NCP
    # names no windows
    aix02 = evaluations["aix02__csaix-listing__20260105T060000.csv"]
    assert {(r["rule_id"], r["node"], r["fired"]) for r in aix02} == {
        ("002-R15", "aix02-aix01", False), ("002-R16", "aix02-aix01", False), ("002-F14", "aix02-aix01", False),
        ("000-R13", "aix02-aix01", False),
        ("000-R17", "aix02-aix01", False), ("002-receive-window-ncp", "aix02-aix01", False)}
    # the channel-attached RS/6000's PU: DELAY 0, but MAXBFRU and VPACING at VTAM's default 1 (seed 002 L1067, L1079)
    local = {r["rule_id"]: (r["value"], r["fired"]) for r in evaluations["SYSA__vtam-local__20260105T060000.out"]}
    assert local["002-R29"] == (1, True) and local["000-delay-0"] == (0, False)
    # its PU's mode table AIXMODES, APPC/MVS's APPL's TUNEMODE (seed 000 L918-L922): L963 wants the same one
    assert local["000-R59"] == (None, True)
    vse = {r["rule_id"]: (r["value"], r["limit_value"], r["fired"])
           for r in evaluations["VSE1__ipinit__20260105T060000.out"]}
    # REUSE_SIZE 5 < 10, ARP_TIME 6000 < 90000, MAX_SEGMENT 32684 > 1500 - 40, RECORD ON, 20 TELNETD buffers
    # without a POOL=YES daemon; ALL_BOUND, PULSE_TIME, MAX_BUFFERS and DEBUG as seed 004 advises
    assert vse == {
        "004-aR16": (5, 10, True), "004-aR3": (6000, 90000, True), "004-aR9": (32684, 1460, True),
        "004-aR12": (None, None, True), "004-bR6": (None, None, True), "004-aR13": (20, 0, True),
        "004-aR5": (30000, 9000, False), "004-aR4": (18000, 18000, False), "004-aR15": (6, 1, False),
        "004-bR4": (None, None, False), "004-aR14": (20, 4, False)}
    # VSE1's TCP/IP start job: its EXEC IPNET without DSPACE (seed 004 L2199: "It is better to specify DSPACE")
    (job,) = evaluations["VSE1__tcpstrt__20260105T060000.out"]
    assert (job["rule_id"], job["node"], job["parameters"], job["fired"]) == ("004-aR19", "VSE1", "exec_ipnet", True)
    # VSE2's member at the defaults: only its pool of 20 TELNETD buffers for 10 POOL=YES daemons (L3031-L3034) breaks a
    # rule; VSE1's POOL=NO daemon leaves its pool to 004-aR13
    vse2 = {r["rule_id"]: (r["value"], r["limit_value"], r["fired"]) for r in evaluations["VSE2__ipinit__20260105T060000.out"]}
    assert {k for k, (_, _, f) in vse2.items() if f} == {"004-aR14"} and vse2["004-aR14"] == (20, 10, True)
    (ram,) = evaluations["aix01__lsattr-El-sys0__20260105T060000.out"]
    assert (ram["rule_id"], ram["value"], ram["fired"]) == ("002-R24", 262144, False)
    tok0 = evaluations["aix01__lsattr-El-tok0__20260105T060000.out"]
    assert sorted((r["rule_id"], r["parameters"], r["value"], r["fired"]) for r in tok0) == [
        ("000-R29", "xmt_que_size", 30, True),
        ("002-F20", "rec_que_size", 150, False), ("002-F20", "xmt_que_size", 30, True),
        ("002-adapter-queues-150", "rec_que_size", 150, False), ("002-adapter-queues-150", "xmt_que_size", 30, True)]


def _appendix_a(t2timer: str, windows: list[tuple[str, str, str]]) -> list:
    return [config_checks.setting("NCP", "T2TIMER", t2timer, None, 1)] + [
        config_checks.setting(node, parameter, value, "frames", line) for line, (node, parameter, value)
        in enumerate(windows, start=2)]


FIGURE_6_STATIONS = [("OS/2", "DLC SEND PACING", "3"), ("RS/6000", "DLC Transmit Count", "10"), ("DOS", "DLC MAXOUT", "2")]


@pytest.mark.parametrize("t2timer, windows, fired", [
    ("default", FIGURE_6_STATIONS, True),  # Figure 6 (L1100): not coded, toward windows of 3, 10 and 2
    ("(1,1,8)", FIGURE_6_STATIONS, False),  # Figure 7 (L1159): coded; NCP uses W = 2 on a peripheral link (L883)
    ("(1,1,2)", [("DOS", "DLC MAXOUT", "8")], False),  # L886's own value
    ("(1,3,2)", [("DOS", "DLC MAXOUT", "8")], True),  # coded, but not T1 = T2 = 1
    ("default", [("DOS", "DLC MAXOUT", "1")], False),  # stations with a send window of 1: L887's case, not L886's
])
def test_r49_reads_the_ncp_t2timer_against_the_other_nodes_send_windows(t2timer, windows, fired):
    findings, applied = config_checks.evaluate(_appendix_a(t2timer, windows))
    assert applied["000-R49"] == 1
    assert [(f.rule_id, f.node) for f in findings if f.rule_id == "000-R49"] == ([("000-R49", "NCP")] if fired else [])


def test_r49_needs_a_station_beside_the_ncp():
    # a listing of the NCP alone (seed 000's Figure 7 NCP statements) states no station's send window
    _, applied = config_checks.evaluate(_appendix_a("default", []) + [config_checks.setting("NCP", "DLC MAXOUT", "8", None, 9)])
    assert "000-R49" not in applied


def test_the_peer_rules_read_the_same_keys_in_python_and_sql():
    import re
    from pathlib import Path
    macro = (Path(config_checks.__file__).resolve().parents[2] / "dbt_project" / "macros" / "config_rules.sql").read_text()
    listed = re.search(r"set send_windows = \[(.*?)\]", macro).group(1)
    assert tuple(re.findall(r"'([a-z_]+)'", listed)) == config_checks.PERIPHERAL_SEND_WINDOWS
    assert {rule_id: peers for rule_id, (_, peers, _) in config_checks.PEER_CHECKS.items()} == {
        "000-R49": config_checks.PERIPHERAL_SEND_WINDOWS}
