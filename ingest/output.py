"""What perfdb prints: result rows as an aligned table, CSV or a JSON array of objects keyed by column name;
paths as the user would type them; a progress bar on a terminal (and nothing, not colour codes, elsewhere)."""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import json
import sys
from pathlib import Path
from typing import Sequence


def _jsonable(v):
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat(sep=" ") if isinstance(v, dt.datetime) else v.isoformat()
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, bytes):
        return v.hex()
    return v


def print_rows(columns: Sequence[str], rows: Sequence[Sequence], fmt: str = "table", out=None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        json.dump([{c: _jsonable(v) for c, v in zip(columns, r)} for r in rows], out, indent=2)
        out.write("\n")
    elif fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(columns)
        w.writerows([[_jsonable(v) for v in r] for r in rows])
    else:
        text = [["" if v is None else str(_jsonable(v)) for v in r] for r in rows]
        widths = [max([len(c)] + [len(r[i]) for r in text]) for i, c in enumerate(columns)]
        out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip() + "\n")
        out.write("  ".join("-" * w for w in widths) + "\n")
        for r in text:
            out.write("  ".join(v.rjust(w) if _numeric(v) else v.ljust(w) for v, w in zip(r, widths)).rstrip() + "\n")
        out.write(f"({len(rows)} rows)\n")


def _numeric(s: str) -> bool:
    try:
        float(s.replace(",", ""))
        return True
    except ValueError:
        return False


def shown(path: Path) -> str:
    """A path relative to the current directory when it is below it (as the user named the home), else whole."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class ProgressBar:
    """``rich``'s progress bar on stderr, removed when done; ``update(done, total)`` as work advances."""

    def __init__(self, label: str):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                             transient=True, console=Console(stderr=True))
        self._task = self._bar.add_task(label, total=None)
        self._bar.start()

    def update(self, done: int, total: int) -> None:
        self._bar.update(self._task, completed=done, total=total)

    def close(self) -> None:
        self._bar.stop()


def progress_bar(label: str) -> ProgressBar | None:
    """A progress bar when stderr is a terminal and ``rich`` is installed; None otherwise (the caller then prints
    plain lines, or nothing)."""
    if not sys.stderr.isatty():
        return None
    try:
        return ProgressBar(label)
    except ImportError:
        return None
