-- Issue 28: capacity thresholds set on the p95 of a month's hours instead of its busiest hour. Each processor,
-- disc and line of fct_busy_percentiles_monthly with its busy p95 beside avg and max, the available capacity of
-- reference_capacity_thresholds (the processor type's row, else the resource type's `*` row) and the grade of
-- the p95 and of the max in its bands (macros/capacity_grades.sql): a month whose max is critical while its
-- p95 is within capacity had a few busy hours, one whose p95 is critical was busy most of the time.
-- A processor's type is the one its month's shifts last recorded (fct_cpu_monthly, kept when the hours are not).
{%- set resource_types = {'cpu_busy': 'cpu', 'disc_busy': 'disc', 'line_busy': 'line'} %}
with months as (
    select
        percentiles.system_name,
        case percentiles.resource
            {%- for resource, resource_type in resource_types.items() %}
            when '{{ resource }}' then '{{ resource_type }}'
            {%- endfor %}
        end as resource_type,
        percentiles.entity as resource_name,
        percentiles.month,
        processors.cpu_type,
        percentiles.n_hours,
        percentiles.value_avg as busy_pct_avg,
        percentiles.value_max as busy_pct_max,
        percentiles.p95 as busy_pct_p95
    from {{ ref('fct_busy_percentiles_monthly') }} as percentiles
    left join (
        select system_name, {{ dbt.cast('cpu_num', dbt.type_string()) }} as resource_name, month, max(cpu_type) as cpu_type
        from {{ ref('fct_cpu_monthly') }}
        group by system_name, cpu_num, month
    ) as processors
        on percentiles.resource = 'cpu_busy'
        and processors.system_name = percentiles.system_name
        and processors.resource_name = percentiles.entity
        and processors.month = percentiles.month
    where percentiles.resource in ('{{ resource_types.keys() | join("', '") }}')
)

select
    months.*,
    {{ capacity_threshold('capacity_lower_pct') }} as capacity_lower_pct,
    {{ capacity_threshold('capacity_upper_pct') }} as capacity_upper_pct,
    {{ capacity_grade('months.busy_pct_p95', capacity_threshold('capacity_lower_pct'), capacity_threshold('capacity_upper_pct')) }} as p95_grade,
    {{ capacity_grade('months.busy_pct_max', capacity_threshold('capacity_lower_pct'), capacity_threshold('capacity_upper_pct')) }} as max_grade
from months
{{ capacity_threshold_join('months') }}
