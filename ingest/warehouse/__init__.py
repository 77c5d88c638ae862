"""The DuckDB warehouse of a perfdb home, one module per concern.

Two files, because DuckDB allows one read-write process or many read-only ones, never both:
``warehouse/perfdb.duckdb`` is written by ingest and dbt; ``warehouse/serving.duckdb`` is a copy that
readers (Superset, reports, ``perfdb sql``) open read-only.

    database   the writable database: opening it, the manifest (raw.ingest_files), raw.rejects, remove_files
    staging    a file's batches held in memory or spilled to Parquet, and appended to raw tables
    loading    ingest_files: parse, account, commit each file all or nothing, small files in groups
    plausibility  values no measurement can have (times, negative counters, NULL keys) as rejects
    lock       one writer per home (warehouse/perfdb.lock) and what a killed writer left behind
    faults     a full disc or a busy warehouse as one line for the user
    serving    publish (atomic rename of serving.duckdb) and the read-only connection readers use
"""
