-- Every threshold crossing of every domain, one row per crossed rule: the system (the host for
-- network rows), the entity, the interval, the observed value and the rule with its source. Issue 4
-- wants the seeds' network rules "in the same threshold report and mart as the CPU rules"; King 1986
-- wants the Figure 9 query run "for process, disk, line, and USERDEF data" too (L2119).
--   cpu      the Figure 1 mart (rpt_threshold_violations), one row per rule in rules_crossed, with
--            the value of its fct_cpu_shift column
--   disc     fct_disc_shift and fct_line_shift against the `disc` and `line` rules, the same way
--   line
--   network  rpt_network_threshold_violations as it is
-- The `busy_process` rules select the processes of rpt_busy_process; they are not alarms, so they
-- have no rows here. A shift's interval runs from its first measured hour to the end of its last.
{%- set cpu_keys = ['system_name', 'shift_date', 'shift', 'cpu_num'] %}
{%- set device_keys = ['system_name', 'device_name', 'shift_date', 'shift'] %}
with cpu_crossed as (
    select
        {{ cpu_keys | join(', ') }},
        unnest(rules_crossed) as metric
    from {{ ref('rpt_threshold_violations') }}
),

cpu_shifts as (
    select shifts.*
    from {{ ref('fct_cpu_shift') }} as shifts
    inner join {{ ref('rpt_threshold_violations') }} as violations
        {%- for key in cpu_keys %}
        {{ 'on' if loop.first else 'and' }} violations.{{ key }} = shifts.{{ key }}
        {%- endfor %}
),

cpu_values as (
    {{ unpivot_metrics('cpu_shifts', cpu_keys, cpu_shift_columns()) }}
),

cpu_rules as (
    {{ effective_thresholds('cpu', 'cpu_shifts') }}
),

cpu_hours as (
    select
        {{ cpu_keys | join(', ') }},
        min(hour_start) as interval_start,
        {{ dbt.dateadd('hour', 1, 'max(hour_start)') }} as interval_end
    from {{ ref('int_cpu__hourly') }}
    where shift is not null
    group by {{ cpu_keys | join(', ') }}
),

cpu_exceptions as (
    select
        'cpu' as domain,
        crossed.system_name,
        'cpu ' || cast(crossed.cpu_num as varchar) as entity,
        cast(null as varchar) as source_command,
        crossed.shift_date as exception_date,
        crossed.shift,
        hours.interval_start,
        hours.interval_end,
        rules.rule_id,
        rules.severity,
        rules.rule,
        crossed.metric,
        measured.metric_value as observed_value,
        rules.operator,
        rules.limit_value,
        rules.source
    from cpu_crossed as crossed
    inner join cpu_values as measured
        {%- for key in cpu_keys + ['metric'] %}
        {{ 'on' if loop.first else 'and' }} measured.{{ key }} = crossed.{{ key }}
        {%- endfor %}
    inner join cpu_rules as rules
        on rules.system_name = crossed.system_name
        and rules.metric = crossed.metric
    inner join cpu_hours as hours
        {%- for key in cpu_keys %}
        {{ 'on' if loop.first else 'and' }} hours.{{ key }} = crossed.{{ key }}
        {%- endfor %}
),

{%- for entity, target in shift_rule_targets().items() %}

{{ entity }}_shifts as (
    select * from {{ ref(target.fact) }}
),

{{ entity }}_values as (
    {{ unpivot_metrics(entity ~ '_shifts', device_keys, target.metrics) }}
),

{{ entity }}_rules as (
    {{ effective_thresholds(entity, entity ~ '_shifts') }}
),

{{ entity }}_hours as (
    select
        {{ device_keys | join(', ') }},
        min(hour_start) as interval_start,
        {{ dbt.dateadd('hour', 1, 'max(hour_start)') }} as interval_end
    from {{ ref(target.hourly) }}
    where shift is not null
    group by {{ device_keys | join(', ') }}
),

{{ entity }}_exceptions as (
    select
        '{{ entity }}' as domain,
        measured.system_name,
        measured.device_name as entity,
        cast(null as varchar) as source_command,
        measured.shift_date as exception_date,
        measured.shift,
        hours.interval_start,
        hours.interval_end,
        rules.rule_id,
        rules.severity,
        rules.rule,
        measured.metric,
        measured.metric_value as observed_value,
        rules.operator,
        rules.limit_value,
        rules.source
    from {{ entity }}_values as measured
    inner join {{ entity }}_rules as rules
        on rules.system_name = measured.system_name
        and rules.metric = measured.metric
    inner join {{ entity }}_hours as hours
        {%- for key in device_keys %}
        {{ 'on' if loop.first else 'and' }} hours.{{ key }} = measured.{{ key }}
        {%- endfor %}
    where {{ crosses('measured.metric_value', 'rules.operator', 'rules.limit_value') }}
),
{%- endfor %}

network_exceptions as (
    select
        'network' as domain,
        host as system_name,
        -- Linux and TCP/IP for VSE have one stack per host, so their rows name no entity
        coalesce(entity, 'TCP/IP stack') as entity,
        source_command,
        cast(interval_end as date) as exception_date,
        cast(null as integer) as shift,
        interval_start,
        interval_end,
        rule_id,
        severity,
        rule,
        metric,
        observed_value,
        operator,
        limit_value,
        source
    from {{ ref('rpt_network_threshold_violations') }}
)

select * from cpu_exceptions
{%- for entity in shift_rule_targets() %}
union all
select * from {{ entity }}_exceptions
{%- endfor %}
union all
select * from network_exceptions
