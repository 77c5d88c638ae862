"""The DuckDB warehouse of a perfdb home, one module per concern.

Two files, because DuckDB allows one read-write process or many read-only ones, never both:
``warehouse/perfdb.duckdb`` is written by ingest and dbt; ``warehouse/serving.duckdb`` is a copy that
readers (Superset, reports, ``perfdb sql``) open read-only.

    database   the writable database: opening it, the manifest (raw.ingest_files), raw.rejects, remove_files
    staging    a file's staged batches appended to raw tables
    loading    ingest_files: each file read (``ingest.intake``) and committed all or nothing, small files in groups
    lock       one writer per home (warehouse/perfdb.lock) and what a killed writer left behind
    serving    publish (atomic rename of serving.duckdb) and the read-only connection readers use
"""
