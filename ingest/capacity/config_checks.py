"""A parameter listing checked against the tuning rules of seeds 000, 001 (the READLINK cache), 002, 003 and 004.

The rules are the rows of the rules catalogue (``dbt_project/seeds/rules_catalogue.csv``) whose
``evaluated_by`` is ``config_checks``: their ids, sources, severities and, for a rule that is one
comparison (UNITSZ <> 4000), the parameter, operator, limit and advice; a rule that relates several
parameters has its check here (``CHECKS``), found by its rule_id.

A listing is what a site has configured: the ``parameters`` of the runs of a benchmark log
(``docs/benchmark_format.md``, read and validated by the benchmark parsers' own ``log_reader``; the run's
label names its node) or a plain CSV with the columns ``parameter,value`` and optionally ``unit`` and
``node`` (one node = one machine or definition set; ``profile`` or ``platform`` also name it), or a listing in a
form ``perfdb ingest`` reads (AIX ``no -a`` and ``lsattr -El``, VTAM and NCP definitions, a TCP/IP for VSE
IPINIT member, a GUARDIAN PEEK EXPEDITED display: the parsers of ``ingest.formats.listings``). A sample,
the baseline NCP of seed 000's Figure 6::

    node,parameter,value,unit
    NCP,UNITSZ,384,bytes
    NCP,MAXBUFRU,40,
    NCP,SLODOWN,50,%
    VTAM,IOBUF,"(200,384,,,100,50)",

Each rule names its source: ``000`` = IBM "Getting the most from APPC" (1994), ``001`` = Tandem Systems Review
(December 1986: PEEK's READLINK cache statistics against SYSGEN's buffers), ``002`` = CS/AIX V5 redbook
SG24-2136 (1998), ``003`` = SHARE "VTAM and HPR Performance Update" (1999), ``004`` = IBM "TCP/IP for VSE/ESA
performance" foils (2001: the SET values and DEFINE keywords of an IPINIT member), with the seed's line numbers.
A rule is checked on each node's own parameters; a rule that relates parameters of different nodes (VTAM
IOBUF and NCP UNITSZ) is checked once on the parameters that only one node sets; a rule of PEER_CHECKS reads a
node's parameters against the other nodes' of the listing (NCP's T2TIMER against its stations' send windows).

The CSV listing is read by ``ingest.formats.listings.settings``, as ``perfdb ingest`` reads it into
``raw.parameter_listings``; ``marts.rpt_config_findings`` evaluates the same rules there in SQL (the
comparisons from the catalogue, the checks of CHECKS in ``dbt_project/macros/config_rules.sql``) and finds
what ``check`` finds (``tests/listings/test_config_findings.py``).

Output: one ``Finding`` per broken rule (rule id, severity alert/warn/info, node, what was found, what the
rule expects, the source lines).
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ingest.capacity.sizing import APPN_HEADER_BYTES, SUBAREA_HEADER_BYTES, decode_rusizes
from ingest.formats.base import FormatError
from ingest.formats.benchmark.log_reader import log_form, read_runs
from ingest.formats.benchmark.record import RecordError
from ingest.formats.base import SNIFF_BYTES, UTF8_BOM
from ingest.formats.listings.reader import ListingParser
from ingest.formats.listings.settings import (PLATFORM_PARAMETERS, ListingError, Setting, csv_header, csv_settings,
                                              setting)

TRUE_WORDS = {"yes", "y", "true", "1", "on"}


@dataclass(frozen=True)
class Finding:
    rule_id: str
    severity: str  # alert | warn | info
    node: str
    parameters: str
    found: str
    expected: str
    source: str

    def as_row(self) -> dict:
        return {
            "rule_id": self.rule_id, "severity": self.severity, "node": self.node, "parameters": self.parameters,
            "found": self.found, "expected": self.expected, "source": self.source,
        }


# -- the rules ---------------------------------------------------------------------------------------------

Values = dict[str, Setting]


@dataclass(frozen=True)
class Rule:
    rule_id: str
    needs: tuple[str, ...]  # canonical keys that must all be set for the rule to apply
    check: Callable[..., list[tuple[str, str, str, str]]]  # -> (severity, parameters, found, expected)
    source: str
    peers: tuple[str, ...] = ()  # a PEER_CHECKS rule: the keys it reads on the listing's other nodes


def _n(values: Values, key: str) -> float | None:
    s = values.get(key)
    return None if s is None else s.value


def _t(values: Values, key: str) -> str:
    s = values.get(key)
    return "" if s is None else s.text.strip().lower()


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,g}"


PACING_KEYS = ("pacing_window", "mode_send_pacing")  # every pacing window, SNA Services/6000's send window too


def _pacing_windows(v: Values):
    out = []
    for s in v.get("_pacing_all", []):
        if s.value is not None and 0 < s.value < 8:
            out.append(("warn", s.parameter, f"{s.parameter} = {_fmt(s.value)}",
                        "a session pacing window of at least 8 RUs (start at 8; raise while throughput improves)"))
    return out


def _header(v: Values) -> tuple[int, str]:
    return (SUBAREA_HEADER_BYTES, "subarea") if "subarea" in _t(v, "network_type") else (APPN_HEADER_BYTES, "APPN")


def _ru_vs_frame(v: Values):
    ru, frame = _n(v, "ru_size"), _n(v, "dlc_frame_size")
    if ru is None or frame is None:
        return []
    header, network = _header(v)
    room = frame - header
    if room <= 0:
        return [("alert", "RU size, DLC frame size", f"frame {_fmt(frame)} bytes",
                 f"a frame larger than the {header}-byte {network} SNA header")]
    if ru <= frame:
        if ru > room:
            return [("warn", "RU size, DLC frame size", f"RU {_fmt(ru)} in a {_fmt(frame)}-byte frame",
                     f"RU <= frame - {header} = {_fmt(room)} bytes ({network} header), or the RU spills into a "
                     f"second, nearly empty frame")]
        return []
    segments = math.ceil(ru / room)
    if ru % room:
        fill = (ru - (segments - 1) * room) / room
        return [("info", "RU size, DLC frame size",
                 f"RU {_fmt(ru)} = {segments} segments of frame - {header}, the last {fill:.0%} full",
                 f"an RU that is a multiple of frame - {header} = {_fmt(room)} bytes ({network}), e.g. "
                 f"{_fmt(segments * room)} or {_fmt((segments - 1) * room)}")]
    return []


def _iobuf_unitsz(v: Values):
    iobuf, unitsz = _n(v, "iobuf"), _n(v, "unitsz")
    if iobuf != unitsz:
        return [("alert", "IOBUF, UNITSZ", f"IOBUF {_fmt(iobuf)}, UNITSZ {_fmt(unitsz)}",
                 "VTAM IOBUF buffer size = NCP UNITSZ (4000 recommended)")]
    return []


def _rcvbufc(v: Values):
    rcvbufc, maxtsl = _n(v, "rcvbufc"), _n(v, "maxtsl")
    if rcvbufc is None or maxtsl is None:
        return []
    out = []
    if rcvbufc < 2 * maxtsl:
        out.append(("alert", "RCVBUFC, MAXTSL", f"RCVBUFC {_fmt(rcvbufc)} < 2 x MAXTSL {_fmt(maxtsl)}",
                    f"RCVBUFC >= {_fmt(2 * maxtsl)}: it must hold two whole frames"))
    limit = {"tic1": 4095, "tic2": 32000}.get(_t(v, "tic").replace(" ", ""))
    if limit is not None and rcvbufc > limit:
        out.append(("alert", "RCVBUFC, TIC", f"RCVBUFC {_fmt(rcvbufc)} on a {_t(v, 'tic').upper()}",
                    f"at most {_fmt(limit)} bytes"))
    return out


def _maxdata_maxtsl(v: Values):
    maxdata, maxtsl = _n(v, "maxdata"), _n(v, "maxtsl")
    if maxdata is not None and maxtsl is not None and maxdata < maxtsl:
        return [("alert", "MAXDATA, MAXTSL", f"MAXDATA {_fmt(maxdata)} < MAXTSL {_fmt(maxtsl)}", "MAXDATA >= MAXTSL")]
    return []


def _size_chain(v: Values):
    maxdata, unitsz, maxbfru, piu = _n(v, "maxdata"), _n(v, "unitsz"), _n(v, "maxbfru"), _n(v, "piu_size")
    if None in (maxdata, unitsz, maxbfru):
        return []
    room = unitsz * maxbfru
    found = f"MAXDATA {_fmt(maxdata)}, UNITSZ x MAXBFRU = {_fmt(room)}" + (f", PIU {_fmt(piu)}" if piu else "")
    if not maxdata > room or (piu is not None and not room > piu):
        return [("alert", "MAXDATA, UNITSZ, MAXBFRU, PIU size", found, "MAXDATA > UNITSZ x MAXBFRU > PIU size")]
    return []


def _maxbfru(v: Values):
    unitsz, maxbfru, piu = _n(v, "unitsz"), _n(v, "maxbfru"), _n(v, "piu_size")
    if None in (unitsz, maxbfru, piu):
        return []
    best = math.ceil(piu / unitsz)
    if maxbfru not in (best, best + 1):
        return [("warn", "MAXBFRU, UNITSZ, PIU size", f"MAXBFRU {_fmt(maxbfru)} for a {_fmt(piu)}-byte PIU",
                 f"MAXBFRU = ceil(PIU / UNITSZ) = {best} (or {best + 1} if sessions fail); more buffers are "
                 f"wasted and make NCP wait for them to fill")]
    return []


def _rusizes(v: Values):
    s = v.get("rusizes")
    try:
        first, second = decode_rusizes(s.text)
    except ValueError:
        return [("warn", "RUSIZES", s.text, "RUSIZES as X'hhhh' (mantissa 8-F, exponent 0-F per byte)")]
    if first != second:
        return [("warn", "RUSIZES", f"{s.text} = {_fmt(first)} / {_fmt(second)} bytes",
                 "the same RU size both ways for a bulk-transfer mode (X'ABAB', not X'ABCD')")]
    return []


def _maxtsl_tic(v: Values):
    maxtsl, tic = _n(v, "maxtsl"), _t(v, "tic").replace(" ", "")
    if tic == "tic1" and maxtsl is not None and maxtsl > 1108:
        return [("alert", "MAXTSL, TIC", f"MAXTSL {_fmt(maxtsl)} on a TIC1", "never above 1108 bytes on a TIC1")]
    return []


def _receive_window_ncp(v: Values):
    rx = _n(v, "receive_window_count")
    if "ncp" in _t(v, "partner") and rx is not None and rx > 7:
        return [("alert", "receive window count (max_ifrm_rcvd), partner", f"{_fmt(rx)} against an NCP",
                 "at most 7: the NCP's default MAXOUT is 7, a larger receive window gives very poor throughput")]
    return []


def _csaix_window_ratio(v: Values):
    """L768: best throughput with the receive window count half the transmit window count; equal is slightly
    worse, larger drops off."""
    rx, tx = _n(v, "receive_window_count"), _n(v, "transmit_window_count")
    return _when(rx is not None and tx is not None and rx > tx / 2, "info",
                 "receive window count (max_ifrm_rcvd), transmit window count (target_pacing_count)",
                 f"{_fmt(rx or 0)} : {_fmt(tx or 0)} (receive : transmit)",
                 "a receive window count of half the transmit window count (16 against 32)")


def _csaix_window_size(v: Values):
    """L780: throughput grows up to the 16:8 (transmit : receive) window counts, not beyond."""
    rx, tx = _n(v, "receive_window_count"), _n(v, "transmit_window_count")
    return _when(rx is not None and tx is not None and (tx < 16 or rx < 8), "info",
                 "transmit window count (target_pacing_count), receive window count (max_ifrm_rcvd)",
                 f"{_fmt(tx or 0)} : {_fmt(rx or 0)} (transmit : receive)",
                 "at least 16:8 (transmit : receive): the gains stop there")


def _csaix_window_range(v: Values):
    """L933-L935 (F14): the transmit window count is target_pacing_count, the receive window count max_ifrm_rcvd,
    and "1 and 127 are the minimum and maximum values"."""
    rx, tx = _n(v, "receive_window_count"), _n(v, "transmit_window_count")
    return _when(rx is not None and tx is not None and (min(rx, tx) < 1 or max(rx, tx) > 127), "warn",
                 "transmit window count (target_pacing_count), receive window count (max_ifrm_rcvd)",
                 f"{_fmt(tx or 0)} : {_fmt(rx or 0)} (transmit : receive)", "each from 1 to 127")


def _adapter_queues(v: Values):
    out = []
    for key in ("adapter_transmit_queue", "adapter_receive_queue"):
        s = v.get(key)
        if s is not None and s.value is not None and s.value < 150:
            out.append(("warn", s.parameter, f"{_fmt(s.value)}",
                        "150 (the maximum): the default 30 limited throughput on token ring and Ethernet"))
    return out


def _sdlc_timer(v: Values):
    timeout, speed, frame = _n(v, "repoll_timeout"), _n(v, "link_speed"), _n(v, "dlc_frame_size")
    if None in (timeout, speed, frame):
        return []
    minimum = 2 * frame * 8 / speed
    if timeout <= minimum:
        return [("warn", "repoll / inactivity timer, link speed, frame size",
                 f"{timeout:g} s at {_fmt(speed)} bit/s with {_fmt(frame)}-byte frames",
                 f"more than 2 x frame bits / link speed = {minimum:.3f} s")]
    return []


def _iobuf_nlp(v: Values):
    iobuf, ru = _n(v, "iobuf"), _n(v, "ru_size")
    nlp = _n(v, "nlp_size") or 8000.0
    if _t(v, "hpr") not in TRUE_WORDS or _t(v, "mpc_plus") in TRUE_WORDS or iobuf is None or ru is None or ru < 16384:
        return []
    if nlp - 2 * iobuf < 200:
        return [("warn", "IOBUF, RU size, NLP size (HPR without MPC+)",
                 f"2 x IOBUF {_fmt(iobuf)} leaves {_fmt(nlp - 2 * iobuf)} bytes of a {_fmt(nlp)}-byte NLP",
                 "two IOBUFs and the HPR header in one NLP: the document's IOBUF 3900 (200 bytes left) works, "
                 "3992 (16 bytes left) does not")]
    return []


def _csm_storage(v: Values):
    if _t(v, "csm_storage") == "ecsa":
        return [("info", "CSM storage", "ECSA", "CSM in a data space (the default)")]
    return []


def _tibuf(v: Values):
    tibuf = _n(v, "tibuf")
    if tibuf is not None and tibuf > 0 and _t(v, "mpc_plus") not in TRUE_WORDS:
        return [("info", "TIBUF, MPC+", f"TIBUF {_fmt(tibuf)} without MPC+", "TIBUF=0 when MPC+ is not used")]
    return []


# -- a mode's rules (seed 000 L294, L320-L322, L378-L389, L504-L510, L713-L775, L902-L910; seed 003 L511-L514) --
# A mode is a node of its own when the listing defines several (an AS/400 MODD, a CM/2 DEFINE_MODE:
# ``<host>/<mode>``). The document's bulk modes are the architected #BATCH ones; #INTER and #INTERSC are its
# interactive modes, whose small RUs are right, so the RU rules skip them.
ARCHITECTED_MODES = ("blank", "#batch", "#batchsc", "#inter", "#intersc")
INTERACTIVE_MODES = ("#inter", "#intersc")


def _bulk(v: Values) -> bool:
    return _t(v, "mode_name") not in INTERACTIVE_MODES


def _when(fired: bool, severity: str, parameters: str, found: str, expected: str):
    return [(severity, parameters, found, expected)] if fired else []


def _cos_priority(v: Values):
    mode, cos = _t(v, "mode_name"), _t(v, "cos_name")
    return _when(mode.startswith("#batch") and cos in INTERACTIVE_MODES, "warn", "mode, class of service",
                 f"{mode.upper()} on COS {cos.upper()}",
                 "a bulk-transfer mode on a class of service of MEDIUM or LOW transmission priority (#BATCH)")


def _custom_mode(v: Values):
    mode = _t(v, "mode_name")
    return _when(mode not in ARCHITECTED_MODES, "info", "mode", mode.upper(),
                 "an architected mode (BLANK, #BATCH, #BATCHSC, #INTER, #INTERSC), or this mode defined alike on "
                 "every node")


def _below(v: Values, key: str, limit: float, bulk_only: bool) -> float | None:
    """The parameter's number when it is below ``limit`` (on a bulk mode only, if ``bulk_only``), else None."""
    x = _n(v, key)
    return x if x is not None and x < limit and (_bulk(v) or not bulk_only) else None


def _bulk_ru(v: Values):
    ru = _below(v, "ru_size", 2048, bulk_only=True)
    return _when(ru is not None, "warn", "RU size", f"{_fmt(ru or 0)} bytes",
                 "at least 4 KB for bulk transfer (under 2 KB is an interactive default)")


def _cm2_ru(v: Values):
    ru = _below(v, "max_ru_size_upper_bound", 16384, bulk_only=True)
    return _when(ru is not None, "warn", "MAX_RU_SIZE_UPPER_BOUND", f"{_fmt(ru or 0)} bytes",
                 "16,384 on CM/2 for a bulk-transfer mode")


def _cm2_receive_pacing(v: Values):
    window = _below(v, "pacing_window", 63, bulk_only=False)
    return _when(window is not None, "warn", "RECEIVE_PACING_WINDOW", _fmt(window or 0), "63 on CM/2 (always choose 63)")


def _as400_ru(v: Values):
    return _when(_t(v, "maxlenru") != "*calc", "warn", "MAXLENRU", v["maxlenru"].text,
                 "*CALC: the AS/400 computes the optimal RU size")


def _as400_pacing(v: Values):
    paced = (_n(v, "inpacing"), _n(v, "outpacing"))
    return _when(any(x is not None and x != 7 for x in paced), "warn", "INPACING, OUTPACING",
                 f"{v['inpacing'].text} / {v['outpacing'].text}", "7 and 7")


def _maxframe_both(v: Values):
    lind, ctld = _t(v, "lind_maxframe").replace(" ", ""), _t(v, "ctld_maxframe").replace(" ", "")
    return _when(lind != ctld, "alert", "MAXFRAME of the line and of the controller",
                 f"LIND {lind.upper()}, CTLD {ctld.upper()}",
                 "MAXFRAME changed in both the line and the controller description, or it has no effect")


def _lan_window(v: Values):
    out, ack = _t(v, "lanmaxout"), _t(v, "lanackfrq")
    return _when((out, ack) not in (("*calc", "*calc"), ("*calc", "1"), ("2", "*calc"), ("2", "1"), ("4", "2")),
                 "info", "LANMAXOUT, LANACKFRQ", f"{out.upper()} / {ack.upper()}",
                 "*CALC (2 / 1); 4 / 2 on a link dedicated to bulk transfer, back to *CALC without a gain")


def _bulk_rusizes(v: Values) -> tuple[int, int] | None:
    """The two RU sizes of a bulk mode's RUSIZES; None for an interactive mode or a value that is no RUSIZES
    (000-rusizes-symmetric reports that)."""
    try:
        return decode_rusizes(v["rusizes"].text) if _bulk(v) else None
    except ValueError:
        return None


def _rusizes_bulk(v: Values):
    sizes = _bulk_rusizes(v)
    return _when(sizes is not None and sizes != (65536, 65536), "warn", "RUSIZES", v["rusizes"].text,
                 "X'8D8D' (64 KB both ways) for a bulk-transfer mode")


def _rusizes_4k(v: Values):
    smallest = min(_bulk_rusizes(v) or (math.inf,))
    return _when(smallest <= 4096, "info", "RUSIZES", f"{v['rusizes'].text} = {_fmt(smallest)} bytes",
                 "RUs above 4K for bulk transfer: CPU per byte with 4K RUs was more than twice that with 16K")


def _ru_multiple(v: Values, network: str):
    """L310-L312: an RU larger than the frame, a multiple of frame - header (R05 subarea, R06 APPN)."""
    ru, frame = _n(v, "ru_size"), _n(v, "dlc_frame_size")
    if ru is None or frame is None:
        return []
    header, kind = _header(v)
    room = frame - header
    return _when(kind == network and ru > frame and room > 0 and ru % room != 0, "info", "RU size, DLC frame size",
                 f"RU {_fmt(ru)} in {_fmt(frame)}-byte frames", f"a multiple of frame - {header} = {_fmt(room)} bytes")


def _ru_frame_multiple(v: Values):
    """L304 read literally: an RU larger than its frame an integer multiple of the DLC frame size, so that no small
    trailing frame is sent. L310-L312 refine the multiple to frame - SNA header (R05, R06): an RU can pass one
    reading and break the other (8,000 in 4,000-byte frames is two frames by L304, three segments by L312)."""
    ru, frame = _n(v, "ru_size"), _n(v, "dlc_frame_size")
    if ru is None or frame is None:
        return []
    return _when(ru > frame > 0 and ru % frame != 0, "warn", "RU size, DLC frame size",
                 f"RU {_fmt(ru)} in {_fmt(frame)}-byte frames", f"an integer multiple of the frame: {_fmt(frame)} bytes")


def _ru_unsegmented(v: Values):
    ru, frame = _n(v, "ru_size"), _n(v, "dlc_frame_size")
    if ru is None or frame is None:
        return []
    header = _header(v)[0]
    return _when(ru >= 16384 and frame < ru + header, "info", "RU size, DLC frame size",
                 f"RU {_fmt(ru)} in {_fmt(frame)}-byte frames",
                 f"a frame of at least RU + {header} = {_fmt(ru + header)} bytes, or the RU is segmented")


def _nsdos_dlc_window(v: Values):
    """L614: NS/DOS's MAXIN and MAXOUT are 2 against CM/2, otherwise raised to 8."""
    maxin, maxout, partner = _n(v, "dlc_maxin"), _n(v, "dlc_maxout"), _t(v, "partner")
    if maxin is None or maxout is None:
        return []
    if "cm/2" in partner or "os/2" in partner:
        return _when(maxin != 2 or maxout != 2, "warn", "DLC MAXIN, MAXOUT", f"{_fmt(maxin)} / {_fmt(maxout)}",
                     "2 and 2 with a CM/2 partner")
    return _when(maxin < 8 or maxout < 8, "warn", "DLC MAXIN, MAXOUT", f"{_fmt(maxin)} / {_fmt(maxout)}",
                 "8 and 8 (the maximum) unless the partner is CM/2")
def _dlc_timers(v: Values):
    ack, response = _n(v, "ack_timer"), _n(v, "response_timer")
    if ack is not None and response is not None and (ack >= response or not 1 <= response <= 2):
        return [("warn", "acknowledgement timer, response timer", f"ack {ack:g} s, response {response:g} s",
                 "an acknowledgement timer below the partner's response timer, the response timer at 1 to 2 s")]
    return []


def _off(v: Values, key: str) -> bool:
    return _t(v, key).replace(" ", "") in ("", "off")


def _vse_debug(v: Values):
    if not _off(v, "debug"):
        return [("warn", "DEBUG", _t(v, "debug").upper(), "SET DEBUG=OFF: debug output costs CPU time, FULL the most")]
    return []


def _vse_record(v: Values):
    if _t(v, "record").replace(" ", "") == "on":
        return [("info", "RECORD", "ON", "SET RECORD=OFF outside a measurement: it costs about 0.5% CPU time")]
    return []


def _vse_diagnostics(v: Values):
    left_on = [key.upper() for key in ("debug", "diagnose") if not _off(v, key)] + (
        ["RECORD"] if _vse_record(v) else [])
    if left_on:
        return [("info", "DEBUG, DIAGNOSE, RECORD", ", ".join(f"{k}={_t(v, k.lower()).upper()}" for k in left_on),
                 "DEBUG, DIAGNOSE and RECORD off in production (CPU overhead)")]
    return []


def _vse_max_segment(v: Values):
    segment, mtu = _n(v, "max_segment"), _n(v, "link_mtu")
    if segment is not None and mtu is not None and segment > mtu - 40:
        return [("info", "MAX_SEGMENT, LINK MTU", f"MAX_SEGMENT {_fmt(segment)}, MTU {_fmt(mtu)}",
                 f"MAX_SEGMENT = MTU - 40 = {_fmt(mtu - 40)} bytes (20 of IP and 20 of TCP header)")]
    return []


def _vse_telnetd_pool(v: Values):
    buffers = _n(v, "telnetd_buffers")
    if buffers is not None and buffers > 0 and _t(v, "telnetd_pool") not in TRUE_WORDS:
        return [("warn", "TELNETD_BUFFERS, TELNETD POOL", f"{_fmt(buffers)} buffers, no POOL=YES daemon",
                 "TELNETD_BUFFERS = 0 unless TELNET daemons are defined with POOL=YES (the pool is allocated at SET)")]
    return []



def _vse_telnetd_pool_size(v: Values):
    buffers, daemons = _n(v, "telnetd_buffers"), _n(v, "telnetd_count")
    if (buffers is not None and daemons is not None and _t(v, "telnetd_pool") in TRUE_WORDS
            and buffers > daemons):
        return [("info", "TELNETD_BUFFERS, TELNETD COUNT", f"{_fmt(buffers)} buffers for {_fmt(daemons)} POOL=YES daemons",
                 "TELNETD_BUFFERS much lower than the POOL=YES TELNET daemons (2.5 to 7.5 per 100 terminals): "
                 "any more is waste")]
    return []

def _vse_tcpip_dspace(v: Values):
    if v.get("exec_ipnet_dspace") is None:
        return [("info", "EXEC IPNET DSPACE", "not specified",
                 "DSPACE=3M on the TCP/IP EXEC: else VTAM's data space for it is SYSDEF DSPACE,DFSIZE, maybe too low")]
    return []

# -- seed 001's READLINK cache (GUARDIAN 90 B30, L740-L822): PEEK /CPU n/ EXPEDITED against SYSGEN's buffers --
# The document gives no figure for "high": a new buffer is discarded before use only when no junk, used or unused
# buffer is left (L742-L748), i.e. when every buffer allowed is in use (L796), and its healthy CPU (Figure 3) prints
# 0.0% for both percentages; so both above 0.0% is the state the rule describes.
EXPEDITED_REQUEST_BUFFERS_DEFAULT = 20  # SYSGEN's default buffers per CPU (L812)


def _readlink_cache_short(v: Values):
    discarded, too_late = _n(v, "discarded_before_use"), _n(v, "too_late")
    if discarded is not None and too_late is not None and discarded > 0 and too_late > 0:
        return [("warn", "DISCARDED BEFORE USE, TOO LATE", f"{discarded:g}% discarded before use, {too_late:g}% too late",
                 "find the slow or stuck servers of the CPU (MEASURE, XRAY) and fix them, then, if both stay high, "
                 "allow more message cache buffers (EXPEDITED_REQUEST_BUFFERS)")]
    return []


def _readlink_cache_override(v: Values):
    allowed, used = _n(v, "expedited_request_buffers"), _n(v, "buffers_used")
    default = EXPEDITED_REQUEST_BUFFERS_DEFAULT
    if allowed is not None and used is not None and allowed > default and used <= default:
        return [("info", "EXPEDITED REQUEST TRANSMISSION BUFFERS, BUFFERS USED",
                 f"{_fmt(allowed)} buffers allowed, at most {_fmt(used)} used since reload",
                 f"SYSGEN's default of {default} buffers unless PEEK statistics look poor: BUFFERS USED is the most "
                 f"the CPU needed since its reload, and the default held it")]
    return []


# -- seed 000's DLC windows and its platforms' own values (L357, L456-L465, L563, L614, L636-L656, L1271-L1277) --
# A platform is known by its own names for its parameters (settings.PLATFORM_PARAMETERS: ``_nsdos``, ``_sna6000``).
DLC_WINDOW_FLOOR = 8  # the smallest maximum of the document's products: NS/DOS's 8 (L614), OS/2's tuned 8 (L1172-L1173)


def _dlc_windows(v: Values) -> tuple[float | None, float | None, str]:
    tx, rx = _n(v, "transmit_window_count"), _n(v, "receive_window_count")
    return tx, rx, f"{_fmt(tx or 0)} sent, {_fmt(rx or 0)} received"


def _dlc_windows_alike(v: Values):
    """L357, L465: raise the send and the receive window alike. Not on CS/AIX, where seed 002 measured a receive
    window of half the transmit window best (002-R15)."""
    tx, rx, found = _dlc_windows(v)
    return _when("_csaix" not in v and tx is not None and rx is not None and tx != rx, "info",
                 "DLC transmit window count, DLC receive window count", found,
                 "the send and the receive window raised alike (an acknowledgement per frame one way stalls the other)")


def _cm2_nsdos(v: Values) -> bool:
    """A link between CM/2 (OS/2) and NS/DOS: the partner is NS/DOS, or the node is NS/DOS and its partner CM/2."""
    partner = _t(v, "partner").replace(" ", "")
    return "dos" in partner or ("_nsdos" in v and ("cm/2" in partner or "os/2" in partner))


def _dlc_window_max(v: Values):
    """L456-L461: the largest DLC window the product allows; 2 between CM/2 and NS/DOS (L458, L614)."""
    tx, rx, found = _dlc_windows(v)
    if tx is None or rx is None:
        return []
    if _cm2_nsdos(v):
        return _when(tx != 2 or rx != 2, "warn", "DLC transmit and receive window counts, partner", found,
                     "2 and 2 on a link between CM/2 and NS/DOS")
    return _when(min(tx, rx) < DLC_WINDOW_FLOOR, "warn", "DLC transmit and receive window counts", found,
                 f"the largest window the product allows: at least {DLC_WINDOW_FLOOR} (NS/DOS's maximum, OS/2's tuned "
                 f"value), 127 on SNA Services/6000")


def _nsdos_ru(v: Values):
    """L563: RU size '*' in NS/DOS's MODE.NSD: one RU sized to fill one DLC frame."""
    ru = v["ru_size"].text.strip()
    return _when(not ru.startswith("*"), "warn", "RU size (NS/DOS MODE.NSD)", ru or "blank",
                 "'*': NS/DOS sizes the RU to fill one DLC frame")


def _os2_nsdos_window(v: Values):
    """L1277 (Appendix B, Figure 9 L1337): between OS/2 and NS/DOS a DLC window count of 2, not the default 4."""
    window = _n(v, "dlc_window_count")
    return _when("dos" in _t(v, "partner") and window is not None and window != 2, "info",
                 "DLC send/receive window count, partner", f"{_fmt(window or 0)} against {v['partner'].text}",
                 "2 toward NS/DOS (Figure 9's OS/2-DOS columns; the default is 4)")


def _sna6000_windows(v: Values):
    """L636-L644: SNA Services/6000's DLC send and receive counts at 127, its maximum."""
    tx, rx, found = _dlc_windows(v)
    return _when(tx is not None and rx is not None and min(tx, rx) < 127, "warn",
                 "DLC Transmit Count, DLC Receive Count (SNA Services/6000)", found, "127 and 127, the maximum")


def _sna6000_ru(v: Values):
    """L656: SNA Services/6000's mode RU size 3840, its maximum."""
    ru = _n(v, "ru_size")
    return _when(ru is not None and ru < 3840, "warn", "Mode RU size (SNA Services/6000)", f"{_fmt(ru or 0)} bytes",
                 "3,840 bytes, the maximum for SNA Services/6000 v1.2")


def _nsdos_frame(v: Values):
    """L1273, Figure 10 L1352: NS/DOS's DLC frame maximised for file transfer with OS/2: 16,393 bytes."""
    frame, partner = _n(v, "dlc_frame_size"), _t(v, "partner").replace(" ", "")
    return _when(("os/2" in partner or "cm/2" in partner) and frame is not None and frame < 16393, "info",
                 "DLC frame size (NS/DOS), partner", f"{_fmt(frame or 0)} bytes",
                 "16,393 bytes, the largest, for file transfer with OS/2 (Figure 10)")


def _t2timer_window(v: Values) -> float | None:
    """W of NCP's T2TIMER = (T1, T2, W) (L870-L876): its third value; None when T2TIMER is not coded."""
    parts = v["t2timer"].text.strip().strip("()").split(",")
    try:
        return float(parts[2]) if len(parts) == 3 else None
    except ValueError:
        return None


def _t2timer_subarea(v: Values):
    """L888: on a subarea connection T2TIMER's W is the acknowledgement window; start at (1,3,16), then try 32,
    64, 127."""
    window = _t2timer_window(v)
    return _when("subarea" in _t(v, "network_type") and window is not None and window < 16, "info",
                 "T2TIMER, network type", f"T2TIMER {v['t2timer'].text} on a subarea connection",
                 "a large acknowledgement window W: start at T2TIMER = (1,3,16), then measure 32, 64 and 127")


# -- the rules that read one node's parameters against the other nodes' of its listing ------------------------
# A peripheral station's DLC send window, as each product of the document names it: CM/2's DLC SEND PACING and
# SNA Services/6000's DLC Transmit Count (transmit_window_count, L1116, L1121), NS/DOS's DLC MAXOUT (L1136), OS/2's
# one window both ways (dlc_window_count, L1337). rpt_config_findings reads the same keys (macros/config_rules.sql,
# config_peer_rules).
PERIPHERAL_SEND_WINDOWS = ("transmit_window_count", "dlc_maxout", "dlc_window_count")


def _t2timer_peripheral(v: Values, peers: list[Setting]):
    """L883-L886: NCP acknowledges a peripheral station's frames one at a time unless T2TIMER is coded (then two);
    toward stations that send more than one frame per acknowledgement code T2TIMER = (1,1,2). W is not compared:
    on a peripheral connection NCP uses 2 whatever W is coded (L883), so Figure 7's (1,1,8) (L1159) follows."""
    widest = max(peers, key=lambda s: s.value)
    parts = v["t2timer"].text.replace(" ", "").strip("()").split(",")
    coded_1_1 = len(parts) == 3 and all(_number(x) == 1 for x in parts[:2])
    return _when(widest.value > 1 and not coded_1_1, "warn", "T2TIMER, the stations' DLC send windows",
                 f"T2TIMER {v['t2timer'].text or 'not coded'}; {widest.node}'s {widest.parameter} "
                 f"{_fmt(widest.value)}", "T2TIMER = (1,1,2) toward stations with a send window above 1")


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _other_equalities(v: Values):
    """L956-L958: IOBUF = UNITSZ = 4000 and MAXDATA >= MAXTSL (its RCVBUFC line is 000-F11)."""
    iobuf, unitsz, maxdata, maxtsl = (_n(v, k) for k in ("iobuf", "unitsz", "maxdata", "maxtsl"))
    if iobuf is None or unitsz is None:
        return []
    broken = [f"IOBUF {_fmt(iobuf)}, UNITSZ {_fmt(unitsz)}"] if iobuf != unitsz or unitsz != 4000 else []
    if maxdata is not None and maxtsl is not None and maxdata < maxtsl:
        broken.append(f"MAXDATA {_fmt(maxdata)} < MAXTSL {_fmt(maxtsl)}")
    return _when(bool(broken), "warn", "IOBUF, UNITSZ, MAXDATA, MAXTSL", "; ".join(broken),
                 "IOBUF = UNITSZ = 4000 and MAXDATA >= MAXTSL")


def _channel_pu(v: Values):
    """Seed 002 L1065-L1081: VTAM's PU for a channel-attached RS/6000 (CUADDR: a local SNA major node) with DELAY
    0, MAXBFRU above its default 1 (IOBUF x MAXBFRU a multiple of the RS/6000's RU), PACING and VPACING above their
    default 1. An operand not coded is VTAM's default."""
    delay, maxbfru, pacing, vpacing = (_n(v, k) for k in ("delay", "maxbfru", "pacing", "vpacing"))
    found = [f"DELAY {delay:g}"] if delay is not None and delay > 0 else []
    found += [f"{name} {_fmt(1 if x is None else x)}" for name, x in (("MAXBFRU", maxbfru), ("PACING", pacing),
                                                                     ("VPACING", vpacing)) if (1 if x is None else x) == 1]
    return _when(bool(found), "info", "DELAY, MAXBFRU, PACING, VPACING (channel-attached PU)", ", ".join(found),
                 "DELAY=0; MAXBFRU so that IOBUF x MAXBFRU covers the RS/6000's largest RU; PACING and VPACING "
                 "above their default 1")


def _same_modetab(v: Values):
    """L963: the VTAM application (CICS, APPC/MVS) and the PU connecting to VTAM (NS/DOS, SNA Services/6000)
    defined with the same mode table."""
    appl, pu = _t(v, "appl_modetab"), _t(v, "pu_modetab")
    return _when(appl != pu, "warn", "MODETAB of the APPL and of the PU", f"APPL {appl.upper()}, PU {pu.upper()}",
                 "the same mode table for the application and the PU connecting to VTAM")


# The checks that are more than one comparison, by the rule_id of their row in the rules catalogue, with the
# canonical keys that must all be set for the rule to apply.
CHECKS: dict[str, tuple[tuple[str, ...], Callable[[Values], list[tuple[str, str, str, str]]]]] = {
    "000-pacing-window-8": (("_pacing_all",), _pacing_windows),
    "000-ru-fits-frame": (("ru_size", "dlc_frame_size"), _ru_vs_frame),
    "000-iobuf-equals-unitsz": (("iobuf", "unitsz"), _iobuf_unitsz),
    "000-rcvbufc-two-frames": (("rcvbufc", "maxtsl"), _rcvbufc),
    "000-F11": (("rcvbufc", "maxtsl"), _rcvbufc),  # the same inequality, as the document's formula (L844-L848)
    "000-maxdata-ge-maxtsl": (("maxdata", "maxtsl"), _maxdata_maxtsl),
    "000-size-chain": (("maxdata", "unitsz", "maxbfru"), _size_chain),
    "000-maxbfru-from-piu": (("unitsz", "maxbfru", "piu_size"), _maxbfru),
    "000-rusizes-symmetric": (("rusizes",), _rusizes),
    "000-maxtsl-tic1": (("maxtsl", "tic"), _maxtsl_tic),
    "002-receive-window-ncp": (("receive_window_count", "partner"), _receive_window_ncp),
    "002-adapter-queues-150": ((), _adapter_queues),
    "002-F20": ((), _adapter_queues),  # the same queues as the formula section states them (L808, L921)
    "002-sdlc-timer": (("repoll_timeout", "link_speed", "dlc_frame_size"), _sdlc_timer),
    "000-R02": (("mode_name", "cos_name"), _cos_priority),
    "000-R03": (("ru_size", "dlc_frame_size"), _ru_frame_multiple),
    "000-R05": (("ru_size", "dlc_frame_size", "network_type"), lambda v: _ru_multiple(v, "subarea")),
    "000-R06": (("ru_size", "dlc_frame_size"), lambda v: _ru_multiple(v, "APPN")),
    "000-R07": (("ru_size",), _bulk_ru),
    "000-R15": (("mode_name",), _custom_mode),
    "000-R20": (("max_ru_size_upper_bound",), _cm2_ru),
    "000-R21": (("ru_size", "dlc_frame_size"), _ru_unsegmented),
    "000-R22": (("pacing_window", "max_ru_size_upper_bound"), _cm2_receive_pacing),
    "000-R25": (("dlc_maxin", "dlc_maxout"), _nsdos_dlc_window),
    "000-R34": (("maxlenru",), _as400_ru),
    "000-R35": (("inpacing", "outpacing"), _as400_pacing),
    "000-R39": (("lind_maxframe", "ctld_maxframe"), _maxframe_both),
    "000-R40": (("lanmaxout", "lanackfrq"), _lan_window),
    "000-R53": (("rusizes",), _rusizes_bulk),
    "003-VT-TP-05": (("rusizes",), _rusizes_4k),
    "002-R17": (("ack_timer", "response_timer"), _dlc_timers),
    "002-F13": (("ack_timer", "response_timer"), _dlc_timers),  # R17's rule as the formula section states it
    # seed 002's link-station rules, on a CS/AIX node only: other platforms' listings name DLC windows and
    # frames alike (seed 000's tuned Appendix A sets 8:8, L1173), and seed 000's own rules judge them
    "002-R15": (("receive_window_count", "transmit_window_count", "_csaix"), _csaix_window_ratio),
    "002-R16": (("receive_window_count", "transmit_window_count", "_csaix"), _csaix_window_size),
    "002-F14": (("receive_window_count", "transmit_window_count", "_csaix"), _csaix_window_range),
    "002-R26": (("ru_size", "dlc_frame_size", "_csaix"), _ru_vs_frame),  # seed 000's segmentation rule, on CS/AIX
    "003-iobuf-nlp-hpr": (("iobuf", "ru_size", "hpr"), _iobuf_nlp),
    "003-csm-dataspace": (("csm_storage",), _csm_storage),
    "003-tibuf-without-mpc": (("tibuf",), _tibuf),
    "000-R13": (("transmit_window_count", "receive_window_count"), _dlc_windows_alike),
    "000-R17": (("transmit_window_count", "receive_window_count"), _dlc_window_max),
    "000-R23": (("ru_size", "_nsdos"), _nsdos_ru),
    "000-R26": (("dlc_window_count", "partner"), _os2_nsdos_window),
    "000-R27": (("transmit_window_count", "receive_window_count", "_sna6000"), _sna6000_windows),
    "000-R30": (("ru_size", "_sna6000"), _sna6000_ru),
    "000-R61": (("dlc_frame_size", "partner", "_nsdos"), _nsdos_frame),
    "000-R51": (("t2timer", "network_type"), _t2timer_subarea),
    "000-R59": (("appl_modetab", "pu_modetab"), _same_modetab),
    "000-F12": (("iobuf", "unitsz"), _other_equalities),
    "002-R29": (("cuaddr",), _channel_pu),
    "004-aR9": (("max_segment", "link_mtu"), _vse_max_segment),
    "004-aR12": (("debug",), _vse_diagnostics),
    "004-aR13": (("telnetd_buffers",), _vse_telnetd_pool),
    "004-aR14": (("telnetd_buffers", "telnetd_count"), _vse_telnetd_pool_size),
    "004-aR19": (("exec_ipnet",), _vse_tcpip_dspace),
    "004-bR4": (("debug",), _vse_debug),
    "004-bR6": (("record",), _vse_record),
    "001-aF12": (("discarded_before_use", "too_late"), _readlink_cache_short),
    "001-aF13": (("expedited_request_buffers", "buffers_used"), _readlink_cache_override),
}

# The checks of a node's parameters (its needs) against its listing's other nodes' (peer keys): the check gets the
# node's values and the others' settings of the peer keys; it applies when the node sets its needs and another node
# a number for a peer key.
PEER_CHECKS: dict[str, tuple[tuple[str, ...], tuple[str, ...],
                             Callable[[Values, list[Setting]], list[tuple[str, str, str, str]]]]] = {
    "000-R49": (("t2timer",), PERIPHERAL_SEND_WINDOWS, _t2timer_peripheral),
}

# -- the rules: the rows of the rules catalogue that config_checks evaluates -------------------------------

CATALOGUE = Path(__file__).resolve().parents[2] / "dbt_project" / "seeds" / "rules_catalogue.csv"
FINDING_SEVERITY = {"critical": "alert", "warning": "warn", "info": "info"}
COMPARE: dict[str, Callable[[float, float], bool]] = {
    ">": lambda x, limit: x > limit, ">=": lambda x, limit: x >= limit, "<": lambda x, limit: x < limit,
    "<=": lambda x, limit: x <= limit, "<>": lambda x, limit: x != limit,
}


class CatalogueError(Exception):
    """The rules catalogue names a configuration rule config_checks cannot run (file, line, what is missing)."""


def _comparison(key: str, operator: str, limit: float, severity: str, expected: str):
    """A catalogue row that is one comparison: a finding when the parameter's value `operator` the limit."""
    def check(v: Values):
        s = v.get(key)
        if s is None or s.value is None or not COMPARE[operator](s.value, limit):
            return []
        return [(severity, s.parameter, f"{_fmt(s.value)} {s.unit or ''}".strip(), expected)]
    return check


def load_rules(path: Path = CATALOGUE) -> tuple[Rule, ...]:
    """The catalogue's rows evaluated by config_checks: a row with metric, operator and limit is that
    comparison; any other must have its check in CHECKS. A row with neither, a row with both, or a check
    without a row is refused."""
    rules: list[Rule] = []
    with path.open(newline="", encoding="utf-8") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if row["evaluated_by"] != "config_checks":
                continue
            rule_id, metric = row["rule_id"], row["metric"]
            coded = rule_id in CHECKS or rule_id in PEER_CHECKS
            if metric and coded:
                raise CatalogueError(f"{path}: line {line}: rule {rule_id} has both a comparison ({metric} "
                                     f"{row['operator']} {row['limit']}) and a check coded for it; expected one")
            if metric:
                if row["operator"] not in COMPARE or not row["limit"]:
                    raise CatalogueError(f"{path}: line {line}: rule {rule_id} compares {metric}: expected an "
                                         f"operator ({', '.join(COMPARE)}) and a limit, found "
                                         f"{row['operator']!r} and {row['limit']!r}")
                check = _comparison(metric, row["operator"], float(row["limit"]),
                                    FINDING_SEVERITY.get(row["severity"], "warn"), row["advice"])
                rules.append(Rule(rule_id, (metric,), check, row["source"]))
            elif rule_id in CHECKS:
                needs, check = CHECKS[rule_id]
                rules.append(Rule(rule_id, needs, check, row["source"]))
            elif rule_id in PEER_CHECKS:
                needs, peers, check = PEER_CHECKS[rule_id]
                rules.append(Rule(rule_id, needs, check, row["source"], peers))
            else:
                raise CatalogueError(f"{path}: line {line}: rule {rule_id} is evaluated by config_checks but has "
                                     f"neither a metric, operator and limit nor a check coded for it")
    missing = sorted((set(CHECKS) | set(PEER_CHECKS)) - {r.rule_id for r in rules})
    if missing:
        raise CatalogueError(f"{path}: no row evaluated by config_checks for the coded checks {', '.join(missing)}")
    return tuple(rules)


RULES: tuple[Rule, ...] = load_rules()


def _namespace(settings: Iterable[Setting]) -> Values:
    values: Values = {}
    pacing: list[Setting] = []
    for s in settings:
        if s.key in PACING_KEYS:
            pacing.append(s)
        for platform, spellings in PLATFORM_PARAMETERS.items():
            if s.parameter.strip().lower() in spellings:
                values.setdefault(f"_{platform}", s)  # a node of that platform: its own rules apply to it
        values.setdefault(s.key, s)
    if pacing:
        values["_pacing_all"] = pacing  # type: ignore[assignment]  (every pacing window counts, not the first)
    return values


def check(settings: list[Setting]) -> list[Finding]:
    """All findings for a listing, node by node, then the cross-node rules on the keys one node sets."""
    return evaluate(settings)[0]


def evaluate(settings: list[Setting]) -> tuple[list[Finding], dict[str, int]]:
    """The findings for a listing and, per rule, on how many nodes (or cross-node sets) it was checked."""
    by_node: dict[str, list[Setting]] = {}
    for s in settings:
        by_node.setdefault(s.node, []).append(s)
    findings: list[Finding] = []
    applied: dict[str, int] = {}
    for node, node_settings in by_node.items():
        values = _namespace(node_settings)
        for rule in RULES:
            if not all(k in values for k in rule.needs):
                continue
            if rule.peers:  # a PEER_CHECKS rule applies when another node sets a number for one of its peer keys
                peers = [s for s in _firsts([s for s in settings if s.node != node and s.key in rule.peers])
                         if s.value is not None]
                if not peers:
                    continue
                got = rule.check(values, peers)
            else:
                got = rule.check(values)
            applied[rule.rule_id] = applied.get(rule.rule_id, 0) + 1
            findings += [Finding(rule.rule_id, sev, node, params, found, expected, rule.source)
                         for sev, params, found, expected in got]
    owners: dict[str, set[str]] = {}
    for s in settings:
        owners.setdefault(s.key, set()).add(s.node)
    shared = _namespace(s for s in settings if len(owners[s.key]) == 1)
    for rule in RULES:
        if rule.rule_id not in applied and rule.needs and not rule.peers and all(k in shared for k in rule.needs):
            applied[rule.rule_id] = 1
            nodes = "+".join(sorted({shared[k].node for k in rule.needs if not k.startswith("_")}))
            findings += [Finding(rule.rule_id, sev, nodes, params, found, expected, rule.source)
                         for sev, params, found, expected in rule.check(shared)]
    return findings, applied


def _firsts(settings: list[Setting]) -> list[Setting]:
    """Each node's first setting of each key: the one the rules read."""
    seen: dict[tuple[str, str], Setting] = {}
    for s in settings:
        seen.setdefault((s.node, s.key), s)
    return list(seen.values())


# -- reading listings -------------------------------------------------------------------------------------------

def read_listing(path: Path) -> list[Setting]:
    """A plain CSV listing, a listing in a form perfdb ingests (``ingest.formats.listings``), or the parameters of
    every run in a benchmark log (JSON lines or CSV)."""
    path = Path(path)
    with path.open("rb") as f:
        form = log_form(f.read(SNIFF_BYTES))
    if form is not None:
        return _benchmark_listing(path, form)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8", errors="replace"))))
    if not rows:
        raise ListingError(f"{path}: empty file: expected a CSV header with the columns parameter and value")
    header = csv_header(rows[0])
    if header is not None:
        return _plain_listing(path, header, rows[1:])
    from ingest.formats import registry  # here, not at the top: `perfdb generate` builds this module's CLI

    with path.open("rb") as f:
        parser = registry.sniff(f.read(SNIFF_BYTES), path.name)
    if isinstance(parser, ListingParser):
        return _parsed_listing(path, parser)
    raise ListingError(
        f"{path}: line 1: expected a header with the columns parameter and value (optionally unit and node), "
        f"a listing perfdb ingests (no -a, lsattr -El, VTAM or NCP definitions, an IPINIT member) or a benchmark "
        f"log; found {', '.join(rows[0][:6])}"
    )


def _parsed_listing(path: Path, parser: ListingParser) -> list[Setting]:
    """The settings of a listing in a form perfdb ingests, read by its parser; a line it cannot read stops the
    listing, as a CSV row does."""
    settings = []
    text = path.read_bytes().removeprefix(UTF8_BOM).decode("utf-8", "replace")
    for line, got, *_ in parser.settings(text, parser.node(path)):  # a statement parser also yields its statement
        if isinstance(got, str):
            raise ListingError(f"{path}: line {line}: {got}")
        settings.append(got)
    return settings


def _plain_listing(path: Path, header: list[str], rows: list[list[str]]) -> list[Setting]:
    """The settings of a CSV listing (``csv_settings``); a row that is not one stops the listing."""
    settings = []
    for line, got in csv_settings(header, rows):
        if isinstance(got, str):
            raise ListingError(f"{path}: line {line}: {got}")
        settings.append(got)
    return settings


def parameter_settings(node: str, parameters_json: str | None, line: int | None = None) -> list[Setting]:
    """The settings of a benchmark run's ``parameters_json`` (``{"ru_size": {"value": 3840, "unit": "bytes"}}``),
    as a log carries them and fct_benchmark_run keeps them."""
    return [setting(node, name, item["value"], item.get("unit"), line)
            for name, item in json.loads(parameters_json or "{}").items()]


def _benchmark_listing(path: Path, form: str) -> list[Setting]:
    """The parameters of each run, read and validated as ``perfdb ingest`` reads the log; the run's label
    names its node."""
    settings = []
    try:
        for run in read_runs(path, form):
            try:
                row = run.row()
            except RecordError as e:
                raise ListingError(f"{path}: line {run.line_number}: {e}") from None
            settings += parameter_settings(row["run_label"], row["parameters_json"], run.line_number)
    except FormatError as e:
        raise ListingError(f"{path}: {e.position()}: {e}") from None
    return settings
