"""What a parameter listing sets: one ``Setting`` per parameter, under the canonical name the rules use.

One reader for both users of a listing: ``perfdb ingest`` (the listing parsers of this package, which land
the settings in ``raw.parameter_listings``) and ``perfdb report capacity --config`` / ``perfdb rules``
(``ingest.capacity.config_checks``). The documents print one parameter under several names (seed 000's
"Mode RU size", CS/AIX's ``max_ru_size``): ``canonical_key`` maps each spelling to the name the rules
catalogue's ``metric`` column uses; ``parse_number`` reads the value as the listings print it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator


class ListingError(Exception):
    """The listing cannot be read; the message names the file, the line and what was expected."""


@dataclass(frozen=True)
class Setting:
    node: str
    parameter: str  # as written in the listing
    key: str  # canonical name (see ALIASES)
    value: float | None  # the number, when the value is one
    text: str  # the value as written
    unit: str | None = None
    line: int | None = None  # line of the listing



# Canonical parameter names and the spellings the documents (and common listings) use for them.
ALIASES = {
    "ru_size": ["ru size", "mode ru size", "max ru size", "maximum ru size", "ru_size", "max_ru_size"],
    # OS/2 Extended Services' largest RU a DLC frame carries (.CFG; seed 000 Appendix B, L1299-L1301, L1336)
    "max_dlc_ru": ["max dlc ru", "max_dlc_ru"],
    "dlc_frame_size": ["dlc frame size", "frame size", "max frame size", "maximum btu size", "max_ifield",
                       "dlc_frame_size", "max i-field size"],
    "network_type": ["network type", "network_type", "routing"],
    "pacing_window": ["pacing window", "receive pacing", "receive pacing window", "mode receive pacing",
                      "mode receive pacing window", "session receive pacing window", "ru receive pacing",
                      "send pacing window", "psndpac", "ssndpac", "srcvpac",
                      "pacing_window", "receive_pacing_window", "send_pacing_window"],
    # SNA Services/6000's SMIT Mode profile send window (seed 000 L662, L1129, L1185): a pacing window too
    # (the rule on every pacing window reads it), with a rule of its own
    "mode_send_pacing": ["mode send pacing", "mode_send_pacing"],
    "adaptive_pacing_upper_bound": ["upper bound for adaptive receive pacing window", "adaptive_pacing_upper_bound",
                                    "max_rcv_pac_win"],
    "receive_window_count": ["receive window count", "max_ifrm_rcvd", "dlc receive count", "dlc receive pacing",
                             "receive_window_count", "maxin"],
    "transmit_window_count": ["transmit window count", "target_pacing_count", "dlc transmit count",
                              "dlc send pacing", "transmit_window_count"],
    # OS/2's one DLC window for both directions (.CFG; seed 000 Appendix B, L1293-L1295, L1337)
    "dlc_window_count": ["dlc send receive window count", "dlc send/receive window count", "dlc_window_count"],
    # a node's own control point and, on a link station, its partner's (CS/AIX define_node / define_ls, CM/2's
    # DEFINE_LOCAL_CP / DEFINE_LINK_STATION): they pair the two ends of a link across listings (seed 002 L920)
    "cp_name": ["cp_name", "cp name", "fq_cp_name", "local cp name"],
    "adj_cp_name": ["adj_cp_name", "adjacent cp name", "fq_adjacent_cp_name", "adjacent_cp_name"],
    "node_type": ["node_type", "node type"],
    "partner": ["partner", "partner type", "partner_type", "adjacent node"],
    "iobuf": ["iobuf", "iobuf size"],
    "unitsz": ["unitsz"],
    "maxbfru": ["maxbfru", "maxbufru", "manbfru"],
    "maxdata": ["maxdata"],
    "maxtsl": ["maxtsl"],
    "rcvbufc": ["rcvbufc"],
    "piu_size": ["piu size", "max piu size", "piu_size", "largest piu"],
    "slodown": ["slodown"],
    "delay": ["delay"],
    "rusizes": ["rusizes"],
    "tic": ["tic", "tic type", "token ring interface coupler"],
    "adapter_transmit_queue": ["lan adapter transmit q size", "transmit queue size", "xmt_que_size", "tx_que_size",
                               "adapter_transmit_queue"],
    "adapter_receive_queue": ["lan adapter receive q size", "receive queue size", "rec_que_size", "rx_que_size",
                              "adapter_receive_queue"],
    "ack_timer": ["acknowledgement timer", "acknowledgment timer", "ack timer", "ack_timer", "ack_timeout"],
    "response_timer": ["response timer", "response_timer", "reply timer", "t1_timeout"],
    "link_speed": ["link speed", "link_speed", "line speed"],
    "repoll_timeout": ["primary repoll frequency", "inactivity time-out", "inactivity timeout", "repoll_timeout"],
    "csm_storage": ["csm storage", "csm_storage"],
    "tibuf": ["tibuf"],
    "mpc_plus": ["mpc+", "mpc_plus", "mpcplus"],
    "hpr": ["hpr"],
    "nlp_size": ["nlp size", "nlp_size"],
    # a mode and its class of service: CM/2's MODE_NAME and COS_NAME, the AS/400's MODD and COS, VTAM's LOGMODE and COS
    "mode_name": ["mode_name", "mode name", "modd", "logmode"],
    # the mode table of a VTAM application (APPL MODETAB) and of the PU connecting to VTAM (PU MODETAB): seed 000
    # L963 wants them the same (the VTAM definitions parser names MODETAB by its statement)
    "appl_modetab": ["appl modetab", "appl_modetab", "application mode table"],
    "pu_modetab": ["pu modetab", "pu_modetab", "pu mode table"],
    "cos_name": ["cos_name", "cos", "class of service"],
    # GUARDIAN 90's message cache buffers a CPU is allowed: SYSGEN's clause and PEEK's label (seed 001 L774, L808)
    "expedited_request_buffers": ["expedited_request_buffers", "expedited request transmission buffers"],
}
KEY_OF = {spelling: key for key, spellings in ALIASES.items() for spelling in spellings}
# A platform's own names for its parameters: a node that spells one of them so runs that platform, the one some
# rules are about (rpt_config_findings reads the same names: macros/config_rules.sql, platform_parameters)
PLATFORM_PARAMETERS = {
    # CS/AIX's snaadmin (define_ls, define_mode; seed 002 L749-L751, L933): seed 002's link-station rules
    # (002-R15, R16, R26)
    "csaix": ("max_ifrm_rcvd", "target_pacing_count", "max_ifield", "max_ru_size", "max_rcv_pac_win",
              "max_send_pac_win", "ack_timeout", "t1_timeout"),
    # SNA Services/6000's SMIT DLC logical link and Mode profiles (seed 000 L621-L662, Figure 6 L1121-L1130):
    # its 127-frame DLC windows and 3840-byte RU (000-R27, R30)
    "sna6000": ("dlc transmit count", "dlc receive count", "mode send pacing", "mode receive pacing"),
    # NS/DOS's CONFIG.NSD TRLD statement and MODE.NSD file (L563, L614-L618, L1133-L1136, L1307-L1309): its
    # RU '*' and its frame maximised for file transfer (000-R23, R61)
    "nsdos": ("dlc maxin", "dlc maxout", "ru receive pacing", "session receive pacing window"),
}
NOT_SET = {"", "default", "-", "--", "n/a", "system_defined"}


def canonical_key(parameter: str) -> str:
    name = re.sub(r"\s+", " ", parameter.strip().lower())
    return KEY_OF.get(name, KEY_OF.get(name.replace(" ", "_"), re.sub(r"\W+", "_", name).strip("_")))


def parse_number(text: str, key: str = "") -> float | None:
    """The number in a value as listings print it: '30,720', '.53', '(200,4000,,,100,50)' (an IOBUF
    tuple: the buffer size is its second position), '16 K'. Tokens such as 'default' and '*' give None."""
    t = text.strip()
    if t.lower() in NOT_SET or t.startswith("*"):
        return None
    if t.startswith("("):
        parts = [p.strip() for p in t.strip("()").replace(".", ",").split(",")] if key == "iobuf" else []
        return float(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    m = re.fullmatch(r"([-+]?(?:\d{1,3}(?:,\d{3})+|\d*\.?\d+))\s*([kK])?\b.*", t)
    if not m:
        return None
    value = float(m.group(1).replace(",", ""))
    return value * 1024 if m.group(2) else value


def setting(node: str, parameter: str, value, unit: str | None = None, line: int | None = None) -> Setting:
    key = canonical_key(parameter)
    text = "" if value is None else str(value)
    number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else parse_number(text, key)
    return Setting(node, parameter, key, number, text, unit or None, line)


# -- the CSV listing ---------------------------------------------------------------------------------------

NODE_COLUMNS = ("node", "profile", "platform")  # the column that names the node, the first a header has


def csv_header(first_row: list[str]) -> list[str] | None:
    """The header of a CSV listing in lower case: it has the columns parameter and value (optionally unit and
    node, profile or platform); None when ``first_row`` is no such header."""
    header = [h.strip().lower() for h in first_row]
    return header if "parameter" in header and "value" in header else None


def csv_settings(header: list[str], rows: list[list[str]], default_node: str = "listing",
                 first_line: int = 2) -> Iterator[tuple[int, Setting | str]]:
    """Each data row's file line and its ``Setting``, or what is wrong with the row (a blank row is skipped).
    A sample, the baseline NCP of seed 000's Figure 6::

        node,parameter,value,unit
        NCP,UNITSZ,384,bytes
        NCP,MAXBUFRU,40,
        NCP,SLODOWN,50,%
        VTAM,IOBUF,"(200,384,,,100,50)",
    """
    col = {name: i for i, name in enumerate(header)}
    node_col = next((col[c] for c in NODE_COLUMNS if c in col), None)
    for line, row in enumerate(rows, start=first_line):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(header):
            yield line, f"expected {len(header)} columns ({', '.join(header)}), found {len(row)}"
            continue
        if not row[col["parameter"]].strip():
            yield line, "expected a parameter name, found an empty cell"
            continue
        node = (row[node_col].strip() if node_col is not None else "") or default_node
        unit = row[col["unit"]].strip() if "unit" in col else None
        yield line, setting(node, row[col["parameter"]].strip(), row[col["value"]].strip(), unit, line)
