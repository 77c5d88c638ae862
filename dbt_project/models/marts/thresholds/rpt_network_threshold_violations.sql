-- The network threshold report: every interval or snapshot of the network marts that crosses a
-- network rule of the thresholds seed (entities tcpip, interface, buffer_pool, csaix_memory, host_cpu, vse_stack, vse_connection, vse_prty), with the
-- host, what was measured (stack, interface, pool), the interval, the observed value and the rule. A
-- host's own row for a rule replaces the `*` default; a rule with a source_command applies to that
-- command's rows only. A day model of the day of the interval's end (or of the snapshot): the marts it
-- reads are rebuilt for the touched days and the day after a late capture (build_touched_days).
{%- set targets = network_rule_targets() %}
{{ config(materialized='incremental', unique_key=['host', 'interval_end']) }}
with observed as (
    {{ network_observed(touched_only=true) }}
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
