r"""The grammar of MEASCOM ``LIST`` report text, shared by its two readers (``meascom_line_reader``, the
state machine, and ``meascom_columnar``, the fast path) so that they read the same language.

A report is command echoes and entity blocks; a block is a start line, identification lines, one
``Local System`` line and counter lines (Measure User's Guide 520560-003 p.5-8, reports.md 1.1)::

    13+ LIST USERDEF *
    Process Program $WORK.APPL.BILLING
    CPU 4 Pin 45 Priority 140 Userid 255,255 Creatorid 255,255
    Local System \BUYER From 8 Nov 1990, 14:49:27 For 3.5 Seconds
    TRANSACTIONS 0.28 Accum 0

Here: the line starters, the number and name patterns, the value limits, the identification lines
(``read_id_line``, from ``meascom_labels.ID_LINES``), the ``Local System`` line (``read_local_line``), the
command echo and its effect on the session (``command_of_echo``, ``after_command``) and the USERDEF counter
line (``userdef_problem``). What a counter label means (column, kind, units) is ``meascom_labels``.
"""

from __future__ import annotations

import re
from datetime import datetime

import pyarrow as pa

from ingest.formats.measure import tables as measure_tables
from ingest.formats.measure.meascom_labels import (
    CONVERSIONS,
    ENTITY_SCHEMAS,
    HEADER_SCHEMA,
    ID_LINES,
    QUEUE,
    TABLES,
    USERDEF_TYPES,
)

SOURCE_FORM = "meascom"  # raw.measure_*.source_form of every row read from report text
UNPARSED_TABLE = measure_tables.UNPARSED.name
MAX_INT64 = 2**63 - 1
MAX_INT32 = 2**31 - 1
_MAX_DELTA_US = 100 * 366 * 86_400 * 10**6  # a longer "For" is a mangled line, and would overflow TIMESTAMP
LINE_CACHE_SIZE = 32_768  # distinct lines each line cache of a reader remembers (then it starts afresh)

# a printed number: thousands separators in groups of three, an optional fraction
NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
NUMBER_START = frozenset("0123456789-")
USERDEF_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_LOCAL = re.compile(
    r"Local System (?P<system>\\\S+) From (?P<day>\d{1,2}) (?P<month>[A-Za-z]{3}) (?P<year>\d{4}), "
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2}):(?P<second>\d{2}) For (?P<duration>\d[\d,]*(?:\.\d+)?) "
    r"(?P<unit>Seconds?|Minutes?|Hours?)"
)
# a Local System line anywhere in a text (what tells report text from other text)
LOCAL_HEAD = re.compile(r"^[ \t]*Local System \\\S+ From \d{1,2} [A-Za-z]{3} \d{4}, \d{1,2}:\d{2}:\d{2} For ", re.M)
LOCAL_EXPECTED = "'Local System \\NAME From <d Mon yyyy>, <hh:mm:ss> For <n.n> Seconds|Minutes|Hours'"
_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_DURATION_US = {"second": 1e6, "minute": 6e7, "hour": 3.6e9}
_EPOCH = datetime(1970, 1, 1)
_ONE_US = datetime(1970, 1, 1, 0, 0, 0, 1) - _EPOCH

# first word of a line that starts a block (or, for "Local", ends its identification lines)
STARTERS = {
    "Cpu": "cpu",
    "Process": "process",  # or userdef: told apart by the rest of the line (block_entity)
    "Comm": "line",
    "Disc": "disc",
    "File": "file",
    "Discopen": "discopen",
    "Remote": "system",
    "Local": None,
}
TWO_WORD_STARTERS = {"Comm": "Line", "Remote": "System"}
_PARSED_ENTITIES = set(TABLES) | {"SYSTEM"}  # LIST <entity> whose output the readers read
GENERIC = frozenset(ID_LINES) - {"userdef"}  # entities whose counter lines are label/value groups

_COLUMN_TYPES = {name: t for schema in (HEADER_SCHEMA, *ENTITY_SCHEMAS.values()) for name, t in schema}
# positions of the contract columns in a row (columns outside the contract are appended after them)
SCHEMA_INDEX = {
    entity: {name: i for i, (name, _t) in enumerate(HEADER_SCHEMA + ENTITY_SCHEMAS["measure_" + entity])}
    for entity in ID_LINES
}


def block_entity(toks: list[str]) -> str:
    """The entity of a block from the tokens of its start line (first token in ``STARTERS``). USERDEF and
    PROCESS blocks both start with "Process": USERDEF names the program on that line."""
    entity = STARTERS[toks[0]]
    if entity == "process" and (toks[1] == "Program" or toks[2:3] == ["Program"]):
        return "userdef"
    return entity


def _id_patterns(entity: str) -> list[list[tuple[re.Pattern, dict]]]:
    """Per identification line, regexes (one per part the line may start with) and group converters."""
    lines = []
    for parts in ID_LINES[entity]:
        converters: dict = {}
        fragments = []
        for part in parts:
            fragment = ""
            for piece in re.split(r"(\{\w+\})", part):
                if piece.startswith("{"):
                    name = piece[1:-1]
                    is_int = pa.types.is_integer(_COLUMN_TYPES[name])
                    converters[name] = int if is_int else str
                    fragment += rf"(?P<{name}>\d+)" if is_int else rf"(?P<{name}>[^\s()]+)"
                else:
                    fragment += re.escape(piece)
            fragments.append(fragment)
        starts = range(1) if not lines else range(len(fragments))  # a block's first part is mandatory
        patterns = [
            re.compile(fragments[i] + "".join(f"(?: {frag})?" for frag in fragments[i + 1 :])) for i in starts
        ]
        lines.append([(p, converters) for p in patterns])
    return lines


_ID_PATTERNS = {entity: _id_patterns(entity) for entity in ID_LINES}


def read_id_line(entity: str, id_line: int, text: str) -> tuple[tuple, int] | str:
    """((column index, value) pairs, index of the next identification line), or what was expected."""
    lines = _ID_PATTERNS[entity]
    for n in range(id_line, len(lines)):
        for pattern, converters in lines[n]:
            m = pattern.fullmatch(text)
            if m:
                items = []
                for name, value in m.groupdict().items():
                    if value is not None:
                        value = converters[name](value)
                        if type(value) is int and value > MAX_INT32:
                            return f"{name} {value} is out of range"
                        if name == "cpu_type_name" and value.isdigit():
                            name, value = "cpu_type", int(value)  # the writer prints an unnamed type as its code
                        items.append((SCHEMA_INDEX[entity][name], value))
                return tuple(items), n + 1
    expected = " / ".join(" ".join(parts) for parts in ID_LINES[entity][id_line:]) or "'Local System ...'"
    return f"expected {expected}, found '{text}'"


def read_local_line(text: str) -> tuple[str, int, int] | None:
    """(system name, interval start in µs since 1970, duration in µs) of a Local System line."""
    m = _LOCAL.fullmatch(text)
    if not m or m["month"].lower() not in _MONTHS:
        return None
    try:
        when = datetime(
            int(m["year"]), _MONTHS[m["month"].lower()], int(m["day"]), int(m["hour"]), int(m["minute"]), int(m["second"])
        )
    except ValueError:
        return None
    delta = round(float(m["duration"].replace(",", "")) * _DURATION_US[m["unit"].lower().rstrip("s")])
    if delta > _MAX_DELTA_US:
        return None
    return m["system"], (when - _EPOCH) // _ONE_US, delta


def after_command(
    toks: list[str], rate_on: bool, section: str | None, foreign: bool
) -> tuple[bool, str | None, bool]:
    """The session's (RATE ON, entity of the last LIST, that entity is not read by perfdb) after a command."""
    words = [t.upper() for t in toks]
    if "RATE" in words[:-1]:
        rate_on = words[words.index("RATE") + 1] != "OFF"
    if len(words) > 1 and words[0] in ("LIST", "LISTALL"):
        section = words[1]
        foreign = words[1] not in _PARSED_ENTITIES
    return rate_on, section, foreign


def command_of_echo(toks: list[str]) -> list[str] | None:
    """The command of a MEASCOM prompt echo line (``13+ LIST CPU *``), else None."""
    t0 = toks[0]
    plus = t0.find("+")
    if plus < 1 or not t0[:plus].isdigit():
        return None
    rest = t0[plus + 1 :]
    return ([rest] if rest else []) + toks[1:]


def userdef_problem(toks: list[str]) -> str | None:
    """What is wrong with a USERDEF counter line, or None."""
    name = toks[0]
    expected = f"expected {name} <number> [unit] <Accum|Busy|Queue|...> <index>"
    if len(toks) < 3 or not USERDEF_NAME.fullmatch(name) or not toks[-1].isdigit() or int(toks[-1]) > MAX_INT32:
        return expected
    kind = USERDEF_TYPES.get(toks[-2].lower())
    if kind is None:
        return expected
    middle = toks[1:-2]
    if "Max" in middle:
        k = middle.index("Max")
        tail = middle[k + 1 :]
        if (
            kind[1] != QUEUE
            or not tail
            or not tail[0].replace(",", "").isdigit()
            or int(tail[0].replace(",", "")) > MAX_INT64
            or tail[1:] not in ([], ["#"])
        ):
            return f"expected {name} <number> [unit] Max <n> # Queue <index>"
        middle = middle[:k]
    if len(middle) > 2 or (middle and not NUMBER.fullmatch(middle[0])):
        return expected
    if middle and (middle[1] if len(middle) == 2 else "") not in CONVERSIONS[kind[1]]:
        return f"expected {name} <number> [unit] with a unit a {toks[-2]} counter can have"
    return None
