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

Capture time and host, first found wins: the capture itself (a z/OS console time stamp, a snaadmin
prompt), then its ``# captured:`` line, then the file name ``<host>__<command>__<YYYYmmddTHHMMSS>.txt``
(e.g. ``web01__netstat-s__20260105T100000.txt``). A capture with neither is rejected with a message
saying how to fix it; a file where no capture has a time and host is rejected as a whole.

Accounting. ``raw.command_counters`` has one row per counter. The loader checks records read = rows
loaded + rejected + skipped, so a loaded capture counts as many records as the counter rows it
produced and a rejected capture counts one (one ``raw.rejects`` row holding the whole capture text,
at the line that made it unreadable). A capture is loaded whole or rejected whole: a snapshot with
some counters missing would make wrong rates.

Speed. The file is read in blocks cut where a ``# captured:`` line starts, never whole. A parser may
read a collector log's repeated captures in bulk (``shape_of``/``load_group``: a capture whose text
equals an earlier one's apart from its numbers). Rows are built column-wise with dictionary-encoded
strings (labels repeat in every capture) and streamed in batches of about ``BATCH_ROWS``; see
docs/commands_raw_contract.md for the columns.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Iterator, NamedTuple, Sequence

import numpy as np
import pyarrow as pa

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext

TABLE = "command_counters"
READ_BLOCK = 4 << 20

HEADER_RE = re.compile(
    r"^#[ \t]*captured:[ \t]*(?P<ts>\S+)(?:[ \t]+host:[ \t]*(?P<host>\S+))?[ \t]*$", re.IGNORECASE
)
HEADER_START_B = re.compile(rb"#[ \t]*captured:", re.IGNORECASE)
FILE_NAME_RE = re.compile(r"^(?P<host>[^_].*?)__(?P<command>.+?)__(?P<ts>\d{8}T\d{6})(?:\.[A-Za-z0-9]+)*$")

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

    @cached_property
    def lines(self) -> list[str]:
        lines = self.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return [ln.rstrip("\r") for ln in lines]

    def line_no(self, offset: int) -> int:
        return self.first_line + offset


class Layout:
    """The static part of one capture's rows (labels, names, units, line offsets), interned per file.

    Captures of the same command on the same host mostly print the same labels in the same order;
    only the numbers change. Keeping the labels as dictionary indices makes a row cost a few integers.
    """

    __slots__ = ("columns", "offsets", "size", "no_text")

    def __init__(self, columns: dict[str, np.ndarray], offsets: np.ndarray):
        self.columns = columns
        self.offsets = offsets
        self.size = len(offsets)
        self.no_text = [None] * self.size


STRING_COLUMNS = ("section", "entity", "counter", "counter_name", "unit", "kind")


class CounterSink:
    """Accumulates the rows of the captures of one file and cuts them into Arrow batches."""

    def __init__(self, command_format: str):
        self.format = command_format
        self.dicts: dict[str, dict[str, int]] = {c: {} for c in STRING_COLUMNS + ("host", "command", "source_format")}
        self.layouts: dict[tuple, Layout] = {}
        self.cache: dict[str, dict] = {}  # per-parser memo for the file (e.g. text shapes already seen)
        self._reset()

    def _reset(self) -> None:
        self.parts: list[tuple[Layout, Capture, int, int, int]] = []  # layout, capture, host, command, format ids
        # values in runs: lists of floats (None for text rows) from add(), arrays from add_group()
        self.value_runs: list[list[float | None] | np.ndarray] = []
        self.texts: list[str | None] = []
        self.rows = 0

    def intern(self, column: str, value: str | None) -> int:
        if value is None:
            return -1
        d = self.dicts[column]
        idx = d.get(value)
        if idx is None:
            idx = d[value] = len(d)
        return idx

    def layout(self, counters: Sequence[Counter]) -> Layout:
        key = tuple((c.offset, c.section, c.entity, c.counter, c.name, c.unit, c.kind) for c in counters)
        found = self.layouts.get(key)
        if found is None:
            cols = {
                "section": [self.intern("section", c.section) for c in counters],
                "entity": [self.intern("entity", c.entity) for c in counters],
                "counter": [self.intern("counter", c.counter) for c in counters],
                "counter_name": [self.intern("counter_name", c.name) for c in counters],
                "unit": [self.intern("unit", c.unit) for c in counters],
                "kind": [self.intern("kind", c.kind) for c in counters],
            }
            found = Layout(
                {k: np.asarray(v, dtype=np.int32) for k, v in cols.items()},
                np.asarray([c.offset for c in counters], dtype=np.int64),
            )
            self.layouts[key] = found
        return found

    def add_counters(self, cap: Capture, command: str, source_format: str, counters: Sequence[Counter]) -> int:
        texts = [c.text for c in counters]
        return self.add(
            cap, command, source_format, self.layout(counters), [c.value for c in counters],
            texts if any(t is not None for t in texts) else None,
        )

    def add(self, cap: Capture, command: str, source_format: str, layout: Layout,
            values: Sequence[float | None], texts: Sequence[str | None] | None = None) -> int:
        self.parts.append((
            layout, cap, self.intern("host", cap.host), self.intern("command", command),
            self.intern("source_format", source_format),
        ))
        if self.value_runs and isinstance(self.value_runs[-1], list):
            self.value_runs[-1].extend(values)
        else:
            self.value_runs.append(list(values))
        self.texts.extend(layout.no_text if texts is None else texts)
        self.rows += layout.size
        return layout.size

    def add_group(self, caps: Sequence[Capture], command: str, source_format: str, layout: Layout,
                  values: np.ndarray) -> int:
        """Captures of one layout at once, ``values`` their numbers capture after capture (no text)."""
        command_id, format_id = self.intern("command", command), self.intern("source_format", source_format)
        self.parts.extend((layout, cap, self.intern("host", cap.host), command_id, format_id) for cap in caps)
        self.value_runs.append(values)
        self.texts.extend([None] * len(values))
        self.rows += len(values)
        return len(values)

    def full(self) -> bool:
        return self.rows >= BATCH_ROWS

    def _dict_column(self, column: str, indices: np.ndarray) -> pa.Array:
        dictionary = pa.array(list(self.dicts[column]), pa.string())
        mask = indices < 0
        idx = pa.array(np.where(mask, 0, indices), pa.int32(), mask=mask if mask.any() else None)
        return pa.DictionaryArray.from_arrays(idx, dictionary)

    def flush(self) -> Batch | None:
        if not self.rows:
            return None
        layouts = [p[0] for p in self.parts]
        counts = np.asarray([lay.size for lay in layouts], dtype=np.int64)

        def per_capture(values, dtype) -> np.ndarray:
            return np.repeat(np.asarray(values, dtype=dtype), counts)

        caps = [p[1] for p in self.parts]
        stamps = per_capture([_epoch_us(c.captured_at) for c in caps], np.int64)
        offsets = [c.utc_offset_s for c in caps]
        columns: dict[str, pa.Array] = {
            "record_ordinal": pa.array(per_capture([c.ordinal for c in caps], np.int64)),
            "line_number": pa.array(np.concatenate([lay.offsets + c.first_line for lay, c in zip(layouts, caps)])),
            "host": self._dict_column("host", per_capture([p[2] for p in self.parts], np.int32)),
            "command": self._dict_column("command", per_capture([p[3] for p in self.parts], np.int32)),
            "source_format": self._dict_column("source_format", per_capture([p[4] for p in self.parts], np.int32)),
        }
        for col in STRING_COLUMNS:
            columns[col] = self._dict_column(col, np.concatenate([lay.columns[col] for lay in layouts]))
        columns["value"] = pa.concat_arrays([pa.array(run, pa.float64()) for run in self.value_runs])
        columns["text_value"] = pa.array(self.texts, pa.string())
        columns["captured_at"] = pa.array(stamps, pa.timestamp("us"))
        columns["utc_offset_s"] = pa.array(
            per_capture([0 if o is None else o for o in offsets], np.int32),
            pa.int32(),
            mask=per_capture([o is None for o in offsets], bool),
        )
        order = ("record_ordinal", "line_number", "host", "command", "source_format", "section", "entity",
                 "counter", "counter_name", "value", "text_value", "unit", "kind", "captured_at", "utc_offset_s")
        batch = Batch(TABLE, pa.table({k: columns[k] for k in order}))
        self._reset()
        return batch


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
            segments = []
            starts = list(_header_starts(buf))
            if not starts or starts[0] > 0:
                end = starts[0] if starts else len(buf)
                if buf[:end].strip():
                    segments.append(Segment(buf, 0, end, None, line_no, line_no))
            counted, lines_before = 0, 0
            for k, start in enumerate(starts):
                lines_before += buf.count(b"\n", counted, start)  # counted piece by piece: linear
                counted = start
                header_line = line_no + lines_before
                stop = buf.find(b"\n", start)
                stop = len(buf) if stop < 0 else stop
                end = starts[k + 1] if k + 1 < len(starts) else len(buf)
                header = buf[start:stop].decode("utf-8", "replace").rstrip("\r")
                segments.append(Segment(buf, min(stop + 1, end), end, header, header_line, header_line + 1))
            line_no += buf.count(b"\n")
            yield buf, segments
            if eof:
                return


def iter_segments(path: Path) -> Iterator[tuple[str, int, int, str | None]]:
    """(text, header line, first text line, header line text) per segment, streaming: for parsers
    that read the capture convention without the counter machinery (e.g. benchmark outputs)."""
    for _, segments in iter_blocks(path):
        for seg in segments:
            yield seg.text(), seg.header_line, seg.first_line, seg.header


def _header_starts(buf: bytes) -> Iterator[int]:
    """Offsets of the '# captured:' lines (bytes.find: far faster than a regex scan of the text)."""
    if HEADER_START_B.match(buf):
        yield 0
    at = 0
    while (at := buf.find(b"\n#", at)) >= 0:
        at += 1
        if HEADER_START_B.match(buf, at):
            yield at


def _last_header_start(buf: bytes) -> int:
    at = len(buf)
    while (at := buf.rfind(b"\n#", 0, at)) >= 0:
        if HEADER_START_B.match(buf, at + 1):
            return at + 1
    return 0


class CommandParser:
    """Base of every command-output parser: the file-level work; subclasses parse one capture.

    Subclasses set ``format``, ``command`` (normalised command name), ``version``, ``priority`` and
    implement ``matches(lines)`` (is this capture my command's output?) and ``parse_capture(cap)``
    returning ``Counter`` tuples, raising ``CaptureError`` for an unreadable capture. A parser whose
    command prints its own envelope also overrides ``split(cap)``.
    """

    format = "command.base"
    command = ""
    version = "1"
    priority = 40
    sniff_lines = 40

    # -- content recognition ---------------------------------------------------------------------

    def matches(self, lines: list[str]) -> bool:
        raise NotImplementedError

    def sniff(self, head: bytes, name: str) -> bool:
        text = head.decode("utf-8", "replace").replace("\r\n", "\n")
        lines = [ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
        return self.matches(lines[: self.sniff_lines])

    # -- per capture ---------------------------------------------------------------------------------

    def split(self, cap: Capture) -> list[Capture]:
        """Captures within one segment; by default the segment is one capture."""
        return [cap]

    def parse_capture(self, cap: Capture) -> list[Counter]:
        raise NotImplementedError

    def shape_of(self, segment: Segment, sink: CounterSink):
        """For a parser that can read a log's repeated captures in bulk: the known shape of this
        segment's text (the same text as an earlier capture apart from its numbers), else None."""
        return None

    def load_group(self, block: bytes, group: list, sink: CounterSink) -> tuple[int, list]:
        """Load [(segment, capture, shape)...] of one block in bulk: (rows added, [(segment, capture)
        that must be read the ordinary way])."""
        raise NotImplementedError

    def load_capture(self, cap: Capture, sink: CounterSink) -> int:
        """Parse one capture into the sink; returns the rows added."""
        counters = self.parse_capture(cap)
        if not counters:
            raise CaptureError(f"no counters found: expected {self.command} output", cap.first_line)
        require_time_and_host(cap)
        return sink.add_counters(cap, cap.command or self.command, self.format, counters)

    # -- per file ----------------------------------------------------------------------------------------

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        run = _FileRun(self, path, ctx)
        for block, segments in iter_blocks(path):
            yield from run.block(block, segments)
        if run.untimed and not run.timed:
            raise FormatError(f"{run.untimed[0]}; no capture in the file has a time and host: {HOW_TO_FIX}", line=1)
        batch = run.sink.flush()
        if batch is not None:
            yield batch


class _FileRun:
    """The state of one file's parse: its sink, the next record ordinal, which captures had a time."""

    def __init__(self, parser: CommandParser, path: Path, ctx: ParseContext):
        self.parser = parser
        self.ctx = ctx
        self.name_host, self.name_time = file_name_info(path.name)
        self.sink = CounterSink(parser.format)
        self.ordinal = 0
        self.timed = 0
        self.untimed: list[str] = []

    def block(self, block: bytes, segments: list[Segment]) -> Iterator[Batch]:
        group: list = []  # consecutive captures the parser reads in bulk
        for seg in segments:
            cap = Capture(self.ordinal, "", seg.first_line, seg.header_line, self.name_host, self.name_time)
            if seg.header is not None:
                try:
                    _apply_header(cap, seg.header)
                except CaptureError as e:
                    yield from self._group(block, group)
                    self.ctx.read()
                    self.ctx.reject(f"{e}; {HOW_TO_FIX}", seg.header + "\n" + seg.text(), line=e.line,
                                    record_ordinal=self.ordinal)
                    self.ordinal += 1
                    continue
                if cap.captured_at is not None and cap.host is not None:
                    shape = self.parser.shape_of(seg, self.sink)
                    if shape is not None:
                        group.append((seg, cap, shape))
                        self.ordinal += 1
                        continue
            yield from self._group(block, group)
            cap.text = seg.text()
            yield from self._segment(cap, seg.header)
        yield from self._group(block, group)

    def _group(self, block: bytes, group: list) -> Iterator[Batch]:
        if not group:
            return
        added, slow = self.parser.load_group(block, group, self.sink)
        self.ctx.read(added)
        self.timed += len(group) - len(slow)
        for seg, cap in slow:
            cap.text = seg.text()
            self._load(self.parser, cap)
        group.clear()
        if self.sink.full():
            yield self.sink.flush()

    def _segment(self, base: Capture, header: str | None) -> Iterator[Batch]:
        parser = self.parser if header is None or self.parser.matches(_content_lines(base)) else _parser_for(base)
        if parser is None:
            self.ctx.read()
            self.ctx.reject(
                f"capture at line {base.header_line}: unknown command output: the text matches none of the "
                f"command formats ({', '.join(p.format for p in command_parsers())})",
                base.text, line=base.header_line, record_ordinal=self.ordinal,
            )
            self.ordinal += 1
            return
        for cap in parser.split(base):
            cap.ordinal = self.ordinal
            self.ordinal += 1
            self._load(parser, cap)
            if self.sink.full():
                yield self.sink.flush()

    def _load(self, parser: CommandParser, cap: Capture) -> None:
        try:
            self.ctx.read(parser.load_capture(cap, self.sink))
            self.timed += 1
        except CaptureError as e:
            self.ctx.read()
            if isinstance(e, MissingTimeError):
                self.untimed.append(str(e))
            where = e.line if e.line is not None else cap.header_line
            self.ctx.reject(
                f"capture {cap.ordinal} (line {cap.header_line}): line {where}: {e}",
                cap.text, line=where, record_ordinal=cap.ordinal,
            )


class MissingTimeError(CaptureError):
    pass


def require_time_and_host(cap: Capture) -> None:
    missing = [what for what, v in (("capture time", cap.captured_at), ("host", cap.host)) if v is None]
    if missing:
        raise MissingTimeError(f"no {' and no '.join(missing)} for this capture: {HOW_TO_FIX}", cap.header_line)


def _apply_header(cap: Capture, header: str) -> None:
    m = HEADER_RE.match(header.strip())
    if not m:
        raise CaptureError(
            f"unreadable capture header {header.strip()!r}: expected '# captured: <ISO time> host: <name>'",
            cap.header_line,
        )
    try:
        cap.captured_at, cap.utc_offset_s = parse_iso_time(m["ts"])
    except ValueError:
        raise CaptureError(f"capture header time {m['ts']!r} is not an ISO 8601 time", cap.header_line) from None
    if m["host"]:
        cap.host = m["host"]


def _content_lines(cap: Capture) -> list[str]:
    """The first non-blank, non-comment lines: enough to recognise the command (without splitting a long text)."""
    head = cap.text[:2048].replace("\r", "").split("\n")
    return [ln for ln in head if ln.strip() and not ln.lstrip().startswith("#")][: CommandParser.sniff_lines]


def command_parsers() -> list[CommandParser]:
    # imported here: the registry imports every parser module, and they import this one
    from ingest.formats import registry

    return [p for p in registry.all_parsers() if isinstance(p, CommandParser)]


def _parser_for(cap: Capture) -> CommandParser | None:
    lines = _content_lines(cap)
    return next((p for p in command_parsers() if p.matches(lines)), None)


PROMPT_RE = re.compile(r"^.{0,80}?[$#>%]\s*(?:netstat|onetstat|entstat|snaadmin)\b")


def is_noise(line: str) -> bool:
    """Blank lines, '#' comments and the shell prompt echoing the command: no part of any output."""
    stripped = line.strip()
    return not stripped or stripped[0] == "#" or PROMPT_RE.match(stripped) is not None


@lru_cache(maxsize=65536)
def snake(label: str) -> str:
    """'Packets Dropped' -> 'packets_dropped'; 'TCPDSACKOldSent' -> 'tcp_dsack_old_sent'; 'S/W' -> 'sw'."""
    s = re.sub(r"^(TCP|IP|UDP|ICMP)(?=[A-Z])", r"\1_", label.replace("OKs", "Oks").replace("ACKs", "Acks").replace("IDs", "Ids"))
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", s)
    s = s.replace("/", "").replace("+", "_").replace("%", "pct").replace("#", "count")
    return re.sub(r"[^0-9a-z]+", "_", s.lower()).strip("_")


def split_captures_at(cap: Capture, starts: list[int]) -> list[Capture]:
    """Cut a segment into captures at the given line offsets (each a capture's first line)."""
    lines = cap.lines
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
