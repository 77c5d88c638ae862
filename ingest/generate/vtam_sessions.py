"""``perfdb generate vtam-sessions``: SYSA's ``D NET,SESSIONS,SID=`` displays of the demo's APPC sessions, as seed
003 prints one (L657-L683), their adaptive pacing windows as they stood when the operator looked.

    perfdb generate vtam-sessions --out DIR

One capture log of the demo's first morning, every 10 minutes from 09:00, four sessions 20 seconds apart, each
with the RU sizes its BIND settled on (IST2064I, as z/OS Communications Server prints it: IBM's SNA Messages, the
IST879I message group):

* ``#BATCH`` from AS4A, a bulk transfer whose windows open to 63 (seed 000 L341: at least 8), its RUs the 4,096
  bytes SYSA's mode table configures for #BATCH (RUSIZES X'8989', ingest.generate.appc_listings) and AS4A's
  MAXLENRU(4096);
* ``#BAT2K`` from OS2A, whose primary-to-secondary window never opens past 4 / NEXT 7 (the document's own
  display): a resource constraint on the path, 000-R10's finding; RUs of 2,048 (its mode's name);
* ``#INTER`` from a 3270 user, windows of 1 and 2: interactive, not a bulk transfer the rule reads;
* ``#BATCH`` from DOSA (NS/DOS), windows of 8 (Figure 7's RU receive pacing, L1189) but RUs negotiated down to 960
  bytes both ways, seed 000 Figure 6's NS/DOS RU size "* (960 negotiated)" (L1132) under the 4,096 SYSA's mode
  table configures: 000-R08's downward negotiation (L202).

``demo(home, seed)`` writes it into ``home/landing/commands``, landed the night after (the seed does not
change it: the displays are the document's figures).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ingest.generate._landing import landed
from ingest.generate.commands import DEMO_START
from ingest.generate.listings import add_listing_command
from ingest.home import Home

HELP = "VTAM D NET,SESSIONS,SID= displays of SYSA's APPC sessions (seed 003's layout)"
DESCRIPTION = """SYSA's D NET,SESSIONS,SID= displays of four sessions every 10 minutes of a morning: a bulk transfer whose
pacing windows open to 63, one held at the document's 4 / NEXT 7, an interactive session and a bulk transfer whose
RUs were negotiated down to 960 bytes."""

# (SID, PLU, SLU, logmode, APPN COS, (PLU to SLU, SLU to PLU RU size), [(stage, flow, send current, send next,
# receive)])
SESSIONS = [
    ("F1A2B3C4D5E6F701", "DEMONET.AS4A", "DEMONET.CICSA", "#BATCH", "#BATCH", (4096, 4096),
     [(1, "PRIMARY TO SECONDARY", 56, 63, 63), (1, "SECONDARY TO PRIMARY", 63, 63, 63)]),
    ("FD87C05900BCFE62", "DEMONET.OS2A", "DEMONET.CICSA", "#BAT2K", "#BATCH", (2048, 2048),
     [(1, "PRIMARY TO SECONDARY", 4, 7, 7), (1, "SECONDARY TO PRIMARY", 54, 63, 63)]),
    ("E0E1E2E3E4E5E6E7", "DEMONET.T3270A", "DEMONET.CICSA", "#INTER", "#INTER", (1024, 256),
     [(1, "PRIMARY TO SECONDARY", 1, 2, 2)]),
    ("D0D1D2D3D4D5D6D7", "DEMONET.DOSA", "DEMONET.CICSA", "#BATCH", "#BATCH", (960, 960),
     [(1, "PRIMARY TO SECONDARY", 8, 8, 8), (1, "SECONDARY TO PRIMARY", 8, 8, 8)]),
]
CAPTURES = 6  # 09:00 to 09:50


def display(sid: str, plu: str, slu: str, logmode: str, appncos: str, ru_sizes: tuple[int, int], stages: list) -> str:
    lines = [f"D NET,SESSIONS,SID={sid}", "IST097I DISPLAY ACCEPTED", "IST350I DISPLAY TYPE = SESSIONS",
             f"IST879I PLU/OLU REAL = {plu}  ALIAS = ***NA***", f"IST879I SLU/DLU REAL = {slu}  ALIAS = ***NA***",
             "IST880I SETUP STATUS = ACTIV", f"IST933I LOGMODE={logmode} , COS=*BLANK*",
             f"IST875I APPNCOS TOWARDS SLU = {appncos}",
             f"IST2064I PLU TO SLU RU SIZE = {ru_sizes[0]} SLU TO PLU RU SIZE = {ru_sizes[1]}",
             "IST1636I PACING STAGE(S) AND VALUES:"]
    for stage, flow, current, upcoming, receive in stages:
        sender, receiver = flow.split(" TO ")
        first = "IST1638I" if sender == "PRIMARY" else "IST1641I"
        send, recv = ("IST1639I", "IST1640I") if sender == "PRIMARY" else ("IST1642I", "IST1643I")
        lines += [f"{first} STAGE{stage}: {flow} DIRECTION - ADAPTIVE",
                  f"{send}     {sender} SEND: CURRENT = {current}  NEXT = {upcoming}",
                  f"{recv}     {receiver} RECEIVE        = {receive}"]
    return "\n".join(lines + ["IST314I END"]) + "\n"


def generate(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    path = out / "SYSA_d-net-sessions.log"
    start = dt.datetime.combine(DEMO_START, dt.time(9, 0))
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for n in range(CAPTURES):
            for k, session in enumerate(SESSIONS):  # one display at a time: 20 s apart
                f.write(f"# captured: {start + dt.timedelta(minutes=10 * n, seconds=20 * k):%Y-%m-%dT%H:%M:%S} "
                        f"host: SYSA\n")
                f.write(display(*session))
    return [landed(path, DEMO_START)]


def demo(home: Home, seed: int) -> list[Path]:
    """The demo's D NET,SESSIONS displays, written into ``home/landing/commands`` (the same for every seed)."""
    return generate(home.landing / "commands")


def add_parser(subparsers) -> None:
    add_listing_command(subparsers, "vtam-sessions", generate, HELP, DESCRIPTION, family="commands")
