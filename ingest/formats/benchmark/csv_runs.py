"""The perfdb benchmark log as CSV: the JSON lines fields as columns named by their path.

Sample (two of seed 000's Appendix A runs; the header names every field a row may fill)::

    format,version,study,run_label,run_date,system_under_test.platform,system_under_test.product,parameters.ru_size.value,parameters.ru_size.unit,workload.transaction_type,workload.bytes_per_transaction.value,workload.bytes_per_transaction.unit,results.elapsed.value,results.elapsed.unit,results.transactions,results.throughput.value,results.throughput.unit
    perfdb-benchmark-run,1,APPC tuning,nsdos-base,2026-02-02,DOS,NS/DOS,960,bytes,file_transfer,100000,bytes,31,s,1,0.0258,Mbit/s
    perfdb-benchmark-run,1,APPC tuning,nsdos-tuned,2026-02-03,DOS,NS/DOS,,,file_transfer,100000,bytes,0.53,s,1,1.51,Mbit/s

A quantity is two columns, ``<path>.value`` and ``<path>.unit``; a free parameter likewise
(``parameters.<name>.value`` / ``.unit``); an empty cell leaves the field out. Each row is turned back into
a record and validated exactly like a JSON line (``record.unflatten``, ``record.validate``).

Output: one row of ``raw.benchmark_runs`` per valid CSV row (``source_format`` = csv, ``line_number`` =
the file line). A row with a missing required field, a wrong unit or an unknown version goes to
raw.rejects naming its line and the field; the other rows still load. A header without the ``format``
and ``version`` columns makes the whole file unreadable.
"""

from __future__ import annotations

from ingest.formats.benchmark.log_reader import BenchmarkLog

PARSER = BenchmarkLog("csv")
