-- Per system, whether its baseline model (rpt_capacity_baseline_validation) reproduces the measured
-- processor busy of the average workday within 5 %: Evans's condition before a model's projections are
-- trusted ("If the model doesn't match to within 5% or less, a check of the input data is made",
-- seed 001 L1817). The processors' utilizations are "the key indicators" (L1817), so they alone decide
-- baseline_validated: each processor's mean absolute error over the hours of the average day is
-- within 5 %. The hours beyond 5 % are counted, and the worst is shown, but one hour off by the noise
-- of a few processes does not fail a model whose day agrees; a workload characterized wrongly (a cost
-- per transaction that changes through the day, work left out) is off in most hours. Queue lengths
-- and throughput, "other items of interest" (L1819), are counted beside, and the note says when they miss
-- on average: a model whose queues are off by more than 5 % validates the utilizations a what-if projects
-- but not the queue lengths or response times read from it. The what-if marts by workload and by driver
-- carry baseline_validated and baseline_note (macros/whatif.sql).
{#- The mean of a column of rpt_capacity_baseline_validation (4 decimals) summed as whole 1/10000ths:
    a sum of doubles depends on the order DuckDB's threads add them in, and the mean of 4-decimal values
    often ends in a 5 exactly, so rounding it would flip between two builds of the same rows. -#}
{%- set exact_mean_abs = "round(sum(cast(round(abs(X) * 10000) as bigint)) / (10000.0 * count(X)), 4)" %}

with rows as (
    select * from {{ ref('rpt_capacity_baseline_validation') }}
),

processors as (
    select
        system_name,
        resource_name,
        {{ exact_mean_abs | replace('X', 'busy_error_pct') }} as mean_abs_busy_error_pct
    from rows
    group by system_name, resource_name
),

off as (
    -- each system's processors whose day the model misses by more than 5 %
    select
        system_name,
        {{ dbt.listagg('resource_name', "', '", 'order by resource_name') }} as processors_off
    from processors
    where mean_abs_busy_error_pct > 5
    group by system_name
),

systems as (
    select
        max(rows.platform) as platform,
        rows.system_name,
        min(rows.hour_of_day) as first_hour,
        max(rows.hour_of_day) as last_hour,
        max(rows.baseline_days) as baseline_days,
        count(distinct rows.cpu_num) as processors,
        count(*) as processor_hours,
        count(case when rows.busy_within_5pct then 1 end) as busy_within_5pct_hours,
        round(max(abs(rows.busy_error_pct)), 4) as max_abs_busy_error_pct,
        count(rows.measured_qlen) as qlen_hours,
        count(case when rows.qlen_within_5pct then 1 end) as qlen_within_5pct_hours,
        {{ exact_mean_abs | replace('X', 'rows.qlen_error_pct') }} as mean_abs_qlen_error_pct,
        count(rows.measured_transactions_per_s) as throughput_hours,
        count(case when rows.throughput_within_5pct then 1 end) as throughput_within_5pct_hours,
        {{ exact_mean_abs | replace('X', 'rows.throughput_error_pct') }} as mean_abs_throughput_error_pct
    from rows
    group by rows.system_name
),

worst as (
    select system_name, max(mean_abs_busy_error_pct) as worst_processor_mean_abs_busy_error_pct
    from processors
    group by system_name
)

select
    systems.*,
    worst.worst_processor_mean_abs_busy_error_pct,
    worst.worst_processor_mean_abs_busy_error_pct <= 5 as baseline_validated,
    -- the rule of the rules catalogue this verdict evaluates (Evans, "should match ... to within 5%", L1819),
    -- fired when the model is off: rpt_rule_status counts a system as one evaluation (diagnostic_models())
    '001-b6.4-4' as rule_id,
    worst.worst_processor_mean_abs_busy_error_pct > 5 as fired,
    case
        when worst.worst_processor_mean_abs_busy_error_pct <= 5 then
            'baseline model within 5 % of the measured busy of every processor over the average workday'
            || ' (worst processor ' || cast(worst.worst_processor_mean_abs_busy_error_pct as string)
            || ' % on average; ' || cast(systems.busy_within_5pct_hours as string) || ' of '
            || cast(systems.processor_hours as string) || ' processor-hours within 5 %)'
        else
            'baseline model off by more than 5 % of the measured busy of ' || off.processors_off
            || ' over the average workday (worst ' || cast(worst.worst_processor_mean_abs_busy_error_pct as string)
            || ' % on average): check the workload definitions and the cost per transaction of each'
            || ' workload before trusting a what-if'
    end
    || case when systems.mean_abs_qlen_error_pct > 5 then
        '; its queue lengths are off by ' || cast(systems.mean_abs_qlen_error_pct as string) || ' % on average ('
        || cast(systems.qlen_within_5pct_hours as string) || ' of ' || cast(systems.qlen_hours as string)
        || ' processor-hours within 5 %): do not read queue lengths or response times from it'
    else '' end
    || case when systems.mean_abs_throughput_error_pct > 5 then
        '; its throughputs are off by ' || cast(systems.mean_abs_throughput_error_pct as string) || ' % on average ('
        || cast(systems.throughput_within_5pct_hours as string) || ' of ' || cast(systems.throughput_hours as string)
        || ' processor-hours within 5 %)'
    else '' end as baseline_note
from systems
inner join worst
    on worst.system_name = systems.system_name
left join off
    on off.system_name = systems.system_name
