-- King 1986, Fig. 9 -> Fig. 1, the daily threshold report: one row per system, shift date, shift and
-- processor whose shift values cross any `cpu` rule of the thresholds seed, with the Fig. 1 columns,
-- one flag per Fig. 9 rule and rules_crossed (every crossed rule, in column order). Rules compare
-- the unrounded values; TIME OF DAY is the start of the shift's first measured hour, the
-- MIN(FROM-TIME) of Fig. 9.
{%- set figure_9_metrics = ['qlen_max', 'qlen_spread_across_hours', 'swaps_per_s_max', 'busy_pct_max',
                            'busy_pct_spread_across_hours', 'ibusy_pct_max'] %}
{%- set keys = ['system_name', 'shift_date', 'shift', 'cpu_num'] %}
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
with shifts as (
    {{ touched_rows(ref('fct_cpu_shift'), 'system_name', 'shift_date', 'shift_date') }}
),

rules as (
    {{ effective_thresholds('cpu', 'shifts') }}
),

measures as (
    {{ unpivot_metrics('shifts', keys, cpu_shift_columns()) }}
),

evaluated as (
    select
        measures.*,
        {{ crosses('measures.metric_value', 'rules.operator', 'rules.limit_value') }} as crossed
    from measures
    inner join rules
        on rules.system_name = measures.system_name
        and rules.metric = measures.metric
),

violations as (
    select
        {{ keys | join(', ') }},
        {%- for metric in figure_9_metrics %}
        coalesce(bool_or(crossed) filter (where metric = '{{ metric }}'), false) as crossed_{{ metric }},
        {%- endfor %}
        {{ ordered_array_agg('metric', 'metric_order', 'crossed') }} as rules_crossed
    from evaluated
    group by {{ keys | join(', ') }}
    having bool_or(crossed)
)

select
    shifts.system_name,
    shifts.shift_date,
    shifts.shift,
    shifts.shift_name,
    shifts.os_version,
    shifts.cpu_num,
    {{ time_of_day('shifts.first_hour_start') }} as time_of_day,
    shifts.qlen_max,
    shifts.qlen_spread_across_hours,
    shifts.swaps_per_s_max,
    shifts.busy_pct_max,
    shifts.busy_pct_spread_across_hours,
    shifts.ibusy_pct_max,
    shifts.qlen_avg,
    shifts.swaps_per_s_avg,
    shifts.busy_pct_avg,
    shifts.ibusy_pct_avg,
    shifts.n_hours,
    {%- for metric in figure_9_metrics %}
    violations.crossed_{{ metric }},
    {%- endfor %}
    violations.rules_crossed
from violations
inner join shifts using ({{ keys | join(', ') }})
