"""ENFORM-style report formatting, shared by the report commands: display masks and stacked headings.

ENFORM, the query language and report writer of the MEASURE performance data base, printed the
threshold and trend reports that ``perfdb report`` reproduces. What matters for the layout:

* ``AS F5.1`` prints a number right-justified in 5 positions with 1 decimal and no zero before the
  decimal point: ``.2``, ``55.4``, ``7.2``. A value too wide for its mask prints as asterisks.
* ``AS I2`` prints an integer right-justified in 2 positions; a ``99`` picture keeps leading zeros
  (the trend report's ``CPU NUM`` ``01``).
* ``HEADING "MAX/CPU/QLEN"`` stacks a heading over several lines, one per ``/``; the stacks are
  aligned at the bottom, on the line above the data, and each line is centred over its column.

Example (King 1986, Figure 1)::

          TIME   MAX    DELT   MAX
    CPU    OF    CPU    CPU    CPU
     #    DAY    QLEN   QLEN   SWAP
      0  11:00    2.0    1.3     .2

A missing value (NULL) prints as blanks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

COLUMN_GAP = "  "


def f_mask(value: float | None, width: int, decimals: int) -> str:
    """ENFORM ``Fw.d``: fixed point, no leading zero, asterisks on overflow."""
    if value is None:
        return " " * width
    text = f"{value:.{decimals}f}"
    if float(text) == 0:
        text = text.lstrip("-")  # -0.0 prints as .0
    if text.startswith("-0."):
        text = "-" + text[2:]
    elif text.startswith("0."):
        text = text[1:]
    return text.rjust(width) if len(text) <= width else "*" * width


def i_mask(value: int | None, width: int) -> str:
    """ENFORM ``Iw``: integer right-justified, asterisks on overflow."""
    if value is None:
        return " " * width
    text = str(int(value))
    return text.rjust(width) if len(text) <= width else "*" * width


def zero_filled(value: int | str | None, width: int) -> str:
    """A ``99`` picture: digits with leading zeros (``1`` -> ``01``); other text left as it is."""
    if value is None:
        return " " * width
    text = str(value)
    return text.zfill(width) if text.isdigit() else text.ljust(width)


@dataclass(frozen=True)
class Column:
    """One report column: its ENFORM heading (lines separated by ``/``) and how a value prints."""

    heading: str
    width: int
    render: Callable[[Any], str]

    @property
    def heading_lines(self) -> list[str]:
        return self.heading.split("/")

    @property
    def print_width(self) -> int:
        return max([self.width] + [len(line) for line in self.heading_lines])


def centre(text: str, width: int) -> str:
    """Centres text in width; an odd leftover blank goes on the left, where numbers have theirs."""
    left = (width - len(text) + 1) // 2
    return (" " * max(left, 0) + text).ljust(width)


def render_table(columns: Sequence[Column], rows: Sequence[Sequence[Any]]) -> list[str]:
    """Stacked headings, then one line per row; a value's field is centred like its heading."""
    depth = max(len(c.heading_lines) for c in columns)
    lines = []
    for level in range(depth):
        cells = []
        for column in columns:
            stack = [""] * (depth - len(column.heading_lines)) + column.heading_lines
            cells.append(centre(stack[level], column.print_width))
        lines.append(COLUMN_GAP.join(cells).rstrip())
    for row in rows:
        cells = [centre(column.render(value), column.print_width) for column, value in zip(columns, row)]
        lines.append(COLUMN_GAP.join(cells).rstrip())
    return lines


def text_column(heading: str, texts: Sequence[str], *, right: bool = False) -> Column:
    """A column of formatted text, left-justified (right for numbers) across the width of its longest value
    or heading line; the heading is centred over it."""
    width = max(len(t) for t in [*texts, *heading.split("/")])
    return Column(heading, width, lambda v: v.rjust(width) if right else v.ljust(width))


def table_width(columns: Sequence[Column]) -> int:
    return sum(c.print_width for c in columns) + len(COLUMN_GAP) * (len(columns) - 1)
