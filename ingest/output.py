"""What perfdb prints: result rows as an aligned table, CSV or a JSON array of objects keyed by column name;
paths as the user would type them; a progress bar on a terminal (and nothing, not colour codes, elsewhere)."""

from __future__ import annotations

import csv
import datetime as dt
import decimal
import json
import os
import shlex
import shutil
import subprocess
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
        text = [["" if v is None else _shown_value(v) for v in r] for r in rows]
        widths = [max([len(c)] + [len(r[i]) for r in text]) for i, c in enumerate(columns)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(), "  ".join("-" * w for w in widths)]
        lines += ["  ".join(v.rjust(w) if _numeric(v) else v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in text]
        lines.append(f"({len(rows)} rows)")
        page(lines, out)


def round_floats(rows: Sequence[Sequence], decimals: int) -> list[tuple]:
    """Every float of the rows rounded: CSV and JSON carry a report's precision, not ``4.0569401563888885``."""
    return [tuple(round(v, decimals) if isinstance(v, float) else v for v in row) for row in rows]


def _shown_value(v) -> str:
    """A float with at most 4 decimals on a terminal (CSV and JSON keep what the query returned)."""
    if isinstance(v, float):
        return f"{v:.4f}".rstrip("0").rstrip(".") if abs(v) < 1e15 else str(v)
    return str(_jsonable(v))


def page(lines: list[str], out=None) -> None:
    """Lines to ``out``; on a terminal they do not fit, through ``$PAGER`` (default ``less -FRSX``: long lines
    scroll sideways instead of wrapping, and a screenful or less prints as it is)."""
    out = out or sys.stdout
    size = shutil.get_terminal_size()
    too_big = len(lines) > size.lines - 1 or any(len(line) > size.columns for line in lines)
    pager = os.environ.get("PAGER", "less -FRSX")
    if out is sys.stdout and out.isatty() and too_big and pager and shutil.which(shlex.split(pager)[0]):
        out.flush()
        subprocess.run(shlex.split(pager), input="\n".join(lines) + "\n", text=True)
    else:
        out.write("\n".join(lines) + "\n")


def _numeric(s: str) -> bool:
    """A number, also when marked (``78.6*``: above its threshold): right-aligned."""
    try:
        float(s.replace(",", "").rstrip("*"))
        return True
    except ValueError:
        return False


def shown(path: Path) -> str:
    """A path relative to the current directory when it is below it (as the user named the home), else whole.
    Links are not followed: serving.duckdb is shown as itself, not as the slot it points at."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
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


def emit(as_json: bool, summary: dict, lines: list[str]) -> None:
    """A command's summary: as JSON under ``--json``, else its lines."""
    if as_json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        for line in lines:
            print(line)


def tell_removed(as_json: bool, removed: list[dict]) -> int:
    """What ``perfdb remove`` says of the files it removed (file_id, path, rows), on either target; its exit code."""
    emit(as_json, {"removed": removed}, [
        *(f"removed file {r['file_id']} {shown(Path(r['path']))}: {r['rows']} rows" for r in removed),
        f"{len(removed)} file{'s' if len(removed) > 1 else ''} removed; run `perfdb build` so that the models follow"
        if removed else "nothing removed: no ingested file matches",
    ])
    return 0 if removed else 1
