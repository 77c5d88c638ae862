"""The raw layer as a Parquet lake, parsed and modelled on Apache Spark (``--target spark``).

    <lake>/raw/<table>/system=<system>/day=<yyyy-mm-dd>/<file>.parquet   the raw tables (layout.py)
    <lake>/raw/ingest_files/<sha256>.parquet, <lake>/raw/rejects/...      the manifest and the rejects
    <lake>/warehouse/<schema>.db/<table>/                                 what dbt-spark builds
    <lake>/metastore_db                                                   Spark's catalog (embedded Derby)

``job`` is the distributed ingest (``ingest.intake``, the DuckDB loader's intake too, in Spark tasks),
``writer`` lays one parsed file into the lake, ``built`` copies what dbt built on Spark into a DuckDB file
that the checks validate and ``publish`` makes ``serving.duckdb``.
"""
