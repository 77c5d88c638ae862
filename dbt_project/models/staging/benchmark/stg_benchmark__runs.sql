-- Every benchmark run, the user's (raw.benchmark_runs) and the documents' published results (the
-- reference seeds), in one shape so marts compare them. User runs loaded twice (the same run in two
-- files) keep the copy of the latest file. run_key identifies a run.
-- A table on Spark: rpt_benchmark_relation_checks reads it in some 75 places, and Spark, unlike DuckDB,
-- would scan the raw table and the five seeds again for each of them.
{{ config(materialized='table' if target.type == 'spark' else 'view') }}

{%- set run_columns = [
    'study', 'run_label', 'role', 'run_date', 'sut_platform', 'sut_product', 'sut_release',
    'sut_service_level', 'sut_processor_model', 'sut_engines', 'sut_mips_per_engine', 'transaction_type',
    'bytes_per_transaction', 'users', 'think_time_s', 'sessions', 'repetitions', 'elapsed_s', 'transactions',
    'transactions_per_s', 'throughput_bytes_per_s', 'cpu_pct', 'cpu_s', 'cpu_ms_per_transaction',
    'cpu_s_per_byte', 'ki_per_kb', 'response_time_s', 'response_time_pctl_s', 'response_pctl', 'itr_per_s',
    'parameters_json', 'extra_json',
] %}
{%- set reference_seeds = [
    'reference_runs_000_appc_tuning', 'reference_runs_001_tandem_review',
    'reference_runs_002_csaix_performance', 'reference_runs_003_vtam_hpr', 'reference_runs_004_vse_tcpip',
] %}

with user_runs as (
    select
        *,
        row_number() over (
            partition by study, run_label, role, run_date, started_at
            order by source_file_id desc, record_ordinal desc
        ) as copy_number
    from {{ source('benchmark', 'benchmark_runs') }}
),

user_rows as (
    select
        'user:' || study || ':' || run_label || ':' || coalesce(role, '') || ':' || cast(run_date as string)
            || coalesce(':' || cast(started_at as string), '') as run_key,
        'user' as source_kind,
        cast(null as string) as document,
        cast(null as string) as doc_table,
        cast(null as integer) as line_start,
        cast(null as integer) as line_end,
        source_file_id,
        line_number,
        source_format,
        started_at,
        {%- for column in run_columns %}
        {{ column }},
        {%- endfor %}
        provenance_source,
        tool,
        note,
        cast(null as string) as printed_values,
        cast(null as string) as known_exception,
        cast(null as string) as exception_note
    from user_runs
    where copy_number = 1
),

{% for seed in reference_seeds %}
{{ seed }} as (
    select
        'ref:' || document || ':' || doc_table || ':' || run_label || ':' || coalesce(role, '') as run_key,
        'reference' as source_kind,
        document,
        doc_table,
        line_start,
        line_end,
        cast(null as bigint) as source_file_id,
        cast(null as bigint) as line_number,
        'reference_seed' as source_format,
        cast(null as timestamp) as started_at,
        {%- for column in run_columns %}
        {{ column }},
        {%- endfor %}
        'seed ' || document || ', ' || doc_table || ', lines ' || cast(line_start as string)
            || case when line_end <> line_start then '-' || cast(line_end as string) else '' end as provenance_source,
        cast(null as string) as tool,
        cast(null as string) as note,
        printed_values,
        known_exception,
        exception_note
    from {{ ref(seed) }}
),
{% endfor %}

reference_rows as (
    {%- for seed in reference_seeds %}
    select * from {{ seed }}{% if not loop.last %} union all{% endif %}
    {%- endfor %}
)

-- both sides list the same columns in the same order (a positional union runs on every engine)
select * from user_rows
union all
select * from reference_rows
