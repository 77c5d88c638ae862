-- A site's TCP/IP for VSE file transfer runs read the way the document reads its FTP rates:
--   004-bR25 (L4884-L4900): the File I/O rate TCP/IP for VSE displays beside the transfer rate ("Transfer
--     sec: 20.93 (524 KB/sec)", "File I/O sec: 11.76 (954 KB/sec)", L4875). A File I/O rate very close to the
--     transfer rate means the disk determines the FTP rate: the rule fires when File I/O rate / transfer
--     rate is below its limit (how close is "very close": ours).
--   004-bR26 (L4776-L4784): a transfer without TCP/IP against the EDRs the document reports for it,
--     IND$FILE 30 to 50 KB/s and LANRES/VSE 100 to 200 KB/s: the rule fires when the run's EDR is below
--     the low end of its product's range (EDR / low end below the limit 1).
-- One row per run and rule; a run's method (parameters.method) names IND$FILE or LANRES/VSE, its File I/O
-- rate is results.extra.file_io_rate in KB/s.
with runs as (
    select
        run_key,
        study,
        run_label,
        throughput_kb_per_s,
        {{ json_text('parameters_json', "'$.method.value'") }} as method,
        case when {{ json_text('extra_json', "'$.file_io_rate.unit'") }} = 'KB/s'
            then cast({{ json_text('extra_json', "'$.file_io_rate.value'") }} as double)
        end as file_io_kb_per_s
    from {{ ref('fct_benchmark_run') }}
    where source_kind = 'user'
        and sut_platform like 'VSE%'
        and throughput_kb_per_s > 0
),

measured as (
    select
        '004-bR25' as rule_id,
        run_key,
        study,
        run_label,
        method,
        throughput_kb_per_s,
        file_io_kb_per_s as compared_kb_per_s,
        file_io_kb_per_s / throughput_kb_per_s as metric_value
    from runs
    where file_io_kb_per_s is not null
    union all
    select
        '004-bR26' as rule_id,
        runs.run_key,
        runs.study,
        runs.run_label,
        runs.method,
        runs.throughput_kb_per_s,
        baseline.low_kb_per_s as compared_kb_per_s,
        runs.throughput_kb_per_s / baseline.low_kb_per_s as metric_value
    from runs
    inner join (
        select 'IND$FILE' as method, 30.0 as low_kb_per_s
        union all
        select 'LANRES/VSE' as method, 100.0 as low_kb_per_s
    ) as baseline
        on baseline.method = runs.method
),

rules as (
    select rule_id, metric, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('thresholds') }}
    where rule_id in ('004-bR25', '004-bR26') and system_name = '*'
),

compared as (
    select measured.*, rules.metric, rules.operator, rules.limit_value
    from measured
    inner join rules on rules.rule_id = measured.rule_id
)

select
    *,
    study as system_name,
    coalesce({{ crosses('metric_value', 'operator', 'limit_value') }}, false) as fired
from compared
