"""VTAM ``D NET,SESSIONS,SID=``: one session's partners, logon mode and its pacing windows, stage by stage.

Real sample (seed 003, SHARE "VTAM and HPR Performance Update", L657-L683: "D NET,SESSIONS,SID= shows current
pacing values")::

    D NET,SESSIONS,SID=FD87C05900BCFE62
    IST097I DISPLAY ACCEPTED
    IST350I DISPLAY TYPE = SESSIONS 124
    IST879I PLU/OLU REAL = CSSNET.NETM001  ALIAS = ***NA***
    IST879I SLU/DLU REAL = CSSNET.EN001  ALIAS = ***NA***
    IST880I SETUP STATUS = ACTIV
    IST875I ADJSSCP TOWARDS SLU = ISTAPNCP
    IST875I ALSNAME TOWARDS SLU = PU75072
    IST933I LOGMODE=#BAT2K , COS=*BLANK*
    IST875I APPNCOS TOWARDS SLU = #BATCH
    IST1635I PLU HSCB TYPE: FMCB LOCATED AT ADDRESS X'05AB7C90'
    IST1635I SLU HSCB TYPE: BSB LOCATED AT ADDRESS X'05CD4C90'
    IST1636I PACING STAGE(S) AND VALUES:
    IST1644I PLU--STAGE 1-----|-----STAGE 2--SLU
    IST1638I STAGE1: PRIMARY TO SECONDARY DIRECTION - ADAPTIVE
    IST1639I     PRIMARY SEND: CURRENT = 4  NEXT = 7
    IST1640I     SECONDARY RECEIVE      = 7
    IST1641I STAGE1: SECONDARY TO PRIMARY DIRECTION - ADAPTIVE
    IST1642I     SECONDARY SEND: CURRENT = 54  NEXT = 63
    IST1643I     PRIMARY RECEIVE        = 63
    IST1638I STAGE2: PRIMARY TO SECONDARY DIRECTION - ADAPTIVE
    IST1639I     PRIMARY SEND: CURRENT = 50  NEXT = 64
    IST1641I STAGE2: SECONDARY TO PRIMARY DIRECTION - ADAPTIVE
    IST1643I     PRIMARY RECEIVE        = 63
    IST314I END

z/OS Communications Server adds the RU sizes the session's BIND settled on, between the IST1635I lines and
IST1636I (the IST879I message group of IBM's z/OS Communications Server: SNA Messages, V2R1, SC27-3669: ``[IST2064I
PLU TO SLU RU SIZE = plu_to_slu_rusize SLU TO PLU RU SIZE = slu_to_plu_rusize ]``), read in bytes::

    IST2064I PLU TO SLU RU SIZE = 4096 SLU TO PLU RU SIZE = 4096

Output: the session (section ``session``, entity = the SID of the command echo, else ``PLU>SLU``): texts
``plu``, ``slu``, ``setup_status``, ``logmode``, ``cos`` and ``appncos``; gauges ``plu_to_slu_ru_size`` and
``slu_to_plu_ru_size`` (bytes, IST2064I: the largest RU each partner sends). Its pacing (section ``pacing``, entity
``<session>/STAGE<n>/<FROM> TO <TO>``, one per stage and direction of an IST1638I or IST1641I line): gauges
``send_window_current`` and ``send_window_next`` (IST1639I, IST1642I) and ``receive_window`` (IST1640I,
IST1643I), in RUs, and the text ``pacing_type`` (ADAPTIVE, FIXED). A display without ``IST314I END`` is cut
short and rejected; an IST line of the display not in this layout is kept in ``raw.command_unparsed_lines`` and
the rest loads. Console prefixes before the ``ISTnnnI`` message ID are ignored.
"""

from __future__ import annotations

import re

from ingest.formats.capture import Capture, CaptureError, Counter
from ingest.formats.command_parser import CommandParser

MSG_RE = re.compile(r"\b(IST\d{3,4}[IEAW])\s+(.*?)\s*$")
SID_RE = re.compile(r"\bD\s+NET\s*,\s*SESSIONS?\s*,.*\bSID=([0-9A-F]{16})\b", re.IGNORECASE)
PARTNER_RE = re.compile(r"^(?P<role>PLU|SLU)/(?:OLU|DLU)\s+REAL\s*=\s*(?P<name>\S+)")
STATUS_RE = re.compile(r"^SETUP\s+STATUS\s*=\s*(?P<status>\S+)$")
MODE_RE = re.compile(r"^LOGMODE\s*=\s*(?P<logmode>[^\s,]*)\s*,\s*COS\s*=\s*(?P<cos>\S*)$")
APPNCOS_RE = re.compile(r"^APPNCOS\s+TOWARDS\s+SLU\s*=\s*(?P<cos>\S+)$")
DIRECTION_RE = re.compile(r"^STAGE(?P<stage>\d+):\s+(?P<flow>PRIMARY\s+TO\s+SECONDARY|SECONDARY\s+TO\s+PRIMARY)"
                          r"\s+DIRECTION\s+-\s+(?P<type>\S+)$")
SEND_RE = re.compile(r"^(?P<role>PRIMARY|SECONDARY)\s+SEND:\s+CURRENT\s*=\s*(?P<current>\d+)\s+NEXT\s*=\s*(?P<next>\d+)$")
RECEIVE_RE = re.compile(r"^(?P<role>PRIMARY|SECONDARY)\s+RECEIVE\s*=\s*(?P<window>\d+)$")
RU_SIZES_RE = re.compile(r"^PLU\s+TO\s+SLU\s+RU\s+SIZE\s*=\s*(?P<plu>\d+)\s+SLU\s+TO\s+PLU\s+RU\s+SIZE\s*=\s*(?P<slu>\d+)$")
# the lines of the display that carry nothing the tables keep
IGNORED = {"IST097I", "IST1635I", "IST1636I", "IST1644I"}
WINDOW = {"unit": "RUs", "kind": "gauge"}


class VtamSessions(CommandParser):
    format = "vtam.sessions"
    command = "D NET,SESSIONS"

    def matches(self, lines: list[str]) -> bool:
        return any(m and m[1] == "IST350I" and m[2].startswith("DISPLAY TYPE = SESSIONS")
                   for m in (MSG_RE.search(ln) for ln in lines))

    def parse_capture(self, cap: Capture) -> list[Counter]:
        sid = next((m[1].upper() for ln in cap.lines if (m := SID_RE.search(ln))), None)
        partners: dict[str, str] = {}
        texts: list[tuple[int, str, str, str]] = []  # (offset, label, name, text) of the session
        sizes: list[Counter] = []  # the session's RU sizes (IST2064I), its entity set with the texts'
        pacing: list[Counter] = []
        direction: str | None = None
        ended = False
        for i, raw in enumerate(cap.lines):
            m = MSG_RE.search(raw)
            if m is None or ended or m[1] in IGNORED or (m[1] == "IST350I"):
                continue
            msg, text = m[1], m[2]
            if msg == "IST314I":
                ended = True
            elif msg == "IST879I" and (p := PARTNER_RE.match(text)):
                partners[p["role"]] = p["name"]
                texts.append((i, f"{p['role']} REAL", p["role"].lower(), p["name"]))
            elif msg == "IST880I" and (s := STATUS_RE.match(text)):
                texts.append((i, "SETUP STATUS", "setup_status", s["status"]))
            elif msg == "IST933I" and (s := MODE_RE.match(text)):
                texts += [(i, "LOGMODE", "logmode", s["logmode"]), (i, "COS", "cos", s["cos"])]
            elif msg == "IST875I" and text.startswith(("ADJSSCP", "ALSNAME")):
                continue  # the route towards the SLU: not a setting of the session
            elif msg == "IST875I" and (s := APPNCOS_RE.match(text)):
                texts.append((i, "APPNCOS", "appncos", s["cos"]))
            elif msg == "IST2064I" and (s := RU_SIZES_RE.match(text)):
                sizes += [Counter(i, "session", "", label, name, float(s[group]), None, "bytes", "gauge")
                          for label, name, group in (("PLU TO SLU RU SIZE", "plu_to_slu_ru_size", "plu"),
                                                     ("SLU TO PLU RU SIZE", "slu_to_plu_ru_size", "slu"))]
            elif msg in ("IST1638I", "IST1641I") and (d := DIRECTION_RE.match(text)):
                direction = f"STAGE{d['stage']}/{' '.join(d['flow'].split())}"
                pacing.append(Counter(i, "pacing", direction, "PACING", "pacing_type", None, d["type"], None, "text"))
            elif msg in ("IST1639I", "IST1642I") and direction and (s := SEND_RE.match(text)):
                pacing += [Counter(i, "pacing", direction, f"{s['role']} SEND CURRENT", "send_window_current",
                                   float(s["current"]), None, **WINDOW),
                           Counter(i, "pacing", direction, f"{s['role']} SEND NEXT", "send_window_next",
                                   float(s["next"]), None, **WINDOW)]
            elif msg in ("IST1640I", "IST1643I") and direction and (s := RECEIVE_RE.match(text)):
                pacing.append(Counter(i, "pacing", direction, f"{s['role']} RECEIVE", "receive_window",
                                      float(s["window"]), None, **WINDOW))
            else:
                cap.skip(i, f"{msg} is not a line of the D NET,SESSIONS display in its documented layout")
        if not ended:
            raise CaptureError("display has no IST314I END line (truncated capture)", cap.line_no(len(cap.lines) - 1))
        session = sid or (f"{partners['PLU']}>{partners['SLU']}" if {"PLU", "SLU"} <= partners.keys() else None)
        if session is None:
            raise CaptureError("expected the SID of the command or the PLU and SLU of IST879I lines to name the "
                               "session", cap.line_no(0))
        return ([Counter(i, "session", session, label, name, None, text, None, "text") for i, label, name, text in texts]
                + [c._replace(entity=session) for c in sizes]
                + [c._replace(entity=f"{session}/{c.entity}") for c in pacing])


PARSER = VtamSessions()
