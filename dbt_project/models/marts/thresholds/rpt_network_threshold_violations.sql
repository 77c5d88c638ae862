-- The network threshold report: every interval or snapshot of the network marts that crosses a
-- network rule of the thresholds seed (entities tcpip, interface, buffer_pool, vse_stack), with the
-- host, what was measured (stack, interface, pool), the interval, the observed value and the rule. A
-- host's own row for a rule replaces the `*` default; a rule with a source_command applies to that
-- command's rows only. A day model of the day of the interval's end (or of the snapshot): the marts it
-- reads are rebuilt for the touched days and the day after a late capture (build_touched_days).
{%- set targets = network_rule_targets() %}
{#- (entity, mart columns, metric, the expression it reads): a flag reads as 1 or 0 -#}
{%- set observations = [] %}
{%- for entity, target in targets.items() %}
    {%- for metric in target.metrics %}
        {%- do observations.append((entity, target, metric, metric)) %}
    {%- endfor %}
    {%- for metric, flag in target.flags.items() %}
        {%- do observations.append((entity, target, metric, 'case when ' ~ flag ~ ' then 1 else 0 end')) %}
    {%- endfor %}
{%- endfor %}
{{ config(materialized='incremental', unique_key=['host', 'interval_end']) }}
with observed as (
    {%- for entity, target, metric, expression in observations %}
    select
        '{{ entity }}' as rule_entity,
        host,
        {{ target.command }} as source_command,
        {{ target.entity }} as entity,
        {{ target.start }} as interval_start,
        {{ target.end }} as interval_end,
        '{{ metric }}' as metric,
        cast({{ expression }} as double) as observed_value
    from {{ ref(target.mart) }}
    where {{ touched('host', target.end, 'day') }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

hosts as (
    select distinct host as system_name from observed
),

rules as (
    {{ effective_thresholds(targets.keys() | list, 'hosts') }}
)

select
    rules.rule_id,
    rules.severity,
    observed.host,
    observed.source_command,
    observed.entity,
    observed.interval_start,
    observed.interval_end,
    observed.metric,
    observed.observed_value,
    rules.operator,
    rules.limit_value,
    rules.rule,
    rules.source
from observed
inner join rules
    on rules.system_name = observed.host
    and rules.entity = observed.rule_entity
    and rules.metric = observed.metric
    and (rules.source_command = '*' or rules.source_command = observed.source_command)
where {{ crosses('observed.observed_value', 'rules.operator', 'rules.limit_value') }}
