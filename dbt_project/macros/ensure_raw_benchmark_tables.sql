{#-
    raw.benchmark_runs as the benchmark parsers write it (ingest/formats/benchmark/record.py,
    ARROW_COLUMNS; docs/benchmark_format.md): one row per run.

    ensure_raw_benchmark_tables() creates the table when no benchmark log was ingested yet, so
    stg_benchmark__runs compiles on a fresh warehouse, and adds any column an older table lacks.
    The statements are idempotent and only add things.
-#}

{% macro raw_benchmark_run_columns() %}
    {{ return([
        ('source_file_id', 'bigint'),
        ('record_ordinal', 'bigint'),
        ('line_number', 'bigint'),
        ('source_format', 'varchar'),
        ('format_version', 'integer'),
        ('study', 'varchar'),
        ('run_label', 'varchar'),
        ('run_date', 'date'),
        ('started_at', 'timestamp'),
        ('role', 'varchar'),
        ('sut_platform', 'varchar'),
        ('sut_product', 'varchar'),
        ('sut_release', 'varchar'),
        ('sut_service_level', 'varchar'),
        ('sut_processor_model', 'varchar'),
        ('sut_engines', 'integer'),
        ('sut_mips_per_engine', 'double'),
        ('transaction_type', 'varchar'),
        ('bytes_per_transaction', 'double'),
        ('users', 'bigint'),
        ('think_time_s', 'double'),
        ('sessions', 'bigint'),
        ('repetitions', 'bigint'),
        ('elapsed_s', 'double'),
        ('transactions', 'double'),
        ('transactions_per_s', 'double'),
        ('throughput_bytes_per_s', 'double'),
        ('cpu_pct', 'double'),
        ('cpu_s', 'double'),
        ('cpu_ms_per_transaction', 'double'),
        ('cpu_s_per_byte', 'double'),
        ('ki_per_kb', 'double'),
        ('response_time_s', 'double'),
        ('response_time_pctl_s', 'double'),
        ('response_pctl', 'double'),
        ('itr_per_s', 'double'),
        ('parameters_json', 'varchar'),
        ('extra_json', 'varchar'),
        ('provenance_source', 'varchar'),
        ('measured_by', 'varchar'),
        ('tool', 'varchar'),
        ('note', 'varchar'),
    ]) }}
{% endmacro %}

{% macro ensure_raw_benchmark_tables() %}
    {{ return(create_raw_tables({'benchmark_runs': raw_benchmark_run_columns()})) }}
{% endmacro %}
