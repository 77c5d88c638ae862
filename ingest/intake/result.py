"""What became of one input file (``FileResult``), and how its rejects are told: the same for every target.

Records read = records loaded + rows rejected + rows skipped (``ingest.intake.parse``). A reject is told
as ``<path>: line 3: implausible: cpu_busy_time -5 is negative (a cumulative counter)`` (``describe_reject``)
and counted by rule in the manifest (``rejects_by_rule``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ingest.formats.base import Parser, Reject


@dataclass
class FileResult:
    path: Path
    status: str  # loaded | loaded_with_rejects | rejected | failed | duplicate
    format: str | None = None
    records_read: int = 0
    records_loaded: int = 0  # equals rows_loaded unless a parser's record spans several rows (Batch.records)
    rows_loaded: int = 0
    rows_rejected: int = 0
    rows_skipped: int = 0
    error: str | None = None
    messages: list[str] = field(default_factory=list)
    previously_rejected: int = 0  # a duplicate of a file loaded with rejects: the records rejected then
    duplicate_rows: int = 0  # rows another file holds too, with the same values (raw.key_conflicts)
    conflicting_rows: int = 0  # rows another file holds too, with other values: not a success until one goes
    copies: list[str] = field(default_factory=list)  # what those rows are, naming the other file (``copies``)

    @property
    def ok(self) -> bool:
        return ((self.status == "loaded" and not self.conflicting_rows)
                or (self.status == "duplicate" and not self.previously_rejected))


def failed(path: Path, message: str, parser: Parser | None = None) -> FileResult:
    """The result of a file that did not load for ``message``, no fault of its records: a path that cannot be
    read, a parser bug, rows its target refused."""
    return FileResult(path, "failed", format=parser.format if parser else None, error=message,
                      messages=[f"{path}: {message}"])


def rejects_by_rule(rejects: list[Reject]) -> str | None:
    """The manifest's count of a file's rejects by rule (``Reject.rule``: a plausibility rule of
    ``plausibility.RULES``, or ``unreadable``), as JSON with the rules in order; None for none.

    >>> rejects_by_rule([Reject("", b"", rule="beyond_rate"), Reject("", b""), Reject("", b"")])
    '{"beyond_rate": 1, "unreadable": 2}'
    """
    return json.dumps(dict(sorted(Counter(r.rule for r in rejects).items()))) if rejects else None


def describe_reject(path: Path, r: Reject) -> str:
    where = (f"line {r.line}" if r.line is not None else f"offset {r.offset}" if r.offset is not None
             else f"record {r.record_ordinal}" if r.record_ordinal is not None else "?")
    return f"{path}: {where}: {r.reason}"
