"""Command captures: where each capture starts, when and where it was taken, and its counter rows.

Every command-output parser (netstat, TCP/IP for VSE QUERY STATS, snaadmin, VTAM D NET,BFRUSE, z/OS
NETSTAT) reads files holding one capture or a console/log file holding many. This module does what
they share; a parser only turns the lines of one capture into counters.

Splitting. A line ``# captured: <ISO time> host: <name>`` opens a capture and ends the previous one,
so a collector loop can append captures to one log::

    # captured: 2026-01-05T10:00:00+01:00 host: web01
    Ip:
        Forwarding: 2
        ...

Without such lines a parser may split on its command's own envelope (VTAM ``IST350I`` ... ``IST314I``,
a snaadmin prompt line); otherwise the whole file is one capture.

Sniffing. A file's parser is chosen from its first bytes (``SNIFF_BYTES``, 64 KiB; ``registry.sniff``),
cut into captures at their ``# captured:`` lines (``head_captures``): the first capture there that a command
parser recognises decides, and among the parsers that recognise it the registry's order (priority, then
name). A collector log whose first capture is damaged (line noise, a shell's ``netstat: command not
found``, a capture cut after its first line, a header with nothing after it) is thus read all the same:
the damaged capture is one reject at its line (``unknown command output``, ``empty capture``, or its
parser's own reason such as ``no counters found``) and the other captures load. Sniffing reads no further
than those bytes: a file where they hold no recognisable capture (damage longer than that) is rejected
whole, ``unrecognised format``; named with ``perfdb ingest --format``, only its damaged capture is.

Capture time and host, first found wins: the capture itself (a z/OS console time stamp, a snaadmin
prompt), then its ``# captured:`` line, then the file name ``<host>__<command>__<YYYYmmddTHHMMSS>.txt``
(e.g. ``web01__netstat-s__20260105T100000.txt``). A capture with neither is rejected with a message
saying how to fix it; a file where no capture has a time and host is rejected as a whole. An idle host
prints the same bytes every time, so a file timed by its name is known by its bytes and that time
(``CommandParser.name_identity``), not by its bytes alone: each such capture loads.

Order. The counters are cumulative and the marts difference consecutive captures, so within a file each
capture of a host and command must be taken after the one before it, compared as instants (UTC where the
time gives its offset: ``+01:00`` then ``+00:00`` when the clocks go back is 15 minutes on, not 45 back).
A capture printed twice or taken after the clock was set back is rejected at its line (``capture time
2026-03-01 10:10:00+01:00 is not after the previous capture's 2026-03-01 10:30:00+01:00 (line 90)``),
never differenced; the captures after it load.

Output: three raw tables (declared in ``command_tables``; docs/commands_raw_contract.md), because in one long table every value row
would repeat its capture's host, command and time and its counter's section, label, name, unit and
kind, and writing those columns was most of the cost of an ingest; and a fourth for the lines no
parser could read:

* ``command_captures``: one row per loaded capture (record_ordinal, line_number, host, command,
  source_format, captured_at, utc_offset_s, counter_count);
* ``command_counter_labels``: one row per distinct counter of the file (label_id, section, entity,
  counter as printed, counter_name, unit, kind), written with the first capture that printed it;
* ``command_values``: one row per printed value (record_ordinal, line_number, label_id, value,
  text_value). ``int_counter__snapshot`` joins the three back into the long form;
* ``command_unparsed_lines``: one row per line of a loaded capture that its parser could not read
  (a tool's own warning, stray text, a value wrapped onto the next line), with the reason.

Accounting. A record is a capture or an unparsed line: a loaded capture is one record (its
``command_captures`` row; the batches of labels and values say ``records=0``); each unparsed line of
it is one skipped record, kept verbatim (its batch says ``skipped``); a rejected capture is one record
and one ``raw.rejects`` row holding the whole capture text, at the line that made it unusable. The
unit of rejection is the smallest wrong thing: a line the parser does not recognise never costs the
capture (a tool's warning is not bad data, and a parser cannot tell a damaged line from one a new
release added, so all such lines are kept and counted the same way, as skipped records, which do not
fail the run the way rejects do); the file driver is ``ingest.formats.command_parser``.

Speed. The file is read in blocks cut where a ``# captured:`` line starts, never whole; numpy finds
the lines of a block. A parser may read a collector log's repeated captures in bulk
(``shape_of``/``load_group``: a capture whose text equals an earlier one's apart from its numbers).
A capture's counters are a ``Layout`` (label ids and line offsets) interned per file, so a value row
costs a few integers; rows are streamed in batches of about ``BATCH_ROWS``.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Iterator, NamedTuple, Sequence

import numpy as np
import pyarrow as pa

from ingest.formats import command_tables
from ingest.formats.base import BATCH_ROWS, Batch
from ingest.formats.command_tables import LABEL_COLUMNS, UNPARSED_LINES

CAPTURES_TABLE, LABELS_TABLE, VALUES_TABLE = (t.name for t in (command_tables.CAPTURES, command_tables.LABELS,
                                                                 command_tables.VALUES))
READ_BLOCK = 4 << 20

HEADER_RE = re.compile(
    r"^#[ \t]*captured:[ \t]*(?P<ts>\S+)(?:[ \t]+host:[ \t]*(?P<host>\S+))?[ \t]*$", re.IGNORECASE
)
HEADER_START_B = re.compile(rb"#[ \t]*captured:", re.IGNORECASE)
FILE_NAME_RE = re.compile(r"^(?P<host>[^_].*?)__(?P<command>.+?)__(?P<ts>\d{8}T\d{6})(?:\.[A-Za-z0-9]+)*$")

# the longest line a capture's parser reads: the commands print a few hundred characters at most, and a
# parser's patterns may take time quadratic in a line's length (a 1 MB line would take hours)
MAX_LINE_CHARS = 4096

TERMINAL_CONTROL_RE = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|[@-Z\\-_])")  # ANSI CSI and two-byte escapes

HOW_TO_FIX = (
    "put a line '# captured: 2026-01-05T10:00:00 host: NAME' before each capture, "
    "or name a one-capture file '<host>__<command>__<YYYYmmddTHHMMSS>.txt'"
)


class CaptureError(Exception):
    """One capture cannot be loaded; ``line`` is the file line number of the problem."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


class Counter(NamedTuple):
    """One parsed value. ``offset`` is the line's index within the capture's lines."""

    offset: int
    section: str | None
    entity: str | None
    counter: str  # the label as printed
    name: str  # normalised name, e.g. tcp_retrans_segs
    value: float | None
    text: str | None = None  # for kind 'text' (flags, CONGESTED, a MAC address)
    unit: str | None = "count"
    kind: str = "counter"  # counter (cumulative) | gauge | text


def parse_iso_time(text: str) -> tuple[dt.datetime, int | None]:
    """Local civil time and UTC offset in seconds (None when the text has no zone)."""
    stamp = dt.datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    if stamp.tzinfo is None:
        return stamp, None
    offset = stamp.utcoffset()
    return stamp.replace(tzinfo=None), int(offset.total_seconds()) if offset is not None else None


def file_name_info(name: str) -> tuple[str | None, dt.datetime | None]:
    """Host and capture time from ``<host>__<command>__<YYYYmmddTHHMMSS>.txt``."""
    m = FILE_NAME_RE.match(name)
    if not m:
        return None, None
    try:
        return m["host"], dt.datetime.strptime(m["ts"], "%Y%m%dT%H%M%S")
    except ValueError:
        return None, None


def name_identity(head: bytes, name: str) -> str | None:
    """The host and time a file's name gives its captures (``<host>__<command>__<YYYYmmddTHHMMSS>.txt``)
    when its head has no ``# captured:`` line to give them, else None (``Parser.name_identity``). An idle
    host prints the same bytes at every capture (a command's counters, an APING run of a quiet link): with
    this in the file's identity, each capture loads as its own, and the same file sent again is still
    recognised."""
    host, time = file_name_info(name)
    if time is None or HEADER_START_B.search(head):
        return None
    return f"{host} {time:%Y-%m-%dT%H:%M:%S}"


@dataclass
class Capture:
    """One capture: its text, where it sits in the file, and its time and host once known."""

    ordinal: int
    text: str
    first_line: int  # file line number of text's first line
    header_line: int  # line of its '# captured:' line (or first_line when it has none)
    host: str | None = None
    captured_at: dt.datetime | None = None
    utc_offset_s: int | None = None
    command: str | None = None  # set by a parser when the output tells the variant (netstat -ib)
    unparsed: list[tuple[int, str]] = field(default_factory=list)  # (line offset, why it was not read)
    ordered: bool = False  # already found to follow the file's previous capture of its host and command

    @property
    def instant(self) -> dt.datetime:
        """When it was taken: the UTC instant where its offset is known, else its local time as given."""
        if self.utc_offset_s is None:
            return self.captured_at
        return self.captured_at - dt.timedelta(seconds=self.utc_offset_s)

    def stamp(self) -> str:
        """Its time as given, e.g. ``2026-03-01 10:00:00+01:00`` (no offset when it gave none)."""
        zone = None if self.utc_offset_s is None else dt.timezone(dt.timedelta(seconds=self.utc_offset_s))
        return self.captured_at.replace(tzinfo=zone).isoformat(" ")

    def skip(self, offset: int, reason: str) -> None:
        """Keep a line the parser cannot read (in ``raw.command_unparsed_lines``) and go on."""
        self.unparsed.append((offset, reason))

    @cached_property
    def raw_lines(self) -> list[str]:
        """The lines as printed (an unparsed line is kept in this form)."""
        lines = self.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return [ln.rstrip("\r") for ln in lines]

    @cached_property
    def lines(self) -> list[str]:
        """The lines a parser reads: ``raw_lines`` less the indent that all of them share. A line with a NUL
        byte (a copy damaged on the way: a crashed writer's zero padding, a transfer error) or longer than
        ``MAX_LINE_CHARS`` (two lines run together over megabytes, a binary file's tail) is no text a command
        printed: it is kept unparsed as it came, and its parser sees a blank line."""
        lines = list(self.raw_lines)
        for at, line in enumerate(lines):
            if "\x00" in line:
                self.skip(at, "a NUL byte in the line: a damaged copy, no command prints one")
                lines[at] = ""
            elif len(line) > MAX_LINE_CHARS:  # a parser's patterns are not meant for, nor fast on, such a line
                self.skip(at, f"a line of {len(line):,} characters: expected a line a command prints "
                              f"(at most {MAX_LINE_CHARS:,})")
                lines[at] = ""
            elif "\x1b" in line:  # a terminal log's colours and cursor moves: no part of the text
                lines[at] = TERMINAL_CONTROL_RE.sub("", line)
        return dedent(lines)

    def line_no(self, offset: int) -> int:
        return self.first_line + offset


class Layout:
    """The static part of one capture's rows (which counters, on which lines), interned per file.

    Captures of the same command on the same host mostly print the same labels in the same order;
    only the numbers change. A layout is the label ids and line offsets those captures share, so a
    value row costs a few integers.
    """

    __slots__ = ("label_ids", "offsets", "size")

    def __init__(self, label_ids: np.ndarray, offsets: np.ndarray):
        self.label_ids = label_ids
        self.offsets = offsets
        self.size = len(offsets)


class _Run(NamedTuple):
    """Captures of one layout added together, and their values capture after capture."""

    layout: Layout
    captures: Sequence[Capture]
    command: str
    source_format: str
    values: Sequence[float | None] | np.ndarray
    texts: Sequence[str | None] | None  # None: no text value in the run


class CounterSink:
    """Accumulates the captures of one file and cuts them into Arrow batches of the raw tables (see
    the module docstring): a capture row per capture, a label row per counter the first time the file
    prints it, a value row per printed value, an unparsed-line row per line a parser could not read."""

    def __init__(self):
        self.label_ids: dict[tuple, int] = {}  # (section, entity, counter, name, unit, kind) -> id in the file
        self.unwritten_labels: dict[int, tuple] = {}
        self.layouts: dict[tuple, Layout] = {}
        self.cache: dict[str, dict] = {}  # per-parser memo for the file (e.g. text shapes already seen)
        self.latest: dict[tuple[str, str], Capture] = {}  # (host, command) -> its latest capture loaded
        self._reset()

    def _reset(self) -> None:
        self.runs: list[_Run] = []
        self.unparsed: list[tuple[int, int, str, str]] = []  # (record_ordinal, line_number, text, reason)
        self.rows = 0

    def layout(self, counters: Sequence[Counter]) -> Layout:
        key = tuple((c.offset, c.section, c.entity, c.counter, c.name, c.unit, c.kind) for c in counters)
        found = self.layouts.get(key)
        if found is None:
            found = self.layouts[key] = Layout(
                np.asarray([self._label_id(k[1:]) for k in key], dtype=np.int32),
                np.asarray([c.offset for c in counters], dtype=np.int64),
            )
        return found

    def _label_id(self, label: tuple) -> int:
        found = self.label_ids.get(label)
        if found is None:
            found = self.label_ids[label] = len(self.label_ids)
            self.unwritten_labels[found] = label
        return found

    def add_counters(self, cap: Capture, command: str, source_format: str, counters: Sequence[Counter]) -> None:
        texts = [c.text for c in counters]
        self.add(cap, command, source_format, self.layout(counters), [c.value for c in counters],
                 texts if any(t is not None for t in texts) else None)

    def add(self, cap: Capture, command: str, source_format: str, layout: Layout,
            values: Sequence[float | None], texts: Sequence[str | None] | None = None) -> None:
        """One capture's values (and text values, if any) in its layout's order, and its unparsed lines."""
        if not cap.ordered:
            self.check_order(cap, command)
        self.runs.append(_Run(layout, (cap,), command, source_format, values, texts))
        self.unparsed.extend((cap.ordinal, cap.line_no(at), cap.raw_lines[at], why)
                             for at, why in sorted(cap.unparsed))
        self.rows += layout.size + len(cap.unparsed)

    def check_order(self, cap: Capture, command: str) -> None:
        """Take ``cap`` as the latest capture of its host and command, or raise CaptureError when it was not
        taken after the latest one the file gave before it (compared as instants, see ``Capture.instant``).
        Its counters are cumulative and the marts difference consecutive captures: a capture printed twice
        (a script run twice, logs concatenated) or taken when the clock was set back would be differenced
        against the wrong neighbour and count its traffic twice; an offset that changes (DST, a new time
        zone) moves the local time, not the instant."""
        key = (cap.host, command)
        latest = self.latest.get(key)
        if latest is not None and cap.instant <= latest.instant:
            raise CaptureError(f"capture time {cap.stamp()} is not after the previous capture's {latest.stamp()} "
                               f"(line {latest.header_line}): a repeated capture or a clock set back is not "
                               "differenced", cap.header_line)
        self.latest[key] = cap
        cap.ordered = True

    def add_group(self, caps: Sequence[Capture], command: str, source_format: str, layout: Layout,
                  values: np.ndarray) -> None:
        """Captures of one layout at once, ``values`` their numbers capture after capture (no text)."""
        self.runs.append(_Run(layout, caps, command, source_format, values, None))
        self.rows += len(values)

    def full(self) -> bool:
        return self.rows >= BATCH_ROWS

    def flush(self) -> list[Batch]:
        """The captures, counters first seen, values and unparsed lines added since the last flush, as
        batches."""
        if not self.runs:
            return []
        runs, unparsed = self.runs, self.unparsed
        rows = sum(len(run.values) for run in runs)
        self._reset()
        caps = [cap for run in runs for cap in run.captures]
        sizes = np.asarray([run.layout.size for run in runs for _ in run.captures], dtype=np.int64)
        ordinals = np.asarray([cap.ordinal for cap in caps], dtype=np.int64)
        first_lines = np.asarray([cap.first_line for cap in caps], dtype=np.int64)
        offsets = [c.utc_offset_s for c in caps]
        captures = pa.table({
            "record_ordinal": pa.array(ordinals),
            "line_number": pa.array([cap.header_line for cap in caps], pa.int64()),
            "host": pa.array([cap.host for cap in caps], pa.string()),
            "command": pa.array([run.command for run in runs for _ in run.captures], pa.string()),
            "source_format": pa.array([run.source_format for run in runs for _ in run.captures], pa.string()),
            "captured_at": pa.array(np.asarray([_epoch_us(cap.captured_at) for cap in caps], dtype=np.int64),
                                    pa.timestamp("us")),
            "utc_offset_s": pa.array(offsets, pa.int32()),
            "counter_count": pa.array(sizes),
        })
        values = pa.table({
            "record_ordinal": pa.array(np.repeat(ordinals, sizes)),
            "line_number": pa.array(
                np.concatenate([np.tile(run.layout.offsets, len(run.captures)) for run in runs])
                + np.repeat(first_lines, sizes)
            ),
            "label_id": pa.array(np.concatenate([np.tile(run.layout.label_ids, len(run.captures)) for run in runs])),
            "value": pa.concat_arrays([pa.array(run.values, pa.float64()) for run in runs]),
            "text_value": self._texts(runs, rows),
        })
        # a capture is one record: its row completes it; label and value rows are its detail
        batches = [Batch(CAPTURES_TABLE, captures, records=len(caps))]
        labels = self._labels_first_used(runs)
        if labels is not None:
            batches.append(Batch(LABELS_TABLE, labels, records=0))
        batches.extend(Batch(VALUES_TABLE, values.slice(at, BATCH_ROWS), records=0)
                       for at in range(0, values.num_rows, BATCH_ROWS))
        if unparsed:
            batches.append(Batch(UNPARSED_LINES.name, pa.table(
                [pa.array(column, field.type) for column, field in zip(zip(*unparsed), UNPARSED_LINES.schema)],
                schema=UNPARSED_LINES.schema), skipped=True))
        return batches

    @staticmethod
    def _texts(runs: list[_Run], rows: int) -> pa.Array:
        if all(run.texts is None for run in runs):
            return pa.nulls(rows, pa.string())
        texts: list[str | None] = []
        for run in runs:
            texts.extend([None] * len(run.values) if run.texts is None else run.texts)
        return pa.array(texts, pa.string())

    def _labels_first_used(self, runs: list[_Run]) -> pa.Table | None:
        """Rows for the counters used for the first time, each with the ordinal of the first capture
        that printed it (captures read in bulk are added out of file order, so the least ordinal)."""
        if not self.unwritten_labels:
            return None
        first: dict[int, int] = {}
        for run in runs:
            ordinal = min(cap.ordinal for cap in run.captures)
            for label_id in run.layout.label_ids.tolist():
                if label_id in self.unwritten_labels and ordinal < first.get(label_id, ordinal + 1):
                    first[label_id] = ordinal
        if not first:
            return None
        ids = sorted(first)
        columns = list(zip(*(self.unwritten_labels.pop(label_id) for label_id in ids)))
        return pa.table({
            "record_ordinal": pa.array([first[label_id] for label_id in ids], pa.int64()),
            "label_id": pa.array(ids, pa.int32()),
            **{name: pa.array(column, pa.string()) for name, column in zip(LABEL_COLUMNS, columns)},
        })


_EPOCH = dt.datetime(1970, 1, 1)


def _epoch_us(stamp: dt.datetime) -> int:
    delta = stamp - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


@dataclass
class Segment:
    """A ``# captured:`` segment (or a file without such lines) as a slice of the block that holds it."""

    block: bytes
    start: int  # first byte after the header line
    end: int
    header: str | None
    header_line: int
    first_line: int

    def text(self) -> str:
        text = self.block[self.start:self.end].decode("utf-8", "replace")
        return text.replace("\r\n", "\n") if "\r" in text else text


def iter_blocks(path: Path) -> Iterator[tuple[bytes, list[Segment]]]:
    """The file in blocks of about READ_BLOCK bytes cut where a ``# captured:`` line starts, with the
    segments of each; a log of any size is never held in memory at once. Text before the first header
    (when not blank) is a segment without a header."""
    line_no = 1
    carry = b""
    with path.open("rb") as f:
        while True:
            data = f.read(READ_BLOCK)
            eof = not data
            buf = carry + data
            if eof:
                carry = b""
            else:
                cut = _last_header_start(buf)
                if cut <= 0:  # no complete segment yet: a long capture, or a file without headers
                    carry = buf
                    continue
                buf, carry = buf[:cut], buf[cut:]
            newlines, starts = _header_starts(buf)
            segments = []
            if not starts or starts[0] > 0:
                end = starts[0] if starts else len(buf)
                if buf[:end].strip():
                    segments.append(Segment(buf, 0, end, None, line_no, line_no))
            # a header's line number counts the newlines before it; the first newline from it ends it
            before = np.searchsorted(newlines, starts)
            stops = np.append(newlines, len(buf))[before].tolist()
            ends = starts[1:] + [len(buf)]
            for start, stop, end, lines_before in zip(starts, stops, ends, before.tolist()):
                header_line = line_no + lines_before
                header = buf[start:stop].decode("utf-8", "replace").rstrip("\r")
                segments.append(Segment(buf, min(stop + 1, end), end, header, header_line, header_line + 1))
            line_no += len(newlines)
            yield buf, segments
            if eof:
                return


def iter_segments(path: Path) -> Iterator[tuple[str, int, int, str | None]]:
    """(text, header line, first text line, header line text) per segment, streaming: for parsers
    that read the capture convention without the counter machinery (e.g. benchmark outputs)."""
    for _, segments in iter_blocks(path):
        for seg in segments:
            yield seg.text(), seg.header_line, seg.first_line, seg.header


def head_captures(head: bytes) -> list[str]:
    """The texts of the captures in a file's first bytes (what sniffing sees), in file order, cut where a
    ``# captured:`` line starts (each text begins with its header line); text before the first header
    is one too, when not blank. The last text ends where the head ends, perhaps inside a line."""
    _, starts = _header_starts(head)
    bounds = [0, *starts, len(head)]
    return [head[a:b].decode("utf-8", "replace") for a, b in zip(bounds, bounds[1:]) if head[a:b].strip()]


def _header_starts(buf: bytes) -> tuple[np.ndarray, list[int]]:
    """(offsets of the block's newlines, offsets of its '# captured:' lines). One numpy pass finds the
    lines that start with '#', far faster than searching the text; only those meet the pattern."""
    data = np.frombuffer(buf, dtype=np.uint8)
    newlines = np.flatnonzero(data == 10)
    follows = newlines + 1
    follows = follows[follows < len(data)]
    candidates = ([0] if buf[:1] == b"#" else []) + follows[data[follows] == 35].tolist()
    return newlines, [at for at in candidates if HEADER_START_B.match(buf, at)]


def _last_header_start(buf: bytes) -> int:
    at = len(buf)
    while (at := buf.rfind(b"\n#", 0, at)) >= 0:
        if HEADER_START_B.match(buf, at + 1):
            return at + 1
    return 0


PROMPT_RE = re.compile(r"^.{0,80}?[$#>%]\s*(?:netstat|onetstat|entstat|snaadmin)\b")


def dedent(lines: list[str]) -> list[str]:
    """The lines less the leading blanks every non-blank one starts with. Output pasted into a mail, a
    wiki page or a source comment comes indented as a whole (``    OSTYPE:AIX`` / ``    icmp:`` / ``
    <TAB>4069305 calls to icmp_error``); without its common indent it reads as the command printed it,
    section titles at column 0, and the relative indents that nest its lines are unchanged."""
    body = [ln for ln in lines if ln.strip()]
    if not body or body[0][:1] not in (" ", "\t"):
        return lines
    width = len(body[0]) - len(body[0].lstrip(" \t"))
    prefix = body[0][:width]
    for ln in body[1:]:
        while not ln.startswith(prefix):
            prefix = prefix[:-1]
        if not prefix:
            return lines
    return [ln[len(prefix):] if ln.startswith(prefix) else ln.lstrip(" \t") for ln in lines]


def title_indent(lines: list[str], is_title) -> int:
    """The indent of a command's section titles (0 as printed): the least indent of the lines that
    ``is_title`` (given the stripped line) accepts. In a capture pasted indented the titles sit at the
    paste's indent even when a stray line at column 0 kept ``dedent`` from removing it."""
    return min((len(ln) - len(ln.lstrip(" \t")) for ln in lines if ln.strip() and is_title(ln.strip())), default=0)


def is_noise(line: str) -> bool:
    """Blank lines, '#' comments and the shell prompt echoing the command: no part of any output."""
    stripped = line.strip()
    return not stripped or stripped[0] == "#" or PROMPT_RE.match(stripped) is not None


@lru_cache(maxsize=65536)
def snake(label: str) -> str:
    """'Packets Dropped' -> 'packets_dropped'; 'TCPDSACKOldSent' -> 'tcp_dsack_old_sent'; 'S/W' -> 'sw';
    an acronym's plural stays one word ('Received LACPDUs' -> 'received_lacpdus', 'DelayedACKs' -> 'delayed_acks')."""
    words = label.replace("PCIe", "Pcie").replace("IPv", "Ipv")  # one word each: 'pcie2', 'ipv4'
    plurals = re.sub(r"([A-Z]{2,})s\b", lambda m: m[1].capitalize() + "s", words)
    s = re.sub(r"^(TCP|IP|UDP|ICMP)(?=[A-Z])", r"\1_", plurals)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", s)
    s = s.replace("/", "").replace("+", "_").replace("%", "pct").replace("#", "count")
    if not s.isascii():  # a translated label: 'Verbindungsöffnungen' -> 'verbindungsoffnungen'
        s = "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))
    return re.sub(r"[^0-9a-z]+", "_", s.lower()).strip("_")


def split_captures_at(cap: Capture, starts: list[int]) -> list[Capture]:
    """Cut a segment into captures at the given line offsets (each a capture's first line)."""
    lines = cap.raw_lines  # each capture's text as printed: its own lines, indent and damage are its own
    if not starts or starts[0] != 0:
        starts = [0, *starts]
    out = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(lines)
        text = "\n".join(lines[start:end]) + "\n"
        if not text.strip():
            continue
        first = cap.first_line + start
        out.append(Capture(cap.ordinal, text, first, cap.header_line if start == 0 else first,
                           cap.host, cap.captured_at, cap.utc_offset_s))
    return out
