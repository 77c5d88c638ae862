"""A text file read with its over-long lines stepped past: each is handed on as a stand-in line, and remembered.

A line reader with a block size (pyarrow's CSV reader needs every row inside one block) fails on a line
longer than the block, and with it the whole file. ``ShortLines`` reads the file through, handing on each
line longer than ``limit`` bytes as ``stand_in`` (for the CSV reader: the separators of an empty row, which
it reads as a blank line) so that every other line keeps its number, and lists the long ones, with their
line numbers, sizes and first bytes, for the parser to reject. For example, with a 1 MiB limit:

    lines = ShortLines(path, limit=1 << 20, stand_in=b",,\\n")
    pv.open_csv(lines, ...)                      # reads every line but the long ones
    lines.long == [LongLine(line=5, size=8_388_609, head=b"1,\\\\TAHITI,...")]

Only a chunk holding a long line is cut line by line; the others pass through whole (a vectorised search
for the newlines tells which).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CHUNK_BYTES = 1 << 20
HEAD_BYTES = 4096  # what a reject keeps of a long line


@dataclass
class LongLine:
    line: int  # 1-based
    size: int  # bytes, the newline left out
    head: bytes


class ShortLines(io.RawIOBase):
    """``path``'s bytes, each line of more than ``limit`` bytes replaced by ``stand_in``; ``long`` lists them."""

    def __init__(self, path: Path, limit: int, stand_in: bytes):
        super().__init__()
        self._file = Path(path).open("rb")
        self.limit, self.stand_in = limit, stand_in
        self.long: list[LongLine] = []
        self._pending = bytearray()  # the current line's bytes so far (at most ``limit``)
        self._skipping: LongLine | None = None  # the long line being stepped past
        self._lines = 0  # lines ended so far
        self._out = bytearray()

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while len(self._out) < len(b):
            chunk = self._file.read(CHUNK_BYTES)
            if not chunk:
                self._end()
                break
            self._take(chunk)
        n = min(len(b), len(self._out))
        b[:n] = self._out[:n]
        del self._out[:n]
        return n

    def close(self) -> None:
        self._file.close()
        super().close()

    def _take(self, chunk: bytes) -> None:
        ends = np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10)
        if self._skipping is None and len(ends):
            lengths = np.diff(ends, prepend=-1 - len(self._pending)) - 1
            if lengths.max() <= self.limit and len(chunk) - 1 - ends[-1] <= self.limit:  # the usual chunk
                self._out += self._pending
                self._out += chunk[: ends[-1] + 1]
                self._pending = bytearray(chunk[ends[-1] + 1:])
                self._lines += len(ends)
                return
        start = 0
        for end in ends.tolist():
            self._add(chunk[start:end])
            self._end_line(chunk[end:end + 1])
            start = end + 1
        self._add(chunk[start:])

    def _add(self, part: bytes) -> None:
        """Bytes of the current line (no newline)."""
        if self._skipping is not None:
            self._skipping.size += len(part)
            return
        self._pending += part
        if len(self._pending) > self.limit:
            self._skipping = LongLine(self._lines + 1, len(self._pending), bytes(self._pending[:HEAD_BYTES]))
            self._pending = bytearray()

    def _end_line(self, newline: bytes) -> None:
        self._lines += 1
        if self._skipping is not None:
            self.long.append(self._skipping)
            self._skipping = None
            self._out += self.stand_in
            return
        self._out += self._pending
        self._out += newline
        self._pending = bytearray()

    def _end(self) -> None:
        """End of file: a last line without a newline."""
        if self._skipping is not None:
            self._end_line(b"")
        elif self._pending:
            self._out += self._pending
            self._pending = bytearray()
