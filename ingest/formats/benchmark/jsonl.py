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

from ingest.formats.benchmark.log_reader import BenchmarkLog

PARSER = BenchmarkLog("jsonl")
