"""``perfdb generate appc-listings``: the mode, line and controller definitions of the demo's APPC nodes, in the
forms seed 000 tunes them (an AS/400's CL commands, a CM/2 node definition file, a VTAM mode table).

    perfdb generate appc-listings --out DIR

* ``AS4A`` (AS/400): QPFRADJ 0 (seed 000 L708 wants 1 or 2); its #BATCH mode with MAXLENRU 4096, not *CALC
  (L721), on COS #INTER (L294: a bulk mode wants MEDIUM or LOW transmission priority), pacing 7 / 7 (L725);
  a mode FILEXFER of its own (L378-L389) with pacing 3 / 3; the line's MAXFRAME raised to 16,393 but the
  controller's left at 1,994 (L764: change both); LANMAXOUT 8 and LANACKFRQ 1 (L769-L775: *CALC, or 4 and 2
  on a link dedicated to bulk transfer).
* ``OS2A`` (OS/2 Communications Manager/2): #BATCH with an RU of 4,096 (L500: 16,384) and a receive pacing
  window of 63 (L510); #INTER with 1,024 and 24 (an interactive mode: its RU may be small, its window not).
* ``NCP1``'s subarea route to SYSA (a CSV listing): RUs of 8,192 bytes in 4,000-byte frames, not a multiple of
  frame - 29 (L310-L311: 7,942 would be); T2TIMER (1,3,8): an acknowledgement window of 8 where L888 starts a
  subarea connection at 16;
* ``SYSA``'s VTAM mode table: #BATCH with RUSIZES X'8989' (4,096 both ways: L910 wants X'8D8D'; seed 003
  L511-L514 measured twice the CPU per byte with 4K RUs), pacing 63.

Each breaks some of the rules and follows others; ``rpt_config_findings`` and ``perfdb report capacity
--config`` find the same. ``demo(home, seed)`` writes them into ``home/landing/listings``, landed with the first
night of the demo (a listing has no time; the seed does not change them).
"""

from __future__ import annotations

from pathlib import Path

from ingest.generate._landing import landed
from ingest.generate.listings import LANDED_AFTER, STAMP, add_listing_command
from ingest.home import Home

HELP = "AS/400 CL, CM/2 .NDF and VTAM mode-table listings of the demo's APPC nodes (seed 000)"
DESCRIPTION = """An AS/400's mode, line and controller descriptions (CL), an OS/2 CM/2 node definition file and a VTAM
mode table, each breaking some of seed 000's mode and link rules and following others."""

AS400_CL = """\
/* AS4A: APPC modes, line and controller */
CHGSYSVAL SYSVAL(QPFRADJ) VALUE('0')
CRTMODD MODD(#BATCH) COS(#INTER) MAXLENRU(4096) +
        INPACING(7) OUTPACING(7) TEXT('bulk transfer')
CRTMODD MODD(FILEXFER) COS(#BATCH) MAXLENRU(*CALC) +
        INPACING(3) OUTPACING(3) TEXT('nightly file transfer')
CRTLINTRN LIND(TRNLINE) RSRCNAME(LIN041) MAXFRAME(16393) LINESPEED(16M)
CRTCTLAPPC CTLD(HOSTCTL) LINKTYPE(*LAN) SWTLINLST(TRNLINE) MAXFRAME(1994) +
           LANMAXOUT(8) LANACKFRQ(1)
"""

CM2_NDF = """\
DEFINE_LOCAL_CP  FQ_CP_NAME(DEMONET.OS2A)
                 CP_ALIAS(OS2A)
                 NODE_TYPE(EN);
DEFINE_MODE  MODE_NAME(#BATCH)
             COS_NAME(#BATCH)
             DEFAULT_RU_SIZE(NO)
             MAX_RU_SIZE_UPPER_BOUND(4096)
             RECEIVE_PACING_WINDOW(63);
DEFINE_MODE  MODE_NAME(#INTER)
             COS_NAME(#INTER)
             DEFAULT_RU_SIZE(NO)
             MAX_RU_SIZE_UPPER_BOUND(1024)
             RECEIVE_PACING_WINDOW(24);
"""

SUBAREA_ROUTE = """\
node,parameter,value,unit
NCP1,network type,subarea,
NCP1,RU size,8192,bytes
NCP1,DLC frame size,4000,bytes
NCP1,T2TIMER,"(1,3,8)",
"""

VTAM_MODETAB = """\
* TUNEMODE: SYSA'S MODE TABLE FOR APPC BULK TRANSFER
BATCH    MODEENT LOGMODE=#BATCH,RUSIZES=X'8989',COS=#BATCH,PSNDPAC=63,
               SSNDPAC=63,SRCVPAC=63
"""


def generate(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for name, text in ((f"AS4A__as400-cl__{STAMP}.out", AS400_CL), (f"OS2A__cm2-ndf__{STAMP}.out", CM2_NDF),
                       (f"SYSA__vtam-modetab__{STAMP}.out", VTAM_MODETAB),
                       (f"NCP1__subarea-route__{STAMP}.csv", SUBAREA_ROUTE)):
        (out / name).write_text(text, encoding="utf-8")
        files.append(landed(out / name, LANDED_AFTER))
    return files


def demo(home: Home, seed: int) -> list[Path]:
    """The demo's APPC listings, written into ``home/landing/listings`` (the same for every seed)."""
    return generate(home.landing / "listings")


def add_parser(subparsers) -> None:
    add_listing_command(subparsers, "appc-listings", generate, HELP, DESCRIPTION)
