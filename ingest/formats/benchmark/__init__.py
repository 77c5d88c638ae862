"""Benchmark runs: the perfdb benchmark log (JSON lines or the same columns as CSV) and APPC APING output.

All three parsers load ``raw.benchmark_runs``, one row per run; ``record`` holds the run model they share
(fields, units, validation, the Arrow table). The format is documented in ``docs/benchmark_format.md``
with its JSON Schema in ``schema/benchmark-run.v1.json``.
"""
