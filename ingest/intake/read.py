"""``read_file``: one input file read for either target, from its path to its staged rows, rejects and result.

The one path a file takes before it is written: told if it cannot be read (``listing.unreadable``),
identified and sniffed (``identity``), asked about (``admit``: the target says whether it holds the same
bytes already), opened less a byte order mark (``text_source``), parsed and accounted for (``parse``), and
checked not to have changed meanwhile. Bad input never raises: a file that cannot be parsed at all is one
reject (``rejected``), a parser bug is the file's failure (``failed``); only a full disc, the machine's
fault, stops the run. The target then writes what it got: the DuckDB loader in a transaction
(``ingest.warehouse.loading``), a Spark task into the lake (``ingest.lake.job``).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ingest import faults
from ingest.formats.base import FormatError, ParseContext, Parser, Reject
from ingest.intake.identity import identify
from ingest.intake.listing import unreadable
from ingest.intake.parse import parse_file
from ingest.intake.result import FileResult, failed
from ingest.intake.staged import StagedBatches
from ingest.intake.text_source import text_source

# the first bytes of a file rejected whole, kept with its reject for diagnosis
_SHOWN_BYTES = 4096

Admit = Callable[[str], "FileResult | None"]  # (sha256) -> None to go on, or the result of a file held already


@dataclass
class Intake:
    """What one file came to. ``sha`` None: nothing to record (a duplicate, or a file that could not be read or
    changed while it was); ``staged`` None: no rows to write (rejected whole, or failed)."""

    result: FileResult
    sha: str | None = None
    size: int = 0
    parser: Parser | None = None
    rejects: list[Reject] = field(default_factory=list)
    staged: StagedBatches | None = None

    def refused(self, message: str) -> Intake:
        """The same file failed: its target refused its rows for ``message``; nothing staged."""
        return Intake(failed(self.result.path, message, self.parser), self.sha, self.size, self.parser)


def read_file(path: Path, staged: StagedBatches, *, format_name: str | None = None, options: dict | None = None,
              admit: Admit = lambda sha: None) -> Intake:
    """``path`` parsed into ``staged``, accounted for and judged. A path that cannot be read (``unreadable``)
    or that changed while it was read (``_still_written``) is a failed result with nothing to record: a file
    renamed, removed or still being copied while a run goes on costs that file (until the next run), not the
    run."""
    problem = unreadable(path)
    if problem is None:
        try:
            before = path.stat()
            intake = _read(path, staged, format_name, options, admit)
            problem = _still_written(before, path.stat())
        except FileNotFoundError:
            problem = unreadable(path) or "vanished while it was read: not loaded"
        except OSError as e:
            if faults.no_room(e):  # no room for a copy without a byte order mark: the machine's fault, as in staging
                raise faults.translate(e, f"staging {path}") from None
            problem = f"cannot be read ({e.strerror or e}): not loaded"
    if problem is None:
        return intake
    staged.remove()
    return Intake(failed(path, problem))


def _read(path: Path, staged: StagedBatches, format_name, options, admit: Admit) -> Intake:
    sha, size, head, parser = identify(path, format_name)
    held = admit(sha)
    if held is not None:
        return Intake(held)
    head, source = text_source(path, head, staged.directory.with_name(f"{staged.directory.name}.text"))
    ctx = ParseContext(path=source, options=dict(options or {}))
    try:
        result = parse_file(path, size, parser, ctx, staged, source=source)
    except FormatError as e:  # the file itself is the rejected record; its first bytes are kept for diagnosis
        staged.remove()
        message = f"{e} (at {e.position()})"
        result = FileResult(path, "rejected", format=parser.format if parser else None, error=message,
                            records_read=1, rows_rejected=1, messages=[f"{path}: {message}"])
        return Intake(result, sha, size, parser, [Reject(message, head[:_SHOWN_BYTES], e.offset, e.line)])
    except Exception as e:  # a parser bug must not take the batch down: keep the file's story, go on
        staged.remove()
        if faults.no_room(e):  # not the file's fault, and every file after it would fail the same way
            raise faults.translate(e, f"staging {path}") from None
        return Intake(failed(path, f"{type(e).__name__}: {e}", parser), sha, size, parser)
    finally:
        if source != path:
            shutil.rmtree(source.parent, ignore_errors=True)
    return Intake(result, sha, size, parser, ctx.rejects, staged)


def _still_written(before: os.stat_result, after: os.stat_result) -> str | None:
    """What "complete" means to ``perfdb ingest``: a file whose size and time of change are the same after it
    was read (hashed and parsed) as before. (The nightly DAG waits for the landing folder's ``_SUCCESS``.)"""
    if (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
        return None
    return (f"still being written (it changed while it was read: {before.st_size:,} bytes, then {after.st_size:,}): "
            "not loaded; ingest it again once it is complete")
