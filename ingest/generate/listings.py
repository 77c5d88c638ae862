"""``perfdb generate listings``: the parameter listings of the demo's systems and of seed 000's Appendices A and B.

    perfdb generate listings --out DIR

* ``appA_base.csv`` and ``appA_tuned.csv``: seed 000's Figures 6 and 7 (L1080-L1195), the baseline and the
  tuned parameters of the Appendix A network (CICS, VTAM, NCP, OS/2, RS/6000, DOS), as the document prints them
  (the reference seed ``reference_parameters_000_appc_tuning``, one row per printed line; ``line`` is the
  document's). The tuned listing follows every configuration rule, the baseline breaks those the document
  tunes away (SLODOWN 50, UNITSZ 384, pacing windows of 3, adapter queues of 30, SNA Services/6000's DLC
  transmit count of 10 and mode RU of 2,816).
* ``appB_default.csv`` and ``appB_tuned.csv``: seed 000's Figures 9 and 10 (L1331-L1352), the installation
  defaults and the tuned file-transfer values of Appendix B's OS/2 client and NS/DOS server (the OS/2-DOS
  columns): the tuned values follow every rule, the defaults break those the appendix tunes (a Max DLC RU of
  1,024, a DLC window count of 4, a 256-byte DLC frame, pacing windows of 4 and 3).
* ``aix01`` (AIX with CS/AIX): ``no -a``, ``lsattr -El tok0`` (transmit queue still at its default 30, the
  receive queue at 150), ``lsattr -El sys0`` (256 MB) and its CS/AIX link station and mode (a receive window
  of 8 frames against an NCP, whose MAXOUT is 7, and a transmit window of 16; a receive pacing window of 4; DLC
  timers in order), a link station to a second RS/6000 (windows equal at 32; a 4096-byte RU in 4000-byte
  frames; its CP name and the partner's pair it with aix02's end), an SDLC link station and an ESCON link station
  to SYSA: a channel-attached host whose thewall (16,384 KB, the document's test rigs) is 6.25 % of its RAM;
* ``aix02`` (CS/AIX, a network node): its link station to aix01 transmits 16 frames where aix01 receives up to
  32 (seed 002 L920: at least as many), and its two ports carry different I-fields (4,000 and 4,105 bytes: a BIU
  routed between them is segmented, L567-L569);
* ``SYSA`` (z/OS with VTAM and an NCP): HPR without MPC+ and an IOBUF of 3992 (seed 003: too big for two in
  an NLP), an NCP UNITSZ of 3992, a DELAY of 0.1 s and a MAXDATA below UNITSZ x MAXBFRU, on a TIC2;
* ``SYSB`` (z/OS with VTAM): MPC+ on its channel-to-channel connections, TIBUF 120K (seed 003 L620);
* ``SYSA``'s local SNA major node (VTAM definition statements): the PU of the channel-attached RS/6000 with
  DELAY 0 (seed 002 L1071) but MAXBFRU and VPACING at VTAM's default 1 (L1067, L1079), and a mode table
  AIXMODES where APPC/MVS's APPL (seed 000 L916-L920, after it in the same listing) uses TUNEMODE (L963: the same);
* ``VSE1`` (TCP/IP for VSE): its IPINIT member's SET values and DEFINEs (seed 004): REUSE_SIZE 5 (below the
  default 10, more GETVIS/FREEVIS), ARP_TIME 6000 (20 s, below the 90000 default), RECORD left ON, 20 TELNETD
  buffers with no POOL=YES daemon and MAX_SEGMENT 32684 over a 1500-byte MTU break rules; ALL_BOUND,
  PULSE_TIME, MAX_BUFFERS and DEBUG follow them; and its TCP/IP start job (seed 004's startup job, L2086-L2093,
  with a LIBDEF where the document leaves its LIBDEFs out) whose EXEC IPNET has no DSPACE (L2199: better
  specified, VTAM's default data space may be too low).
* ``VSE2`` (TCP/IP for VSE): an IPINIT member at the document's defaults (L2682, L2704, L2721), its 10 TELNET
  daemons on the pool (POOL=YES) and the pool at its default 20 buffers: more than the daemons (L3031-L3034).

Each breaks some rules and follows others; ``rpt_config_findings`` and ``perfdb report capacity --config``
find the same. ``demo(home, seed)`` writes them into ``home/landing/listings``, landed with the first night
of the demo (a listing has no time; the seed does not change them).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Callable

from ingest.cli_options import add_seed, output_dir, subcommand
from ingest.generate._landing import landed
from ingest.home import Home

HELP = "parameter listings (seed 000 Appendices A and B, no -a, lsattr -El, VTAM/NCP, CS/AIX, VSE) of the demo's systems"
DESCRIPTION = """Seed 000's baseline and tuned Appendix A and B listings as the document prints them, and a listing of each demo
system (AIX no -a and lsattr -El, CS/AIX, VTAM and NCP, VSE's IPINIT and TCP/IP start job) that breaks some configuration rules and follows others."""

REFERENCE = Path(__file__).resolve().parents[2] / "dbt_project" / "seeds" / "reference" / "reference_parameters_000_appc_tuning.csv"
LANDED_AFTER = dt.date(2026, 1, 5)  # the demo's first day (ingest.generate.commands.DEMO_START)
STAMP = "20260105T060000"

# thewall at the 16 MB (16,384 KB) of the document's channel test rigs on 256 MB machines (seed 002 L969, L1111):
# 6.25 % of aix01's RAM where the channel section advises 25 % (L1089, rule 002-R21)
AIX_NO = {"thewall": 16384, "sb_max": 1048576, "lowclust": 256, "lowmbuf": 256, "mb_cl_hiwat": 512,
          "net_malloc_police": 0, "tcp_sendspace": 65536, "tcp_recvspace": 65536}
AIX_TOK0 = [  # (attribute, value, description, user settable) as lsattr -El prints them
    ("busio", "0x86a0", "Bus I/O address", "False"),
    ("busintr", "3", "Bus interrupt level", "False"),
    ("xmt_que_size", "30", "TRANSMIT queue size", "True"),
    ("rec_que_size", "150", "RECEIVE queue size", "True"),
    ("ring_speed", "16", "RING speed", "True"),
    ("attn_mac", "no", "Receive ATTENTION MAC frame", "True"),
]
AIX_SYS0 = [
    ("keylock", "normal", "State of system keylock at boot time", "False"),
    ("maxuproc", "128", "Maximum number of PROCESSES allowed per user", "True"),
    ("realmem", "262144", "Amount of usable physical memory in Kbytes", "False"),
    ("iostat", "false", "Continuously maintain DISK I/O history", "True"),
]
CSAIX = [  # (node, parameter, value, unit): CS/AIX link station and mode toward the NCP
    # its token-ring link station: an acknowledgement timer below a 1-second response timer (seed 002 L738, L743)
    ("aix01", "max_ifrm_rcvd", "8", "frames"),
    ("aix01", "target_pacing_count", "16", "frames"),  # 16:8, the document's best ratio and size (L768, L780)
    ("aix01", "ack_timeout", "0.1", "s"),
    ("aix01", "response timer", "1", "s"),
    ("aix01", "partner", "NCP", ""),
    ("aix01", "cp_name", "DEMONET.AIX01", ""),
    ("aix01", "node_type", "END_NODE", ""),
    ("aix01", "max_rcv_pac_win", "16", "RUs"),
    ("aix01", "max_ru_size", "4096", "bytes"),
    ("aix01", "max_ifield", "4105", "bytes"),
    ("aix01", "send_pacing_window", "8", "RUs"),
    ("aix01", "receive_pacing_window", "4", "RUs"),
    # its link station to a second RS/6000 (aix02): the windows equal at 32, "slightly degraded" against 32:16
    # (seed 002 L768), and a 4096-byte RU in 4000-byte I-fields: two frames, the second nearly empty (L942-L946)
    ("aix01-aix02", "max_ifrm_rcvd", "32", "frames"),
    ("aix01-aix02", "target_pacing_count", "32", "frames"),
    ("aix01-aix02", "partner", "RS/6000", ""),
    ("aix01-aix02", "adj_cp_name", "DEMONET.AIX02", ""),
    ("aix01-aix02", "max_ru_size", "4096", "bytes"),
    ("aix01-aix02", "max_ifield", "4000", "bytes"),
    # its SDLC link station: 0.5 s is more than 2 x 256 x 8 bits / 9600 bit/s = 0.427 s (seed 002 L788)
    ("aix01-sdlc", "primary repoll frequency", "0.5", "s"),
    ("aix01-sdlc", "link speed", "9600", "bit/s"),
    ("aix01-sdlc", "max_ifield", "256", "bytes"),
    # its link station over an ESCON channel to SYSA's VTAM (the PU of SYSA's local SNA major node, L1047): the
    # host is channel-attached, so the channel section's thewall of 25 % of memory applies to it (L1089)
    ("aix01-sysa", "dlc_type", "ESCON", ""),
]
CSAIX_NN = [  # (node, parameter, value, unit): aix02, the network node at the other end of aix01's link station
    ("aix02", "cp_name", "DEMONET.AIX02", ""),
    ("aix02", "node_type", "NETWORK_NODE", ""),
    # toward aix01: a transmit window of 16 where aix01 receives up to 32 frames (seed 002 L920: 32 at least)
    ("aix02-aix01", "adj_cp_name", "DEMONET.AIX01", ""),
    ("aix02-aix01", "partner", "RS/6000", ""),
    ("aix02-aix01", "target_pacing_count", "16", "frames"),
    ("aix02-aix01", "max_ifrm_rcvd", "8", "frames"),
    ("aix02-aix01", "max_ifield", "4000", "bytes"),
    # toward the NCP: 4105-byte I-fields, so a BIU routed between its two ports is segmented (L567-L569, L1024)
    ("aix02-ncp", "adj_cp_name", "NETA.NCP1", ""),
    ("aix02-ncp", "partner", "NCP", ""),
    ("aix02-ncp", "max_ifield", "4105", "bytes"),
]
VTAM_NCP = [  # (node, parameter, value, unit): SYSA's VTAM start options and mode, its NCP's generation
    ("VTAM", "IOBUF", "(300,3992,,,100,50)", ""),
    ("VTAM", "HPR", "YES", ""),
    ("VTAM", "MPC+", "NO", ""),
    ("VTAM", "RU size", "16384", "bytes"),
    ("VTAM", "CSM storage", "DATASPACE", ""),
    ("VTAM", "TIBUF", "0", ""),
    ("NCP", "UNITSZ", "3992", "bytes"),
    ("NCP", "MAXBUFRU", "5", ""),
    ("NCP", "PIU size", "16000", "bytes"),
    ("NCP", "MAXDATA", "16384", "bytes"),
    ("NCP", "MAXTSL", "4060", "bytes"),
    ("NCP", "RCVBUFC", "8120", "bytes"),
    ("NCP", "SLODOWN", "6", "%"),
    ("NCP", "DELAY", "0.1", "s"),
    ("NCP", "BFRS", "240", "bytes"),
    ("NCP", "TIC", "TIC2", ""),
]
# SYSB's VTAM start options: its host-to-host channel connections are MPC+ (seed 003 L169-L180), so its TIBUF
# buffers for the HPR headers of MPC+ data are in use (L620); seed 003's channel rules read MPC+ per system
VTAM_SYSB = [("VTAM", "MPC+", "YES", ""), ("VTAM", "TIBUF", "120", "K")]

# SYSA's local SNA major node for the channel-attached RS/6000 (seed 002 L1065-L1081): DELAY 0 as advised, but
# MAXBFRU and VPACING left at VTAM's default 1; then its application major node with APPC/MVS's APPL as seed 000
# prints it (L916-L920, mode table TUNEMODE), while the RS/6000's PU names a mode table of its own (L963: the
# same one for both). The continuation mark in column 72, as VTAM definitions are coded
VTAM_LOCAL = [
    "* SYSA: LOCAL SNA MAJOR NODE OF THE CHANNEL-ATTACHED RS/6000",
    "LOCAIX   VBUILD TYPE=LOCAL",
    f"{'AIXPU    PU    CUADDR=E20,PUTYPE=2,XID=YES,DELAY=0,PACING=7,':<71}X",
    "               MAXBFRU=1,VPACING=1,MODETAB=AIXMODES",
    "* SYSA: APPLICATION MAJOR NODE OF APPC/MVS",
    "APPCMVS  VBUILD TYPE=APPL",
    f"{'TOMVSAP  APPL  ACBNAME=TOMVSAP,APPC=YES,MODETAB=TUNEMODE,VPACING=32,':<71}X",
    "               DLOGMOD=#INTER",
]
VSE_SET = [  # what VSE1's IPINIT member SETs, in the form of seed 004's IPINIT example (L3085-L3121)
    ("ALL_BOUND", 30000), ("ARP_TIME", 6000), ("PULSE_TIME", 18000), ("REUSE_SIZE", 5), ("MAX_SEGMENT", 32684),
    ("RETRANSMIT", 50), ("WINDOW", 65535), ("TELNETD_BUFFERS", 20), ("TRANSFER_BUFFERS", 20), ("MAX_BUFFERS", 6),
    ("DEBUG", "OFF"), ("DIAGNOSE", "OFF"), ("RECORD", "ON"),
]
VSE_DEFINE = [  # and its definitions, the link's continued on a second line as IPINIT members do
    "DEFINE LINK,ID=LINK01,TYPE=OSA2,DEV=300,\n       MTU=1500,FRAGMENT=NO",
    "DEFINE TELNETD,ID=TN01,TARGET=DBDCCICS,COUNT=4,POOL=NO",
    "WAIT VTAM",
]
VSE2_IPINIT = [  # VSE2's member: the defaults, a TELNETD buffer pool larger than its POOL=YES daemons
    "SET ALL_BOUND = 30000", "SET ARP_TIME = 90000", "SET PULSE_TIME = 18000", "SET TELNETD_BUFFERS = 20",
    "SET DEBUG = OFF", "DEFINE TELNETD,ID=TN01,TARGET=DBDCCICS,COUNT=10,POOL=YES",
]
VSE_START_JOB = [  # VSE1's TCP/IP start job: the document's, its EXEC without DSPACE=3M
    "* $$$ JOB JNM=TCPSTRT,CLASS=7,DISP=L",
    "// JOB TCPSTRT",
    "// LIBDEF PHASE,SEARCH=(PRD1.BASE,PRD2.CONFIG)",
    "// SETPFIX LIMIT=900K",
    "// EXEC IPNET,SIZE=IPNET,PARM='ID=00,INIT=IPINIT00'",
    "/*",
    "/&",
    "* $$$ EOJ",
]


def _csv(path: Path, header: list[str], rows: list) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(header)
        out.writerows(rows)
    return path


def _text(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _lsattr(path: Path, attributes: list) -> Path:
    return _text(path, "".join(f"{a:<13} {v:<14} {d:<44} {s}\n" for a, v, d, s in attributes))


APPENDIX_PROFILES = ("appA_base", "appA_tuned", "appB_default", "appB_tuned")


def appendix_listing(out: Path, profile: str) -> Path:
    """Seed 000's listing of one Appendix A or B profile (APPENDIX_PROFILES) from the reference seed."""
    with REFERENCE.open(encoding="utf-8", newline="") as f:
        rows = [[r["node"], r["parameter"], r["value"], r["unit"], r["line"]]
                for r in csv.DictReader(f) if r["profile"] == profile]
    return _csv(out / f"{profile}.csv", ["node", "parameter", "value", "unit", "line"], rows)


def generate(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    no_a = out / f"aix01__no-a__{STAMP}.out"
    no_a.write_text("".join(f"{name:>25} = {value}\n" for name, value in AIX_NO.items()), encoding="utf-8")
    files = [
        *(appendix_listing(out, profile) for profile in APPENDIX_PROFILES), no_a,
        _lsattr(out / f"aix01__lsattr-El-tok0__{STAMP}.out", AIX_TOK0),
        _lsattr(out / f"aix01__lsattr-El-sys0__{STAMP}.out", AIX_SYS0),
        _text(out / f"VSE1__ipinit__{STAMP}.out",
              "".join(f"SET {name} = {value}\n" for name, value in VSE_SET) + "\n".join(VSE_DEFINE) + "\n"),
        _text(out / f"VSE1__tcpstrt__{STAMP}.out", "\n".join(VSE_START_JOB) + "\n"),
        _text(out / f"VSE2__ipinit__{STAMP}.out", "\n".join(VSE2_IPINIT) + "\n"),
        _csv(out / f"aix01__csaix-listing__{STAMP}.csv", ["node", "parameter", "value", "unit"], CSAIX),
        _csv(out / f"aix02__csaix-listing__{STAMP}.csv", ["node", "parameter", "value", "unit"], CSAIX_NN),
        _csv(out / f"SYSA__vtam-ncp-listing__{STAMP}.csv", ["node", "parameter", "value", "unit"], VTAM_NCP),
        _text(out / f"SYSA__vtam-local__{STAMP}.out", "\n".join(VTAM_LOCAL) + "\n"),
        _csv(out / f"SYSB__vtam-listing__{STAMP}.csv", ["node", "parameter", "value", "unit"], VTAM_SYSB),
    ]
    return [landed(path, LANDED_AFTER) for path in files]


def demo(home: Home, seed: int) -> list[Path]:
    """The demo's listings, written into ``home/landing/listings`` (the same for every seed)."""
    return generate(home.landing / "listings")


def add_parser(subparsers) -> None:
    add_listing_command(subparsers, "listings", generate, HELP, DESCRIPTION)


def add_listing_command(subparsers, command: str, write: Callable[[Path], list[Path]], help: str,
                        description: str, family: str = "listings") -> None:
    """``perfdb generate <command> [--out DIR]``: the files ``write`` writes (this module's listings, appc_listings',
    vtam_sessions' captures), by default into the home's ``landing/<family>``."""
    p = subcommand(subparsers, command, lambda args: write_files(args, command, write, family), help, description)
    add_seed(p)
    p.add_argument("--out", help=f"output directory (default: <home>/landing/{family})")


def write_files(args, command: str, write: Callable[[Path], list[Path]], family: str) -> int:
    """The files ``write`` writes into ``--out`` (or the home's landing)."""
    out = output_dir(args, family)
    try:
        files = write(out)
    except OSError as e:
        print(f"perfdb generate {command}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"out": str(out), "files": [str(f) for f in files]}, indent=2))
    else:
        print(f"{len(files)} {family} files in {out}")
    return 0
