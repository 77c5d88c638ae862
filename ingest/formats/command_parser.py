"""The file-level driver every command-output parser extends: captures in, the command tables out.

The file's parser is the one whose command printed the first capture of the file's head that a command
parser recognises (``CommandParser.sniff``; the capture module's docstring, "Sniffing"). A file is read in
blocks (``capture.iter_blocks``), cut into captures at ``# captured:`` lines or at the command's own
envelope (``CommandParser.split``), and each capture is handed to the parser that recognises it: the
file's parser, or, in a mixed collector log, the parser of that capture's command. A capture is one
record. Its counters go to the sink (``capture.CounterSink``); the lines its parser could not read
(``Capture.skip``) go to ``raw.command_unparsed_lines`` as skipped records, one per line, and the rest of
the capture loads. A capture is rejected whole only when nothing in it can be used: no time or host, an
unreadable ``# captured:`` line, output of no known command or none at all, no counter at all, or a
capture its command marks as cut short (see each parser).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from ingest.formats import command_tables
from ingest.formats.base import Batch, FormatError, ParseContext
from ingest.formats.capture import (
    HEADER_RE,
    HOW_TO_FIX,
    TERMINAL_CONTROL_RE,
    Capture,
    CaptureError,
    Counter,
    CounterSink,
    Segment,
    dedent,
    file_name_info,
    head_captures,
    iter_blocks,
    name_identity,
    parse_iso_time,
)


class CommandParser:
    """Base of every command-output parser: the file-level work; subclasses parse one capture.

    Subclasses set ``format``, ``command`` (normalised command name), ``version``, ``priority`` and
    implement ``matches(lines)`` (is this capture my command's output?) and ``parse_capture(cap)``
    returning ``Counter`` tuples. A line it cannot read is handed to ``cap.skip(offset, reason)``
    and parsing goes on; ``CaptureError`` is for a capture that cannot be used at all. A parser
    whose command prints its own envelope also overrides ``split(cap)``.
    """

    format = "command.base"
    command = ""
    tables = command_tables.TABLES
    version = "2"
    priority = 40
    sniff_lines = 40
    each_counter_once = False  # True: a counter given twice in one capture keeps its second line unparsed

    # -- content recognition ---------------------------------------------------------------------

    def matches(self, lines: list[str]) -> bool:
        raise NotImplementedError

    def sniff(self, head: bytes, name: str) -> bool:
        """Whether this is the command of the first capture in ``head`` that a command parser recognises."""
        return self.matches(_first_known_capture(head, command_parsers())[: self.sniff_lines])

    def name_identity(self, head: bytes, name: str) -> str | None:
        """``capture.name_identity``: an idle host's captures, the same bytes, each load as its own snapshot."""
        return name_identity(head, name)

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

    def load_group(self, block: bytes, group: list, sink: CounterSink) -> list:
        """Load [(segment, capture, shape)...] of one block in bulk; returns the [(segment, capture)]
        that must be read the ordinary way."""
        raise NotImplementedError

    def checked_counters(self, cap: Capture) -> list[Counter]:
        """The counters of one capture, once it is known to have some, a time and a host, and plausible values."""
        counters = self.parse_capture(cap)
        if not counters:
            raise CaptureError(f"no counters found: expected {self.command} output", cap.first_line)
        require_time_and_host(cap)
        return plausible(cap, counters, self.each_counter_once)

    def load_capture(self, cap: Capture, sink: CounterSink) -> None:
        """Parse one capture into the sink."""
        counters = self.checked_counters(cap)  # first: parsing may name the capture's command
        sink.add_counters(cap, cap.command or self.command, self.format, counters)

    # -- per file ----------------------------------------------------------------------------------------

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        run = _FileRun(self, path, ctx)
        for block, segments in iter_blocks(path):
            yield from run.block(block, segments)
        if run.untimed and not run.timed:
            raise FormatError(f"{run.untimed[0]}; no capture in the file has a time and host: {HOW_TO_FIX}", line=1)
        yield from run.sink.flush()


COUNTER_LIMIT = 2.0 ** 64  # the widest counter any of these systems keeps: a larger number is a damaged line


def plausible(cap: Capture, counters: list, once: bool = False) -> list:
    """The counters less those whose value no counter can have, whose lines are kept as unreadable (the rest of
    the capture loads, as for any line a parser cannot read): a number beyond 2^64 (beyond any 64-bit
    counter; a double cannot even hold one printed with hundreds of digits), a cumulative counter (kind
    ``counter``) below 0, and, for a command that prints each counter once (``once``: protocol statistics),
    a second value of a counter the capture already gave (same section, entity and name: a release that
    prints one label twice, or a layout the parser cannot nest), which would count it twice."""
    kept, skipped = [], set()
    first_line: dict[tuple, int] = {}
    for c in counters:
        reason = None
        seen = first_line.setdefault((c.section, c.entity, c.name), c.offset) if once else c.offset
        if seen != c.offset:
            reason = f"'{c.counter}': counter {c.name} already given on line {cap.line_no(seen)} of this capture"
        elif c.value is not None and not math.isfinite(c.value):
            reason = f"'{c.counter}': expected a number a double can hold, found one beyond its range"
        elif c.value is not None and abs(c.value) > COUNTER_LIMIT:
            reason = (f"'{c.counter}': expected a number a 64-bit counter can hold (no system keeps a wider one), "
                      f"found {c.value:.4g}")
        elif c.value is not None and c.kind == "counter" and c.value < 0:
            reason = f"'{c.counter}': expected a cumulative counter, never negative, found {c.value:g}"
        if reason is None:
            kept.append(c)
        elif c.offset not in skipped:  # one unreadable line, however many of its values are wrong
            skipped.add(c.offset)
            cap.skip(c.offset, reason)
    return kept


class _FileRun:
    """The state of one file's parse: its sink, the next record ordinal, which captures had a time."""

    def __init__(self, parser: CommandParser, path: Path, ctx: ParseContext):
        self.parser = parser
        self.ctx = ctx
        self.name_host, self.name_time = file_name_info(path.name)
        self.sink = CounterSink()
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
        in_order = []
        for seg, cap, shape in group:  # in file order, as the captures read one by one are
            try:
                self.sink.check_order(cap, self.parser.command)
                in_order.append((seg, cap, shape))
            except CaptureError as e:
                self.ctx.read()
                cap.text = seg.text()
                self._reject(cap, e)
        group[:] = in_order
        slow = self.parser.load_group(block, group, self.sink)
        self.ctx.read(len(group) - len(slow))
        self.timed += len(group) - len(slow)
        for seg, cap in slow:
            cap.text = seg.text()
            self._load(self.parser, cap)
        group.clear()
        if self.sink.full():
            yield from self.sink.flush()

    def _segment(self, base: Capture, header: str | None) -> Iterator[Batch]:
        parser = self.parser if header is None or self.parser.matches(_content_lines(base)) else _parser_for(base)
        if parser is None:
            self.ctx.read()
            what = ("empty capture: expected a command's output after its '# captured:' line" if not base.text.strip()
                    else "unknown command output: the text matches none of the command formats "
                         f"({', '.join(p.format for p in command_parsers())})")
            self.ctx.reject(f"capture at line {base.header_line}: {what}", base.text, line=base.header_line,
                            record_ordinal=self.ordinal)
            self.ordinal += 1
            return
        for cap in parser.split(base):
            cap.ordinal = self.ordinal
            self.ordinal += 1
            self._load(parser, cap)
            if self.sink.full():
                yield from self.sink.flush()

    def _load(self, parser: CommandParser, cap: Capture) -> None:
        self.ctx.read()
        try:
            parser.load_capture(cap, self.sink)
            self.timed += 1
            self.ctx.read(len(cap.unparsed))  # each line kept in raw.command_unparsed_lines is a skipped record
        except CaptureError as e:
            if isinstance(e, MissingTimeError):
                self.untimed.append(str(e))
            self._reject(cap, e)

    def _reject(self, cap: Capture, e: CaptureError) -> None:
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


def _command_lines(text: str) -> list[str]:
    """The lines that tell a capture's command: not blank, no '#' comment (a ``# captured:`` line is one),
    without terminal escapes and carriage returns, less the indent they all share."""
    lines = TERMINAL_CONTROL_RE.sub("", text.replace("\r", "")).split("\n")
    return dedent([ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")])


def _content_lines(cap: Capture) -> list[str]:
    """The first content lines: enough to recognise the command (without splitting a long text)."""
    return _command_lines(cap.text[:2048])[: CommandParser.sniff_lines]


def command_parsers() -> tuple[CommandParser, ...]:
    # imported here: the registry imports every parser module, and they import this one
    from ingest.formats import registry

    return tuple(p for p in registry.all_parsers() if isinstance(p, CommandParser))


def _recognise(lines: list[str], parsers: tuple[CommandParser, ...]) -> CommandParser | None:
    """The first of ``parsers`` (in the registry's order: priority, then name) whose command printed ``lines``."""
    return next((p for p in parsers if p.matches(lines[: p.sniff_lines])), None)


def _parser_for(cap: Capture) -> CommandParser | None:
    return _recognise(_content_lines(cap), command_parsers())


@lru_cache(maxsize=1)  # every command parser's sniff asks it in turn of the same head
def _first_known_capture(head: bytes, parsers: tuple[CommandParser, ...]) -> list[str]:
    """The content lines of the first capture in a file's head that one of ``parsers`` recognises; [] when none
    does. A collector log's first capture may be damaged (garbage, a shell's 'netstat: command not found', a
    header and nothing else): a later capture in the head tells the command all the same, and the damaged one
    is rejected on its own when the file is parsed. A head with no such capture leaves the file unrecognised:
    sniffing never reads past the head, however long the damage."""
    for text in head_captures(head):
        lines = _command_lines(text)
        if _recognise(lines, parsers) is not None:
            return lines
    return []
