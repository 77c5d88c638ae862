-- The network threshold report: every interval or snapshot of the network marts that crosses a rule
-- of the network_thresholds seed, with the host, what was measured (stack, interface, pool), the
-- interval, the observed value and the rule. A host's own row for a rule replaces the `*` default;
-- a rule with a source_command applies to that command's rows only.
{%- set marts = {
    'fct_tcpip_interval': {
        'entity': 'stack_name', 'source': 'command', 'start': 'interval_start', 'end': 'interval_end',
        'metrics': {'retransmitted_pct': 'retransmitted_pct'},
    },
    'fct_interface_interval': {
        'entity': 'interface_name', 'source': 'command', 'start': 'interval_start', 'end': 'interval_end',
        'metrics': {'error_pct': 'error_pct', 'drop_pct': 'drop_pct'},
    },
    'fct_buffer_pool_snapshot': {
        'entity': 'pool_name', 'source': 'source_command', 'start': 'previous_captured_at', 'end': 'captured_at',
        'metrics': {
            'requests_failed_count': 'requests_failed_count',
            'requests_delayed_count': 'requests_delayed_count',
            'throttle_status': 'throttle_status',
            'congested_flag': 'case when is_congested then 1 else 0 end',
            'was_congested_flag': 'case when was_congested then 1 else 0 end',
            'in_use_pct': 'in_use_pct',
            'max_used_pct': 'max_used_pct',
            'expansions_count': 'expansions_count',
            'expansion_failed_flag': 'case when expansion_failed then 1 else 0 end',
        },
    },
    'fct_vse_stack_health': {
        'entity': 'cast(null as varchar)', 'source': "'QUERY STATS'", 'start': 'interval_start', 'end': 'interval_end',
        'metrics': {
            'non_ip_count': 'non_ip_count',
            'misrouted_pct': 'misrouted_pct',
            'complete_scans_pct': 'complete_scans_pct',
            'inbound_rejections_count': 'inbound_rejections_count',
        },
    },
} %}
with observed as (
    {%- for mart, spec in marts.items() %}
    {%- set outer_loop = loop %}
    {%- for metric, expression in spec.metrics.items() %}
    select
        '{{ mart }}' as mart,
        host,
        {{ spec.source }} as source_command,
        {{ spec.entity }} as entity,
        {{ spec.start }} as interval_start,
        {{ spec.end }} as interval_end,
        '{{ metric }}' as metric,
        cast({{ expression }} as double) as observed_value
    from {{ ref(mart) }}
    {%- if not (outer_loop.last and loop.last) %}
    union all
    {%- endif %}
    {%- endfor %}
    {%- endfor %}
),

rules as (
    select * from {{ ref('network_thresholds') }}
),

effective as (
    -- a host's own row for a rule replaces the default row of the same rule
    select
        hosts.host,
        rules.rule_id,
        rules.mart,
        rules.source_command,
        rules.metric,
        rules.operator,
        rules."limit",
        rules.severity,
        rules.rule,
        rules.source
    from (select distinct host from observed) as hosts
    inner join rules
        on rules.host = hosts.host
        or (
            rules.host = '*'
            and not exists (
                select 1 from rules as own where own.rule_id = rules.rule_id and own.host = hosts.host
            )
        )
)

select
    effective.rule_id,
    effective.severity,
    observed.host,
    observed.source_command,
    observed.entity,
    observed.interval_start,
    observed.interval_end,
    observed.metric,
    observed.observed_value,
    effective.operator,
    effective."limit" as limit_value,
    effective.rule,
    effective.source
from observed
inner join effective
    on effective.host = observed.host
    and effective.mart = observed.mart
    and effective.metric = observed.metric
    and (effective.source_command = '*' or effective.source_command = observed.source_command)
where case effective.operator
    when '>' then observed.observed_value > effective."limit"
    when '>=' then observed.observed_value >= effective."limit"
    when '<' then observed.observed_value < effective."limit"
    when '<=' then observed.observed_value <= effective."limit"
end
