"""The perfdb benchmark log as CSV: the JSON lines fields as columns named by their path.

Sample (two of seed 000's Appendix A runs; the header names every field a row may fill)::

    format,version,study,run_label,run_date,system_under_test.platform,system_under_test.product,parameters.ru_size.value,parameters.ru_size.unit,workload.transaction_type,workload.bytes_per_transaction.value,workload.bytes_per_transaction.unit,results.elapsed.value,results.elapsed.unit,results.transactions,results.throughput.value,results.throughput.unit
    perfdb-benchmark-run,1,APPC tuning,nsdos-base,2026-02-02,DOS,NS/DOS,960,bytes,file_transfer,100000,bytes,31,s,1,0.0258,Mbit/s
    perfdb-benchmark-run,1,APPC tuning,nsdos-tuned,2026-02-03,DOS,NS/DOS,,,file_transfer,100000,bytes,0.53,s,1,1.51,Mbit/s

A quantity is two columns, ``<path>.value`` and ``<path>.unit``; a free parameter likewise
(``parameters.<name>.value`` / ``.unit``); an empty cell leaves the field out. Each row is turned back into
a record and validated exactly like a JSON line (``record.validate``).

Output: one row of ``raw.benchmark_runs`` per valid CSV row (``source_format`` = csv, ``line_number`` =
the file line). A row with a missing required field, a wrong unit or an unknown version goes to
raw.rejects naming its line and the field; the other rows still load. A header without the ``format``
and ``version`` columns makes the whole file unreadable.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Iterator

from ingest.formats.base import BATCH_ROWS, Batch, FormatError, ParseContext
from ingest.formats.benchmark.record import FORMAT_NAME, RUNS, TABLE, RecordError, RunSink, unflatten, validate

REQUIRED_COLUMNS = ("format", "version")


class BenchmarkCsv:
    format = "benchmark.csv"
    version = "1"
    priority = 30  # before measure.csv, which would take any CSV with a header
    tables = (RUNS,)

    def sniff(self, head: bytes, name: str) -> bool:
        text = head.decode("utf-8", "replace").lstrip("\ufeff")
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) < 1:
            return False
        header = [h.strip() for h in next(csv.reader(io.StringIO(lines[0])))]
        return "format" in header and "version" in header and "run_label" in header and (
            len(lines) < 2 or FORMAT_NAME in lines[1]
        )

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        sink = RunSink("csv")
        with path.open("r", encoding="utf-8", errors="replace", newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise FormatError("expected a CSV header naming the benchmark fields", line=1)
            header = [h.strip().lstrip("\ufeff") for h in header]
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise FormatError(f"the header lacks the column(s) {', '.join(missing)}: expected a perfdb "
                                  f"benchmark CSV (docs/benchmark_format.md)", line=1)
            duplicated = sorted({h for h in header if header.count(h) > 1})
            if duplicated:
                raise FormatError(f"the header repeats the column(s) {', '.join(duplicated)}", line=1)
            ordinal = 0
            for row in reader:
                line_number = reader.line_num
                if not any(cell.strip() for cell in row):
                    continue
                ctx.read()
                raw = ",".join(row)
                try:
                    if len(row) != len(header):
                        raise RecordError("(row)", f"expected {len(header)} columns as the header names, found {len(row)}")
                    run = validate(unflatten(dict(zip(header, row))), from_text=True)
                except RecordError as e:
                    ctx.reject(str(e), raw, line=line_number, record_ordinal=ordinal)
                else:
                    sink.add(run, record_ordinal=ordinal, line_number=line_number)
                    if len(sink) >= BATCH_ROWS:
                        yield Batch(TABLE, sink.table())
                        sink = RunSink("csv")
                ordinal += 1
        if len(sink):
            yield Batch(TABLE, sink.table())


PARSER = BenchmarkCsv()
