-- Each benchmark run beside the same run on the release before it (seed 003's V4R3 and V4R4 pairs: the same
-- study, printed row and end, the same label but for its release), with the change of CPU per unit of work
-- and of throughput, each against its rule of the rules catalogue: 003-VT-RG-01 (CPU per unit up more than
-- 5 %: L384, L461, L589, L610) and 003-VT-RG-02 (throughput down more than 5 %: L381, L428), one row per pair
-- and rule. CPU per unit is CPU per byte, else per transaction, else the run's CPU seconds; throughput is
-- bytes per second, else transactions per second, else 1 / elapsed seconds (the 50K network runs).
with runs as (
    select
        *,
        -- the label without its release: V4R3's `43-hpr-1000` is V4R4's `44-hpr-1000`, `...-v4r3` is `...-v4r4`
        case
            when run_label like '43-%' then '44-' || substr(run_label, 4)
            else replace(lower(run_label), 'v4r3', 'v4r4')
        end as release_free_label,
        coalesce(cpu_s_per_byte, cpu_ms_per_transaction, cpu_s) as cpu_per_unit,
        coalesce(throughput_bytes_per_s, etr_per_s, 1 / nullif(elapsed_s, 0)) as throughput
    from {{ ref('fct_benchmark_run') }}
    where sut_release is not null
),

pairs as (
    select
        new.run_key,
        old.run_key as previous_run_key,
        new.document,
        new.study,
        new.line_start,
        new.role,
        new.run_label,
        old.run_label as previous_run_label,
        old.sut_release as previous_release,
        new.sut_release as release,
        new.cpu_per_unit / nullif(old.cpu_per_unit, 0) - 1 as cpu_change,
        new.throughput / nullif(old.throughput, 0) - 1 as throughput_change
    from runs as new
    inner join runs as old
        on old.study = new.study
        and old.line_start = new.line_start
        and old.role is not distinct from new.role
        and old.release_free_label = new.release_free_label
        and old.sut_release = 'V4R3'
        and new.sut_release = 'V4R4'
),

rules as (
    select rule_id, metric, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('thresholds') }}
    where rule_id in ('003-VT-RG-01', '003-VT-RG-02') and system_name = '*'
),

compared as (
    select pairs.*, rules.rule_id, rules.metric, rules.operator, rules.limit_value,
        case rules.metric when 'cpu_change' then pairs.cpu_change else pairs.throughput_change end as change
    from pairs
    inner join rules
        on rules.metric in ('cpu_change', 'throughput_change')
)

select
    rule_id,
    study as system_name,
    run_key,
    previous_run_key,
    document,
    study,
    line_start,
    role,
    run_label,
    previous_run_label,
    previous_release,
    release,
    metric,
    change,
    limit_value,
    coalesce({{ crosses('change', 'operator', 'limit_value') }}, false) as fired
from compared
where change is not null
