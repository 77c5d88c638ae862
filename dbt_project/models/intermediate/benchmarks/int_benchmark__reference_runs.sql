-- The reference library's runs (stg_benchmark__runs, source_kind reference) as the relations of
-- rpt_benchmark_relation_checks read them: each with the CPU ms of its table's SNA base run (seed 004's
-- TN3270 runs), its serial run's elapsed time (a parallel sort) and its baseline run's (a tuned APPC
-- transfer). A table of its own because the mart reads it once per relation (Spark inlines a CTE at each
-- reference: the self-joins, planned two dozen times, made the mart minutes on Spark).
with runs as (
    select
        *,
        -- the SNA base of seed 004's TN3270 table: TV1 for turbo-dispatcher runs, SV1 for standard
        max(case when run_label = 'tv1' then cpu_ms_per_transaction end) over (partition by document) as tv1_cpu_ms,
        max(case when run_label = 'sv1' then cpu_ms_per_transaction end) over (partition by document) as sv1_cpu_ms
    from {{ ref('stg_benchmark__runs') }}
    where source_kind = 'reference'
),

prepared as (
    select
        runs.*,
        case {{ json_text('runs.extra_json', "'$.base_run.value'") }} when 'TV1' then runs.tv1_cpu_ms when 'SV1' then runs.sv1_cpu_ms end as base_cpu_ms,
        serial.elapsed_s as serial_elapsed_s,
        baseline.elapsed_s as baseline_elapsed_s
    from runs
    left join runs as serial
        on serial.document = runs.document
        and serial.doc_table = runs.doc_table
        and serial.run_label = {{ json_text('runs.parameters_json', "'$.serial_run.value'") }}
    left join runs as baseline
        on baseline.document = runs.document
        and baseline.doc_table = runs.doc_table
        and baseline.run_label = {{ json_text('runs.extra_json', "'$.baseline_run.value'") }}
)

select * from prepared
