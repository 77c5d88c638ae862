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

Rows are built column-wise with dictionary-encoded strings (labels repeat in every capture) and
streamed in batches of about ``BATCH_ROWS``; see docs/commands_raw_contract.md for the columns.
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
HEADER_START_RE = re.compile(r"^#[ \t]*captured:", re.IGNORECASE | re.MULTILINE)
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
        # values in runs: floats (None for text rows) or the digits as printed, converted by Arrow at flush
        self.value_runs: list[tuple[bool, list]] = []
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
            values: Sequence[float | None] | Sequence[bytes], texts: Sequence[str | None] | None = None,
            *, digits: bool = False) -> int:
        """One capture's rows; ``values`` are floats, or with ``digits`` the numbers as printed (b'54204')."""
        self.parts.append((
            layout, cap, self.intern("host", cap.host), self.intern("command", command),
            self.intern("source_format", source_format),
        ))
        if self.value_runs and self.value_runs[-1][0] == digits:
            self.value_runs[-1][1].extend(values)
        else:
            self.value_runs.append((digits, list(values)))
        self.texts.extend(layout.no_text if texts is None else texts)
        self.rows += layout.size
        return layout.size

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
        columns["value"] = pa.concat_arrays([
            pa.array(run, pa.binary()).cast(pa.string()).cast(pa.float64()) if digits else pa.array(run, pa.float64())
            for digits, run in self.value_runs
        ])
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


def iter_segments(path: Path) -> Iterator[tuple[str, int, int, str | None]]:
    """(text, header line, first text line, header line text) per '# captured:' segment, streaming.

    Text before the first header (when not blank) is a segment of its own without a header. The file
    is read in blocks so a log of any size is never held in memory at once.
    """
    line_no = 1  # line number of the first line of `pending`
    pending = ""
    header: str | None = None
    header_line = 1
    with path.open("rb") as f:
        tail = b""
        while True:
            block = f.read(READ_BLOCK)
            eof = not block
            data = tail + block
            if not eof:
                cut = data.rfind(b"\n") + 1
                data, tail = data[:cut], data[cut:]
            text = data.decode("utf-8", "replace")
            if "\r" in text:
                text = text.replace("\r\n", "\n")
            scan_from = len(pending)  # headers are whole lines, so only the new text can hold new ones
            pending += text
            pos = 0
            for start in _header_starts(pending, scan_from):
                if start > pos or header is not None:
                    yield from _segment(pending[pos:start], header, header_line, line_no)
                line_no += pending.count("\n", pos, start)
                end = pending.find("\n", start)
                end = len(pending) if end < 0 else end
                header, header_line = pending[start:end], line_no
                line_no += 1
                pos = end + 1
            # keep the unfinished segment; everything before its header has been yielded
            if pos:
                pending = pending[pos:]
            if eof:
                yield from _segment(pending, header, header_line, line_no)
                return


def _header_starts(text: str, scan_from: int) -> Iterator[int]:
    """Offsets of the '# captured:' lines at or after scan_from (str.find: far faster than a regex scan)."""
    if scan_from == 0 and HEADER_START_RE.match(text):
        yield 0
    at = max(scan_from - 1, 0)
    while (at := text.find("\n#", at)) >= 0:
        at += 1
        if HEADER_START_RE.match(text, at):
            yield at


def _segment(text: str, header: str | None, header_line: int, first_line: int):
    if header is None and not text.strip():
        return
    yield text, (header_line if header is not None else first_line), first_line, header


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

    def fast_load(self, cap: Capture, sink: CounterSink) -> int | None:
        """Rows added, when the capture is known to be this command's output from an earlier one with
        the same text apart from its numbers (a collector log); None to read it the ordinary way."""
        return None

    def load_capture(self, cap: Capture, sink: CounterSink) -> int:
        """Parse one capture into the sink; returns the rows added."""
        counters = self.parse_capture(cap)
        if not counters:
            raise CaptureError(f"no counters found: expected {self.command} output", cap.first_line)
        require_time_and_host(cap)
        return sink.add_counters(cap, cap.command or self.command, self.format, counters)

    # -- per file ----------------------------------------------------------------------------------------

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        name_host, name_time = file_name_info(path.name)
        sink = CounterSink(self.format)
        ordinal = 0
        timed = 0
        untimed: list[str] = []
        for text, header_line, first_line, header in iter_segments(path):
            base = Capture(ordinal, text, first_line, header_line, name_host, name_time)
            if header is not None:
                try:
                    _apply_header(base, header)
                except CaptureError as e:
                    ctx.read()
                    ctx.reject(f"{e}; {HOW_TO_FIX}", header + "\n" + text, line=e.line, record_ordinal=ordinal)
                    ordinal += 1
                    continue
            if header is not None and base.captured_at is not None and base.host is not None:
                added = self.fast_load(base, sink)
                if added is not None:
                    ctx.read(added)
                    timed += 1
                    ordinal += 1
                    if sink.full():
                        yield sink.flush()
                    continue
            parser = self if header is None or self.matches(_content_lines(base)) else _parser_for(base)
            if parser is None:
                ctx.read()
                ctx.reject(
                    f"capture at line {header_line}: unknown command output: the text matches none of the "
                    f"command formats ({', '.join(p.format for p in command_parsers())})",
                    text, line=header_line, record_ordinal=ordinal,
                )
                ordinal += 1
                continue
            for cap in parser.split(base):
                cap.ordinal = ordinal
                ordinal += 1
                try:
                    ctx.read(parser.load_capture(cap, sink))
                    timed += 1
                except CaptureError as e:
                    ctx.read()
                    if isinstance(e, MissingTimeError):
                        untimed.append(str(e))
                    where = e.line if e.line is not None else cap.header_line
                    ctx.reject(
                        f"capture {cap.ordinal} (line {cap.header_line}): line {where}: {e}",
                        cap.text, line=where, record_ordinal=cap.ordinal,
                    )
                if sink.full():
                    yield sink.flush()
        if untimed and not timed:
            raise FormatError(f"{untimed[0]}; no capture in the file has a time and host: {HOW_TO_FIX}", line=1)
        batch = sink.flush()
        if batch is not None:
            yield batch


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


def number(text: str) -> float:
    """A printed integer or decimal, thousands separators allowed ('1,234', '12.5')."""
    return float(text.replace(",", ""))


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
