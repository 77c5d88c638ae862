"""The perfdb benchmark log in JSON lines: one run per line (docs/benchmark_format.md).

Sample (a tuned APPC file transfer like seed 000's Appendix A, and a VTAM bulk transfer measured at both
ends like seed 003's Table T1, one record per end)::

    {"format": "perfdb-benchmark-run", "version": 1, "study": "APPC tuning", "run_label": "rs6000-tuned", "run_date": "2026-02-03", "system_under_test": {"platform": "AIX", "product": "SNA Services/6000", "release": "1.2", "engines": 1}, "parameters": {"ru_size": {"value": 3840, "unit": "bytes"}, "pacing_window": {"value": 63, "unit": "RUs"}}, "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": {"value": 1000000, "unit": "bytes"}}, "results": {"elapsed": {"value": 4.74, "unit": "s"}, "transactions": 1, "throughput": {"value": 1.69, "unit": "Mbit/s"}}}
    {"format": "perfdb-benchmark-run", "version": 1, "study": "VTAM bulk", "run_label": "mpc-4m", "role": "client", "run_date": "2026-02-04", "system_under_test": {"platform": "OS/390", "product": "VTAM", "release": "V4R4", "engines": 3}, "workload": {"transaction_type": "file_transfer", "bytes_per_transaction": {"value": 4000000, "unit": "bytes"}}, "results": {"throughput": {"value": 15053724, "unit": "bytes/s"}, "cpu_utilization": {"value": 15.93, "unit": "%"}, "cpu_per_byte": {"value": 3.175e-8, "unit": "s/byte"}}}

Output: one row of ``raw.benchmark_runs`` per valid line, with the quantities converted to the columns'
units (``elapsed_s``, ``throughput_bytes_per_s``, ``cpu_pct``, ``cpu_s_per_byte``, ...), ``parameters_json``
and ``extra_json`` holding the free key/values, and ``line_number``. A line that is not a JSON object,
names an unknown version, misses a required field or gives a unit of the wrong kind goes to raw.rejects
with its line and the field; the other runs of the file still load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from ingest.formats.base import BATCH_ROWS, Batch, ParseContext
from ingest.formats.benchmark.record import FORMAT_NAME, RUNS, TABLE, RecordError, RunSink, validate


class BenchmarkJsonLines:
    format = "benchmark.jsonl"
    version = "1"
    priority = 30  # before the generic text formats
    tables = (RUNS,)

    def sniff(self, head: bytes, name: str) -> bool:
        text = head.decode("utf-8", "replace").lstrip("\ufeff")
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        return first.lstrip().startswith("{") and FORMAT_NAME in first

    def parse(self, path: Path, ctx: ParseContext) -> Iterator[Batch]:
        sink = RunSink("jsonl")
        ordinal = 0
        with path.open("r", encoding="utf-8", errors="replace", newline="") as f:
            for line_number, line in enumerate(f, start=1):
                text = line.strip().lstrip("\ufeff")
                if not text:
                    continue
                ctx.read()
                try:
                    try:
                        record = json.loads(text)
                    except json.JSONDecodeError as e:
                        raise RecordError("(record)", f"expected a JSON object: {e.msg} at column {e.colno}") from None
                    row = validate(record)
                except RecordError as e:
                    ctx.reject(str(e), text, line=line_number, record_ordinal=ordinal)
                else:
                    sink.add(row, record_ordinal=ordinal, line_number=line_number)
                    if len(sink) >= BATCH_ROWS:
                        yield Batch(TABLE, sink.table())
                        sink = RunSink("jsonl")
                ordinal += 1
        if len(sink):
            yield Batch(TABLE, sink.table())


PARSER = BenchmarkJsonLines()
