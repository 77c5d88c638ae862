"""VTAM ``D NET,BFRUSE``: buffer pool use and VTAM storage (IST message groups).

Real sample (IBM developer Q&A "How can I monitor VTAM's storage use?"; spacing collapsed, shortened)::

    d net,bfruse
    IST097I DISPLAY ACCEPTED
    IST350I DISPLAY TYPE = BUFFER POOL DATA
    IST920I IO00 BUFF SIZE 334 EXP INCREMENT 55
    IST921I TIMES EXP 0 EXP/CONT THRESH 36 / *NA*
    IST922I CURR TOTAL 110 CURR AVAILABLE 110
    IST923I MAX TOTAL 110 MAX USED 1
    IST989I EXP LIMIT 2147483647 BUFFS REQUESTED 0
    IST924I -------------------------------------------------------------
    IST920I BS00 BUFF SIZE 216 EXP INCREMENT 17
    IST921I TIMES EXP 0 EXP/CONT THRESH 17 / *NA*
    IST922I CURR TOTAL 34 CURR AVAILABLE 34
    IST923I MAX TOTAL 34 MAX USED 0

The tail and the BUFFER=SHORT rows follow IBM's message templates (IST449I, IST790I, IST595I,
IST981I, IST1565I, IST1667I, IST1831I, IST2404I; IST632I/IST633I headings and IST356I rows
``bpid[Q][F] bufsize curtot curavail maxtot maxused times exp/cont incr``); ``IST314I END`` closes
the display. A capture without ``IST314I`` or with a pool missing its IST921I-IST923I lines is
truncated and rejected; a line that is there but not in its documented layout (or another job's
message without a hardcopy prefix) is kept in ``raw.command_unparsed_lines`` and the rest loads.

Console prefixes are stripped: every line is read from its ``ISTnnnI`` message ID. A z/OS hardcopy
log prefix (``NR0000000 SYSA     26005 10:00:00.12 STC00031 00000290  IST350I ...``, documented
layout ``tcrrrrrrr sysname yyddd hh:mm:ss.th ident msgflags``) gives the capture time and the host
(the system name). In such a log each ``IST350I`` starts a capture; other console traffic (single-line
messages with their own prefix, even between the lines of a display) is ignored.

Output: pools (section ``pool``, entity = pool ID such as ``IO00``): ``buff_size`` (bytes),
``exp_increment``, ``exp_threshold``, ``cont_threshold`` (no row for ``*NA*``), ``curr_total``,
``curr_available``, ``max_total``, ``max_used``, ``exp_limit``, ``buffs_requested`` (gauges; the
maxima restart at every D NET,BFRUSE by anyone, so they are peaks since the previous display),
``times_exp`` (counter, cumulative expansions), ``flags`` (text, SHORT format Q/F). Storage (section
``storage``, values in KiB, entity ``CSA``, ``CSA24``, ``IRN``, ``PRIVATE``, ``SYSTEM CSA``,
``HVCOMMON`` or the module storage type): ``limit_k``, ``current_k``, ``maximum_k``,
``maximum_used_k``, ``remaining_pct``, ``modules_k`` (gauges).
"""

from __future__ import annotations

import datetime as dt
import re

from ingest.formats.capture import Capture, CaptureError, Counter, split_captures_at
from ingest.formats.command_parser import CommandParser

MSG_RE = re.compile(r"\b(IST\d{3,4}[IEAW])\s+(.*?)\s*$")
HARDCOPY_RE = re.compile(
    r"^[DELMNOSWX][CRI ]?[0-9A-F]{7}\s+(?P<system>\S+)\s+(?P<date>\d{5}|\d{7})\s+(?P<time>\d\d:\d\d:\d\d\.\d\d)\s"
)
NUM = r"(\d+|\*+|\*+NA\*+)"
POOL_RES = {
    "IST920I": re.compile(rf"^(?P<pool>\S+)\s+BUFF\s*SIZE\s+{NUM}(?:\s+EXP\s+INCREMENT\s+{NUM})?$"),
    "IST921I": re.compile(rf"^TIMES\s+EXP\s+{NUM}\s+EXP/CONT\s+THRESH\s+{NUM}\s*/\s*{NUM}$"),
    "IST922I": re.compile(rf"^CURR\s+TOTAL\s+{NUM}\s+CURR\s+AVAILABLE\s+{NUM}$"),
    "IST923I": re.compile(rf"^MAX\s+TOTAL\s+{NUM}\s+MAX\s+USED\s+{NUM}$"),
    "IST989I": re.compile(rf"^EXP\s+LIMIT\s+{NUM}\s+BUFFS\s+REQUESTED\s+{NUM}$"),
}
POOL_FIELDS = {
    "IST920I": [("BUFF SIZE", "buff_size", "bytes", "gauge"), ("EXP INCREMENT", "exp_increment", "count", "gauge")],
    "IST921I": [("TIMES EXP", "times_exp", "count", "counter"), ("EXP THRESH", "exp_threshold", "count", "gauge"),
                ("CONT THRESH", "cont_threshold", "count", "gauge")],
    "IST922I": [("CURR TOTAL", "curr_total", "count", "gauge"), ("CURR AVAILABLE", "curr_available", "count", "gauge")],
    "IST923I": [("MAX TOTAL", "max_total", "count", "gauge"), ("MAX USED", "max_used", "count", "gauge")],
    "IST989I": [("EXP LIMIT", "exp_limit", "count", "gauge"), ("BUFFS REQUESTED", "buffs_requested", "count", "gauge")],
}
SHORT_ROW_RE = re.compile(
    rf"^(?P<pool>\S{{4}})(?P<flags>[QF]*)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s*/\s*{NUM}\s+{NUM}$"
)
SHORT_FIELDS = [("BUFF SIZE", "buff_size", "bytes", "gauge"), ("CURR TOTAL", "curr_total", "count", "gauge"),
                ("CURR AVAIL", "curr_available", "count", "gauge"), ("MAX TOTAL", "max_total", "count", "gauge"),
                ("MAX USED", "max_used", "count", "gauge"), ("TIMES EXP", "times_exp", "count", "counter"),
                ("EXP THRESHOLD", "exp_threshold", "count", "gauge"), ("CONT THRESHOLD", "cont_threshold", "count", "gauge"),
                ("EXP INCR", "exp_increment", "count", "gauge")]
KILO = r"(\d+|NO\s*LIMIT|NOLIMIT)\s*([KM]?)"
IGNORED = {"IST097I", "IST350I", "IST924I", "IST632I", "IST633I", "IST2403I"}
POOL_LINES = ("IST921I", "IST922I", "IST923I")


class VtamBfruse(CommandParser):
    format = "vtam.bfruse"
    command = "D NET,BFRUSE"
    version = "2"
    priority = 40

    def matches(self, lines: list[str]) -> bool:
        ids = {m[1] for ln in lines if (m := MSG_RE.search(ln))}
        return "IST350I" in ids and bool(ids & {"IST920I", "IST356I", "IST449I"}) or "IST920I" in ids

    def split(self, cap: Capture) -> list[Capture]:
        starts = [i for i, ln in enumerate(cap.lines) if "IST350I" in ln]
        return split_captures_at(cap, starts[1:]) if len(starts) > 1 else [cap]

    def parse_capture(self, cap: Capture) -> list[Counter]:
        self._native_time(cap)
        out: list[Counter] = []
        pool: str | None = None
        pool_lines: set[str] = set()
        pool_at = 0
        ended = False
        for i, raw in enumerate(cap.lines):
            if _other_console_traffic(raw):
                continue
            m = MSG_RE.search(raw)
            if m is None:
                if raw.strip() and not ended and out:
                    cap.skip(i, "expected an ISTnnnI message line inside the display")
                continue  # the command echo and console traffic around the display
            msg, text = m[1], m[2]
            if ended or msg in IGNORED:
                continue
            if msg == "IST314I":
                ended = True
                continue
            if msg in POOL_RES:
                if msg == "IST920I":
                    _check_pool(cap, pool, pool_lines, pool_at)
                    pool, pool_lines, pool_at = None, set(), i
                pool_lines.add(msg)  # present, even if unreadable: the display was not cut there
                fields = _match(msg, text)
                if msg == "IST920I" and fields is not None:
                    pool, fields = fields[0], fields[1:]
                if fields is None or pool is None:
                    cap.skip(i, f"{msg} does not have the documented layout" if fields is None
                             else f"{msg} before a readable IST920I pool line")
                    continue
                out.extend(_values(i, "pool", pool, POOL_FIELDS[msg], fields))
                continue
            rows = _short_row(i, text) if msg == "IST356I" else _storage(i, msg, text)
            if msg != "IST356I":
                _check_pool(cap, pool, pool_lines, pool_at)
                pool = None
            if rows is None:
                cap.skip(i, f"{msg} is not a line of the D NET,BFRUSE display in its documented layout")
                continue
            out.extend(rows)
        if not ended:
            _check_pool(cap, pool, pool_lines, pool_at)
            raise CaptureError("display has no IST314I END line (truncated capture)", cap.line_no(len(cap.lines) - 1))
        _check_pool(cap, pool, pool_lines, pool_at)
        return out

    def _native_time(self, cap: Capture) -> None:
        """A hardcopy-log prefix gives the time and system: the IST350I line's, else the first one."""
        prefixed = [m for line in cap.lines if (m := HARDCOPY_RE.match(line))]
        own = [m for line in cap.lines if "IST350I" in line and (m := HARDCOPY_RE.match(line))]
        m = (own or prefixed or [None])[0]
        if m is None:
            return
        date = m["date"]
        year, day = (2000 + int(date[:2]), int(date[2:])) if len(date) == 5 else (int(date[:4]), int(date[4:]))
        clock = dt.datetime.strptime(m["time"], "%H:%M:%S.%f").time()
        cap.captured_at = dt.datetime.combine(dt.date(year, 1, 1) + dt.timedelta(days=day - 1), clock)
        cap.utc_offset_s = None
        cap.host = m["system"]


def _other_console_traffic(line: str) -> bool:
    """A single-line message with its own hardcopy prefix (record type N, W, X or O) belongs to some
    other job even when it falls between the lines of the display (types M, D and E)."""
    return line[:1] in "NWXO" and HARDCOPY_RE.match(line) is not None and "IST350I" not in line


def _match(msg: str, text: str) -> list[str] | None:
    m = POOL_RES[msg].match(text)
    return list(m.groups()) if m else None


def _number(text: str | None) -> float | None:
    """A count; '*NA*' (not applicable) and '*****' (too large for SHORT format) are unknown."""
    return None if text is None or text.startswith("*") else float(text)


def _values(i: int, section: str, entity: str, fields, texts) -> list[Counter]:
    return [
        Counter(i, section, entity, label, name, _number(text), None, unit, kind)
        for (label, name, unit, kind), text in zip(fields, texts)
        if _number(text) is not None
    ]


def _check_pool(cap: Capture, pool: str | None, seen: set[str], at: int) -> None:
    missing = [m for m in POOL_LINES if m not in seen]
    if pool is not None and missing:
        raise CaptureError(f"pool {pool} has no {', '.join(missing)} line (truncated capture)", cap.line_no(at))


def _short_row(i: int, text: str) -> list[Counter] | None:
    """A BUFFER=SHORT row 'bpid[Q][F] bufsize curtot curavail maxtot maxused times exp/cont incr'."""
    m = SHORT_ROW_RE.match(text)
    if not m:
        return None
    pool, flags = m["pool"], m["flags"]
    rows = _values(i, "pool", pool, SHORT_FIELDS, m.groups()[2:])
    if flags:
        rows.append(Counter(i, "pool", pool, "flags", "flags", None, flags, None, "text"))
    return rows


def _kilo(text: str, suffix: str) -> float | None:
    if not text[0].isdigit():
        return None  # NO LIMIT
    return float(text) * (1024 if suffix == "M" else 1)


def _storage(i: int, msg: str, text: str) -> list[Counter] | None:
    def row(entity, label, name, value, unit="KiB"):
        return Counter(i, "storage", entity, label, name, value, None, unit, "gauge")

    if msg == "IST449I":
        m = re.match(rf"^(CSA24|CSA)\s*LIMIT\s*=\s*{KILO}\s*,\s*CURRENT\s*=\s*{KILO}\s*,\s*MAXIMUM\s*=\s*{KILO}$", text)
        if m:
            entity = m[1]
            out = [row(entity, "CURRENT", "current_k", _kilo(m[4], m[5])), row(entity, "MAXIMUM", "maximum_k", _kilo(m[6], m[7]))]
            limit = _kilo(m[2], m[3])
            return out + ([row(entity, "LIMIT", "limit_k", limit)] if limit is not None else [])
    elif msg == "IST790I":
        m = re.match(rf"^MAXIMUM\s+(CSA24|CSA)\s+USED\s*=\s*{KILO}$", text)
        if m:
            return [row(m[1], "MAXIMUM USED", "maximum_used_k", _kilo(m[2], m[3]))]
    elif msg == "IST595I":
        m = re.match(rf"^IRNLIMIT\s*=\s*{KILO}\s*,\s*CURRENT\s*=\s*{KILO}\s*,?\s*MAXIMUM\s*=\s*{KILO}$", text)
        if m:
            limit = _kilo(m[1], m[2])
            return [row("IRN", "CURRENT", "current_k", _kilo(m[3], m[4])), row("IRN", "MAXIMUM", "maximum_k", _kilo(m[5], m[6]))] + (
                [row("IRN", "IRNLIMIT", "limit_k", limit)] if limit is not None else [])
    elif msg == "IST981I":
        m = re.match(rf"^VTAM\s+PRIVATE:\s*CURRENT\s*=\s*{KILO}\s*,\s*MAXIMUM\s+USED\s*=\s*{KILO}$", text)
        if m:
            return [row("PRIVATE", "CURRENT", "current_k", _kilo(m[1], m[2])),
                    row("PRIVATE", "MAXIMUM USED", "maximum_used_k", _kilo(m[3], m[4]))]
    elif msg == "IST1667I":
        m = re.match(rf"^SYSTEM\s+CSA\s+LIMIT\s*=\s*{KILO}$", text)
        if m:
            return [row("SYSTEM CSA", "SYSTEM CSA LIMIT", "limit_k", _kilo(m[1], m[2]))]
    elif msg == "IST1831I":
        m = re.match(rf"^(\d+)%\s+OF\s+SYSTEM\s+CSA\s+STORAGE\s+REMAINING\s*=\s*{KILO}$", text)
        if m:
            return [row("SYSTEM CSA", "% REMAINING", "remaining_pct", float(m[1]), "pct"),
                    row("SYSTEM CSA", "STORAGE REMAINING", "remaining_k", _kilo(m[2], m[3]))]
    elif msg == "IST1565I":
        m = re.match(rf"^(\S+)\s+MODULES\s*=\s*{KILO}$", text)
        if m:
            return [row(m[1], "MODULES", "modules_k", _kilo(m[2], m[3]))]
    elif msg == "IST2404I":
        m = re.match(rf"^(\S+)\s+{KILO}\s+{KILO}\s+{KILO}$", text)
        if m:
            limit = _kilo(m[6], m[7])
            return [row(m[1], "CURRENT", "current_k", _kilo(m[2], m[3])), row(m[1], "MAXIMUM", "maximum_k", _kilo(m[4], m[5]))] + (
                [row(m[1], "LIMIT", "limit_k", limit)] if limit is not None else [])
    return None


PARSER = VtamBfruse()
