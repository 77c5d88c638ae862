"""What the two warehouses of listings the listing tests share land (tests/conftest.py builds each once per
session): ``CONFIGURATION`` for rpt_config_findings (the demo's listings, the APPC listings and every rule case of
tests/listings/test_appc_rules.py, the PEEK displays), ``NETWORK`` for the marts across listings (link stations,
AIX host memory, mode consistency, paging space). rpt_mode_consistency compares a mode across every listing loaded,
so its listing cannot share a warehouse with the APPC listings' modes; each test reads its own files' rows."""

from __future__ import annotations

from functools import partial

from ingest.generate import appc_listings, listings, peek
from ingest.home import Home
from listings.golden_rows import GOLDEN

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
GOLDEN_TUNED = [GOLDEN / "AS4A__as400-cl__19940601T000000.out", GOLDEN / "OS2A__cm2-ndf__19940601T000000.out"]


def appc(home: Home) -> list:
    """The demo's APPC listings, every case above as a listing and the document-derived AS/400 and CM/2 listings."""
    cases = home.landing / "rule_cases.csv"  # every case above as a node of its own: <rule> breaks / follows
    named = {rule_id: pairs for rule_id, pairs in CASES.items()} | {
        f"{case}: {rule_id}": pairs for (rule_id, case), pairs in EXCEPTIONS.items()}
    cases.write_text("node,parameter,value\n" + "".join(
        f'{name} {kind},{p},"{v}"\n' for name, (breaks, follows) in named.items()
        for kind, pairs in (("breaks", breaks), ("follows", follows)) for p, v in pairs))
    tuned = [home.landing / p.name for p in GOLDEN_TUNED]
    for src, dst in zip(GOLDEN_TUNED, tuned):
        dst.write_bytes(src.read_bytes())
    return appc_listings.demo(home, seed=1) + [cases] + tuned


STAMP = "20260105T060000"
RAM_KB = 262144  # 256 MB, the J30s of the document's tests (L967), as lsattr -El sys0 prints realmem in KB
HOSTS = {  # host: (thewall in KB, its CS/AIX link station and DLC)
    "rig": (16384, ("rig-host", "ESCON")),
    "tuned": (65536, ("tuned-host", "BLKMUX")),
    "lanonly": (16384, ("lanonly-ncp", "TR")),
}


def host_memory(home: Home) -> list:
    paths = []
    for host, (thewall, (station, dlc)) in HOSTS.items():
        files = {
            f"{host}__no-a__{STAMP}.out": f"{'thewall':>25} = {thewall}\n{'sb_max':>25} = 1048576\n",
            f"{host}__lsattr-El-sys0__{STAMP}.out":
                f"{'keylock':<13} {'normal':<14} {'State of system keylock at boot time':<44} False\n"
                f"{'realmem':<13} {RAM_KB:<14} {'Amount of usable physical memory in Kbytes':<44} False\n",
            f"{host}__csaix-listing__{STAMP}.csv": f"node,parameter,value\n{station},dlc_type,{dlc}\n",
        }
        for name, text in files.items():
            path = home.landing / name
            path.write_text(text, encoding="utf-8")
            paths.append(path)
    return paths


LISTINGS = {
    # an end node: its station to B transmits 32 and receives 16 frames
    "nodea__csaix-listing.csv": [("nodea", "cp_name", "NETA.NODEA"), ("nodea", "node_type", "END_NODE"),
                                 ("nodea-nodeb", "adj_cp_name", "NETA.NODEB"), ("nodea-nodeb", "target_pacing_count", "32"),
                                 ("nodea-nodeb", "max_ifrm_rcvd", "16"), ("nodea-nodeb", "max_ifield", "4105")],
    # a network node: its station to A transmits 32 and receives 64 (more than A sends before an acknowledgement);
    # its two ports both carry 4105-byte I-fields
    "nodeb__csaix-listing.csv": [("nodeb", "cp_name", "NETA.NODEB"), ("nodeb", "node_type", "NETWORK_NODE"),
                                 ("nodeb-nodea", "adj_cp_name", "NETA.NODEA"), ("nodeb-nodea", "target_pacing_count", "32"),
                                 ("nodeb-nodea", "max_ifrm_rcvd", "64"), ("nodeb-nodea", "max_ifield", "4105"),
                                 ("nodeb-nodec", "adj_cp_name", "NETA.NODEC"), ("nodeb-nodec", "max_ifield", "4105")],
    # a network node whose ports differ: 4000 toward B, 4105 toward D
    "nodec__csaix-listing.csv": [("nodec", "cp_name", "NETA.NODEC"), ("nodec", "node_type", "NETWORK_NODE"),
                                 ("nodec-nodeb", "adj_cp_name", "NETA.NODEB"), ("nodec-nodeb", "max_ifield", "4000"),
                                 ("nodec-noded", "adj_cp_name", "NETA.NODED"), ("nodec-noded", "max_ifield", "4105")],
}


def link_stations(home: Home) -> list:
    paths = []
    for name, rows in LISTINGS.items():
        path = home.landing / name
        path.write_text("node,parameter,value\n" + "".join(f"{n},{p},{v}\n" for n, p, v in rows), encoding="utf-8")
        paths.append(path)
    return paths


MODES = """\
node,parameter,value
CM2/#BATCH,MODE_NAME,#BATCH
CM2/#BATCH,RU size,8192
CM2/#BATCH,RECEIVE_PACING_WINDOW,63
CICS/#BATCH,MODE_NAME,#BATCH
CICS/#BATCH,RU size,256
CICS/#BATCH,RECEIVE_PACING_WINDOW,63
CM2/#INTER,MODE_NAME,#INTER
CM2/#INTER,RU size,1024
CM2/#INTER,RECEIVE_PACING_WINDOW,24
CICS/#INTER,LOGMODE,#INTER
CICS/#INTER,RUSIZES,X'8787'
CICS/#INTER,SRCVPAC,24
AS4A/#INTERSC,MODD,#INTERSC
AS4A/#INTERSC,MAXLENRU,*CALC
CM2/#INTERSC,MODE_NAME,#INTERSC
CM2/#INTERSC,RU size,4096
CM2/#BATCHSC,MODE_NAME,#BATCHSC
CM2/#BATCHSC,RU size,16384
"""


def modes(home: Home) -> list:
    path = home.landing / "modes.csv"
    path.write_text(MODES, encoding="utf-8")
    return [path]


HEADING = "Page Space      Physical Volume   Volume Group    Size %Used   Active    Auto    Type   Chksum\n"
USED = {"2026-01-05": (1, 1), "2026-01-06": (1, 1), "2026-01-07": (2, 4), "2026-01-08": (3, 2)}  # two captures a day


def paging_space(home: Home) -> list:
    text = ""
    for day, used in USED.items():
        for hour, pct in zip((6, 18), used):
            text += (f"# captured: {day}T{hour:02d}:00:00 host: aix01\n" + HEADING
                     + f"hd6             hdisk0            rootvg         512MB {pct:>5}     yes     yes      lv       0\n"
                     + "nfspg           -                 -              256MB  NaNQ     yes     yes     nfs       0\n")
    path = home.landing / "aix01_lsps-a_2026-01.log"
    path.write_text(text, encoding="utf-8")
    return [path]


# (part, what it lands, the status of each file it lands), the marts built
CONFIGURATION = ([("listings", partial(listings.demo, seed=1), ["loaded"] * 15),
                  ("appc", appc, ["loaded"] * 5 + ["loaded_with_rejects"] * 2),
                  ("peek", partial(peek.demo, seed=1), ["loaded"] * 3)],
                 ["rpt_config_findings"])
NETWORK = ([("host_memory", host_memory, ["loaded"] * 9), ("link_stations", link_stations, ["loaded"] * 3),
            ("modes", modes, ["loaded"]), ("paging_space", paging_space, ["loaded"])],
           ["rpt_aix_host_memory", "rpt_link_stations", "rpt_mode_consistency", "rpt_paging_space"])
