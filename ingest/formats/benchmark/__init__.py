"""Benchmark runs: the perfdb benchmark log (JSON lines or the same columns as CSV) and APPC APING output.

All three parsers load ``raw.benchmark_runs``, one row per run. The run's fields are declared once, in the
JSON Schema ``schema/benchmark-run.v1.json`` (``run_schema`` reads it); ``record`` turns a record into a
row, ``log_reader`` reads both forms of the log (for the parsers and the configuration checker). The
format is documented in ``docs/benchmark_format.md``.
"""
