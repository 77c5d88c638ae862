"""The configuration rules of seeds 004 (TCP/IP for VSE's IPINIT SET values and DEFINEs) and 002 (CS/AIX link
stations) that config_checks and rpt_config_findings evaluate: each fires on a value that breaks it and not on one
that follows it, with the document's own values where it prints them."""

from __future__ import annotations

import pytest

from ingest.capacity import config_checks
from listings.golden_rows import GOLDEN


def fired(*settings: tuple[str, str, str]) -> dict[str, list[str]]:
    """The rules applied to one node's settings (parameter, value, unit) and, per rule, what it found."""
    findings, applied = config_checks.evaluate([config_checks.setting("n", p, v, u) for p, v, u in settings])
    return {rule: [f.found for f in findings if f.rule_id == rule] for rule in applied}


@pytest.mark.parametrize("rule, parameter, breaks, follows", [
    # L2704: ARP_TIME "Default is 90000 (5 min), should not be smaller"
    ("004-aR3", "ARP_TIME", "6000", "90000"),
    # L2721: PULSE_TIME "Default is 18000 (1 min), should not be smaller"
    ("004-aR4", "PULSE_TIME", "6000", "18000"),
    # L2682-L2686: ALL_BOUND default 9000 (30 s), shipped 30000; too low costs CPU
    ("004-aR5", "ALL_BOUND", "3000", "30000"),
    # L3056: MAX_BUFFERS "Do NOT specify 0"; the IPINIT example's 6 (L3114)
    ("004-aR15", "MAX_BUFFERS", "0", "6"),
    # L2755-L2761: REUSE_SIZE default 10
    ("004-aR16", "REUSE_SIZE", "5", "10"),
    # L2981-L2984: SET DEBUG=OFF|ON|FULL, CPU overhead highest for FULL
    ("004-bR4", "DEBUG", "FULL", "OFF"),
    # L3380: SET RECORD=ON costs about 0.5% CPU time
    ("004-bR6", "RECORD", "ON", "OFF"),
    ("004-aR12", "DIAGNOSE", "PERFORM", "OFF"),
])
def test_a_vse_set_value_breaks_or_follows_its_rule(rule, parameter, breaks, follows):
    debug = [] if parameter == "DEBUG" else [("DEBUG", "OFF", "")]
    assert fired((parameter, breaks, ""), *debug)[rule]
    assert fired((parameter, follows, ""), *debug)[rule] == []


def test_max_segment_against_the_link_mtu():
    # L2793-L2795: MAX_SEGMENT = the adapter's MTU - 40; the default 32684 over a 1500-byte Ethernet breaks it
    assert fired(("MAX_SEGMENT", "32684", ""), ("LINK MTU", "1500", ""))["004-aR9"] == [
        "MAX_SEGMENT 32,684, MTU 1,500"]
    assert fired(("MAX_SEGMENT", "1460", ""), ("LINK MTU", "1500", ""))["004-aR9"] == []


def test_telnetd_buffers_need_a_pool_daemon():
    # L3091-L3092: "SET TELNETD_BUFFERS = 0 ... to assure no waste of virtual storage in case these buffers are
    # not needed"; they serve only TELNET daemons defined with POOL=YES (L3026)
    assert fired(("TELNETD_BUFFERS", "20", ""), ("TELNETD POOL", "NO", ""))["004-aR13"]
    assert fired(("TELNETD_BUFFERS", "20", ""))["004-aR13"]
    assert fired(("TELNETD_BUFFERS", "20", ""), ("TELNETD POOL", "YES", ""))["004-aR13"] == []
    assert fired(("TELNETD_BUFFERS", "0", ""))["004-aR13"] == []


def test_the_documents_ipinit_example_breaks_only_what_its_added_link_breaks():
    # the golden member is the document's IPINIT example (L3085-L3121) plus a 1500-byte link: its values follow
    # every rule but MAX_SEGMENT 32684 over that link; a member's first TELNETD_BUFFERS (0) is the one compared
    from listings.golden_rows import parse
    rows = parse(GOLDEN / "VSE1__ipinit__20010715T000000.out")["rows"]
    findings, applied = config_checks.evaluate([config_checks.setting(r[1], r[2], r[4], r[6], r[0]) for r in rows])
    assert {"004-aR5", "004-aR9", "004-aR12", "004-aR13", "004-aR15", "004-bR4", "004-bR6"} <= set(applied)
    assert [(f.rule_id, f.found) for f in findings] == [("004-aR9", "MAX_SEGMENT 32,684, MTU 1,500")]



def test_the_telnetd_pool_below_its_pool_daemons():
    # L3031-L3034: the pool "can and should be much lower than the number of POOL=YES defined TELNET daemons - any
    # number greater than that is waste"; the default 20 for 10 pool daemons breaks it, a pool of 4 does not
    pool = [("TELNETD COUNT", "10", ""), ("TELNETD POOL", "YES", "")]
    assert fired(("TELNETD_BUFFERS", "20", ""), *pool)["004-aR14"] == ["20 buffers for 10 POOL=YES daemons"]
    assert fired(("TELNETD_BUFFERS", "4", ""), *pool)["004-aR14"] == []
    # daemons with their own buffers (POOL=NO) leave the pool unused: 004-aR13's finding, not this one
    assert fired(("TELNETD_BUFFERS", "20", ""), ("TELNETD COUNT", "10", ""), ("TELNETD POOL", "NO", ""))["004-aR14"] == []

def test_the_tcpip_start_job_specifies_dspace():
    # L2194-L2200: "DSPACE=3M ... It is better to specify DSPACE, otherwise its default SYSDEF DSPACE,DFSIZE=mM
    # has to be found out, or even may be too low": the document's own startup job (L2086-L2093) follows it
    from listings.golden_rows import parse
    golden = parse(GOLDEN / "VSE1__tcpstrt__20010715T000000.out")
    findings, applied = config_checks.evaluate([config_checks.setting(r[1], r[2], r[4], r[6], r[0])
                                                for r in golden["rows"]])
    assert "004-aR19" in applied and findings == []
    # its "... LIBDEFs etc ..." stands for statements the document leaves out: rejected, the rest loads
    assert golden["rejects"] == [[3, "line 3: expected a JCL statement ('// VERB operands'), '/*' or '* $$$', "
                                     "found '... LIBDEFs etc ...'"]]
    assert fired(("EXEC IPNET", "IPNET", ""), ("EXEC IPNET DSPACE", "3M", ""))["004-aR19"] == []
    assert fired(("EXEC IPNET", "IPNET", ""), ("EXEC IPNET SIZE", "IPNET", ""))["004-aR19"] == ["not specified"]


def test_a_job_step_s_input_and_a_quoted_parm_in_the_job_stream():
    from ingest.formats.listings.vse_job import PARSER
    job = ("* $$$ JOB JNM=LPR,CLASS=A\n// JOB LPR\n// EXEC CLIENT,PARM='ID=00,APPL=LPR'   print it\n"
           "SET HOST=9.164.155.2\nPING\n/*\nPING\n/&\n* $$$ EOJ\n")
    parsed = [(line, item if isinstance(item, str) else (item.parameter, item.text))
              for line, item in PARSER.settings(job, "VSE1")]
    # L2540-L2543: the batch client's input follows its EXEC; after the /* a line is no JCL
    assert parsed == [(3, ("EXEC CLIENT", "CLIENT")), (3, ("EXEC CLIENT PARM", "'ID=00,APPL=LPR'")),
                      (7, "expected a JCL statement ('// VERB operands'), '/*' or '* $$$', found 'PING'")]

@pytest.mark.parametrize("rule", ["002-R17", "002-F13"])
def test_csaix_dlc_timers(rule):
    # L738: response timer normally 1 to 2 s; L743: the receiver's acknowledgement timer below it (R17, and F13
    # as the formula section states it)
    assert fired(("ack_timeout", "0.1", "s"), ("response timer", "1", "s"))[rule] == []
    assert fired(("ack_timeout", "1", "s"), ("response timer", "1", "s"))[rule]
    assert fired(("ack_timeout", "0.1", "s"), ("response timer", "0.5", "s"))[rule]


def test_csaix_adapter_queues():
    # L808, L921 (F20): transmit and receive queues at 150, the maximum; the default 30 limits throughput
    assert fired(("xmt_que_size", "30", ""), ("rec_que_size", "150", ""))["002-F20"] == ["30"]
    assert fired(("xmt_que_size", "150", ""), ("rec_que_size", "150", ""))["002-F20"] == []


def test_csaix_window_counts_within_their_range():
    # L933-L935 (F14): transmit window count = target_pacing_count, receive window count = max_ifrm_rcvd; "start
    # by setting target_pacing_count to 127 and max_ifrm_rcvd to 1. These are safe values, as 1 and 127 are the
    # minimum and maximum values"
    assert fired(("target_pacing_count", "127", ""), ("max_ifrm_rcvd", "1", ""))["002-F14"] == []
    assert fired(("target_pacing_count", "16", ""), ("max_ifrm_rcvd", "8", ""))["002-F14"] == []
    assert fired(("target_pacing_count", "128", ""), ("max_ifrm_rcvd", "1", ""))["002-F14"] == [
        "128 : 1 (transmit : receive)"]
    assert fired(("target_pacing_count", "127", ""), ("max_ifrm_rcvd", "0", ""))["002-F14"]
    # another platform's DLC windows are seed 000's to judge
    assert "002-F14" not in fired(("DLC receive count", "128", ""), ("DLC transmit count", "8", ""))


def test_csaix_ru_in_a_frame():
    # L942-L946 (seed 002 Appendix A), the rule seed 000 states too: an RU of 4096 in a 4105-byte I-field with the
    # 9-byte APPN header fits; 4100 spills into a second frame
    assert fired(("max_ru_size", "4096", ""), ("max_ifield", "4105", ""))["002-R26"] == []
    assert fired(("max_ru_size", "4100", ""), ("max_ifield", "4105", ""))["002-R26"]


def test_seed_002s_link_station_rules_judge_cs_aix_nodes_only():
    # the same RU and frame spelt as another platform's listing prints them: seed 000's rule judges it, seed 002's
    # does not (it fired twice on one finding before)
    other = fired(("RU size", "4100", ""), ("DLC frame size", "4105", ""))
    assert other["000-ru-fits-frame"] and "002-R26" not in other
    # seed 000's tuned Appendix A windows, 8:8 (L1173), are no CS/AIX link station's
    assert {"002-R15", "002-R16"}.isdisjoint(fired(("DLC receive count", "8", ""), ("DLC transmit count", "8", "")))


@pytest.mark.parametrize("transmit, receive, ratio, size", [
    # L768: with the transmit window at 32, best at a receive window of 16; equal at 32 "slightly degraded"
    ("32", "16", False, False), ("32", "32", True, False), ("32", "64", True, False),
    # L780: gains up to 16:8 (transmit : receive), none beyond; 8:4 keeps the ratio below that size
    ("16", "8", False, False), ("8", "4", False, True),
])
def test_csaix_window_counts(transmit, receive, ratio, size):
    got = fired(("target_pacing_count", transmit, ""), ("max_ifrm_rcvd", receive, ""))
    assert (bool(got["002-R15"]), bool(got["002-R16"])) == (ratio, size)


def test_the_platforms_parameter_names_are_one_list_in_python_and_sql():
    import re
    from pathlib import Path
    from ingest.formats.listings.settings import PLATFORM_PARAMETERS
    macro = (Path(config_checks.__file__).resolve().parents[2] / "dbt_project" / "macros" / "config_rules.sql").read_text()
    listed = re.search(r"macro platform_parameters\(\).*?return\(\{(.*?)\}\)", macro, re.S).group(1)
    in_sql = {platform: tuple(re.findall(r"'([a-z_0-9 /]+)'", names))
              for platform, names in re.findall(r"'([a-z0-9]+)': \[(.*?)\]", listed, re.S)}
    assert in_sql == PLATFORM_PARAMETERS


def test_report_capacity_reads_an_ipinit_member_and_names_a_bad_line(tmp_path):
    # perfdb report capacity --config reads the member with the ingest parser; a line it cannot read stops it
    member = GOLDEN / "VSE1__ipinit__20010715T000000.out"
    with pytest.raises(config_checks.ListingError, match=r"VSE1__ipinit__20010715T000000.out: line 22: expected 'SET NAME"):
        config_checks.read_listing(member)
    clean = tmp_path / "VSE1__ipinit__20010715T000000.out"
    clean.write_text(member.read_text().replace("SET RETRANSMIT 100", "SET RETRANSMIT = 100"))
    settings = config_checks.read_listing(clean)
    assert {s.node for s in settings} == {"VSE1"} and len(settings) == 23
    assert [(f.rule_id, f.found) for f in config_checks.check(settings)] == [("004-aR9", "MAX_SEGMENT 32,684, MTU 1,500")]
