"""Reads a perfdb benchmark log, JSON lines or CSV, run by run: what the two log parsers and the
configuration checker (``ingest.capacity.config_checks``) share.

The same run in both forms (docs/benchmark_format.md)::

    {"format": "perfdb-benchmark-run", "version": 1, "study": "APPC tuning", "run_label": "nsdos-base", "run_date": "2026-02-02", "parameters": {"ru_size": {"value": 960, "unit": "bytes"}}, "results": {"elapsed": {"value": 31, "unit": "s"}}}

    format,version,study,run_label,run_date,parameters.ru_size.value,parameters.ru_size.unit,results.elapsed.value,results.elapsed.unit
    perfdb-benchmark-run,1,APPC tuning,nsdos-base,2026-02-02,960,bytes,31,s

``read_runs`` yields one ``LoggedRun`` per non-blank line or row: its line number, its text as written and
the record it holds (``LoggedRun.row()`` validates it: the columns of raw.benchmark_runs or a
``RecordError``). A CSV header without the ``format`` and ``version`` columns raises ``FormatError``.
``BenchmarkLog`` is the parser of either form (``jsonl.PARSER``, ``csv_runs.PARSER``): every run read,
loaded or rejected with its line and the field at fault.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext
from ingest.formats.benchmark.record import RUNS, TABLE, RecordError, RunSink, unflatten, validate
from ingest.formats.benchmark.run_schema import FORMAT_NAME

REQUIRED_COLUMNS = ("format", "version")


@dataclass(frozen=True)
class LoggedRun:
    line_number: int
    text: str  # the line or row as written
    record: object  # the run as read, an object if valid; None when the text cannot be read (see problem)
    problem: RecordError | None = None

    def row(self) -> dict:
        """The columns of raw.benchmark_runs, or RecordError naming the field."""
        if self.problem is not None:
            raise self.problem
        return validate(self.record)


def log_form(head: bytes) -> str | None:
    """The form of a benchmark log, "jsonl" or "csv", from the first bytes of a file; None if it is not one."""
    lines = [ln for ln in head.decode("utf-8", "replace").lstrip("\ufeff").splitlines() if ln.strip()]
    if not lines:
        return None
    if lines[0].lstrip().startswith("{"):
        return "jsonl" if FORMAT_NAME in lines[0] else None
    header = [h.strip() for h in next(csv.reader(io.StringIO(lines[0])))]
    if {"format", "version", "run_label"} <= set(header) and (len(lines) < 2 or FORMAT_NAME in lines[1]):
        return "csv"
    return None


def read_runs(path: Path, form: str) -> Iterator[LoggedRun]:
    with path.open("r", encoding="utf-8", errors="replace", newline="") as f:
        yield from (_json_lines if form == "jsonl" else _csv_rows)(f)


def _json_lines(f) -> Iterator[LoggedRun]:
    for line_number, line in enumerate(f, start=1):
        text = line.strip().lstrip("\ufeff")
        if not text:
            continue
        try:
            record, problem = json.loads(text), None
        except json.JSONDecodeError as e:
            record, problem = None, RecordError("(record)", f"expected a JSON object: {e.msg} at column {e.colno}")
        except ValueError as e:  # an integer of more than 4300 digits, which Python refuses to read
            record, problem = None, RecordError("(record)", f"expected a JSON object of readable numbers: {e}")
        yield LoggedRun(line_number, text, record, problem)


def _csv_rows(f) -> Iterator[LoggedRun]:
    reader = csv.reader(f)
    try:
        header = next(reader, None)
    except csv.Error as e:
        raise FormatError(f"expected a CSV header naming the benchmark fields: {e}", line=reader.line_num) from None
    if header is None:
        raise FormatError("expected a CSV header naming the benchmark fields", line=1)
    header = [h.strip().lstrip("\ufeff") for h in header]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise FormatError(f"the header lacks the column(s) {', '.join(missing)}: expected a perfdb benchmark CSV "
                          f"(docs/benchmark_format.md)", line=1)
    duplicated = sorted({h for h in header if header.count(h) > 1})
    if duplicated:
        raise FormatError(f"the header repeats the column(s) {', '.join(duplicated)}", line=1)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:  # a field beyond the csv module's limit (128 KiB): a damaged row, the reader goes on
            yield LoggedRun(reader.line_num, "", None, RecordError("(row)", f"expected a CSV row: {e}"))
            continue
        if not any(cell.strip() for cell in row):
            continue
        record, problem = None, None
        try:
            if len(row) != len(header):
                raise RecordError("(row)", f"expected {len(header)} columns as the header names, found {len(row)}")
            record = unflatten(dict(zip(header, row)))
        except RecordError as e:
            problem = e
        yield LoggedRun(reader.line_num, ",".join(row), record, problem)


class BenchmarkLog:
    """The parser of the log in one form; each run that is not valid goes to ``ctx.reject`` with its line
    and the field at fault, and the others still load."""

    version = "1"
    priority = 30  # before the generic text formats and measure.csv, which would take any CSV with a header
    tables = (RUNS,)

    def __init__(self, form: str):
        self.form = form
        self.format = f"benchmark.{form}"

    def sniff(self, head: bytes, name: str) -> bool:
        return log_form(head) == self.form

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        sink = RunSink(self.form)
        for ordinal, run in enumerate(read_runs(path, self.form)):
            ctx.read()
            try:
                row = run.row()
            except RecordError as e:
                ctx.reject(str(e), run.text, line=run.line_number, record_ordinal=ordinal)
                continue
            sink.add(row, record_ordinal=ordinal, line_number=run.line_number)
            if len(sink) >= BATCH_ROWS:
                yield Batch(TABLE, sink.table())
                sink = RunSink(self.form)
        if len(sink):
            yield Batch(TABLE, sink.table())
