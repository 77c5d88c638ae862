{#-
    Threshold rules from the thresholds seed, one seed for every domain (issue 4: the seeds' network
    rules "are rows in the thresholds seed"). "Each system has its own set of threshold items and
    values" (King 1986): a system's own row replaces the `*` default row with the same rule_id.
-#}

{#- The rules of `entities` (one entity or a list) that apply to every system_name of `systems`. -#}
{% macro effective_thresholds(entities, systems) %}
    {%- set entities = [entities] if entities is string else entities %}
select
    systems.system_name,
    rules.rule_id,
    rules.entity,
    rules.source_command,
    rules.metric,
    rules.operator,
    rules.{{ adapter.quote('limit') }} as limit_value,
    rules.severity,
    rules.rule,
    rules.source
from (select distinct system_name from {{ systems }}) as systems
inner join {{ ref('thresholds') }} as rules
    on rules.entity in ('{{ entities | join("', '") }}')
    and (rules.system_name = systems.system_name or rules.system_name = '*')
where rules.system_name = systems.system_name
    or not exists (
        select 1
        from {{ ref('thresholds') }} as own
        where own.rule_id = rules.rule_id
            and own.system_name = systems.system_name
    )
{% endmacro %}

{#- True when `value` is on the far side of the limit; NULL when the value is NULL. -#}
{% macro crosses(value, operator, limit) -%}
    case {{ operator }}
        when '>' then {{ value }} > {{ limit }}
        when '>=' then {{ value }} >= {{ limit }}
        when '<' then {{ value }} < {{ limit }}
        when '<=' then {{ value }} <= {{ limit }}
        when '<>' then {{ value }} <> {{ limit }}
    end
{%- endmacro %}

{#- Rows of `relation` in long form: one row per key and metric, for matching against rules. -#}
{% macro unpivot_metrics(relation, keys, metrics) %}
    {%- for metric in metrics %}
select
    {{ keys | join(', ') }},
    '{{ metric }}' as metric,
    {{ loop.index }} as metric_order,
    cast({{ metric }} as double) as metric_value
from {{ relation }}
    {%- if not loop.last %}
union all
    {%- endif %}
    {%- endfor %}
{% endmacro %}

{#- The shift facts that rules of the same entity compare: MEASURE's, the Figure 9 query and "the same
    query for process, disk, line, and USERDEF data" of King 1986 (L2119): per entity the fact, the
    hourly model it condenses (for the hours a shift covers), the fact's keys, the columns a rule may
    name, how a report row names what crossed and the column a rule's source_command names (a USERDEF
    rule compares one counter, e.g. RESP-TIME; none elsewhere). -#}
{% macro shift_rule_targets() %}
    {%- set targets = {} %}
    {%- for entity, label, command in [
            ('cpu', "'cpu ' || cast(cpu_num as string)", none), ('disc', 'device_name', none),
            ('line', 'device_name', none), ('process', 'process_key', none),
            ('userdef', "process_key || ' ' || counter_name", 'counter_name')] %}
        {%- set family = condensed_families()[entity] %}
        {%- do targets.update({entity: {
            'fact': 'fct_' ~ entity ~ '_shift', 'hourly': family.get('hourly', 'int_' ~ entity ~ '__hourly'),
            'keys': family['keys'] + ['shift_date', 'shift'], 'metrics': family['columns'], 'label': label,
            'command': command,
        }}) %}
    {%- endfor %}
    {#- SMF 74.1 DASD volumes: a shift fact of its own (macros/dasd.sql), not a family condense_hours_fact builds -#}
    {%- do targets.update({'dasd': {
        'fact': 'fct_dasd_shift', 'hourly': 'int_dasd__hourly', 'keys': ['system_name', 'device_number', 'volser', 'shift_date', 'shift'],
        'metrics': ['io_per_s', 'response_ms', 'iosq_ms', 'iosq_share_pct', 'busy_pct'],
        'label': dasd_volume_label(), 'command': none,
    }}) %}
    {{ return(targets) }}
{% endmacro %}

{#- The network marts that rules of each network entity compare: the mart, its entity, command and
    interval columns, the metrics a rule may name (columns of the mart) and the flags (a rule's
    metric -> the boolean column it reads as 1 or 0). -#}
{% macro network_rule_targets() %}
    {{ return({
        'tcpip': {
            'mart': 'fct_tcpip_interval', 'entity': 'stack_name', 'command': 'command',
            'start': 'interval_start', 'end': 'interval_end', 'metrics': ['retransmitted_pct'], 'flags': {},
        },
        'interface': {
            'mart': 'fct_interface_interval', 'entity': 'interface_name', 'command': 'command',
            'start': 'interval_start', 'end': 'interval_end', 'metrics': ['error_pct', 'drop_pct'], 'flags': {},
        },
        'buffer_pool': {
            'mart': 'fct_buffer_pool_snapshot', 'entity': 'pool_name', 'command': 'source_command',
            'start': 'previous_captured_at', 'end': 'captured_at',
            'metrics': ['requests_failed_count', 'requests_delayed_count', 'throttle_status', 'max_throttle_status',
                        'in_use_pct', 'max_used_pct', 'expansions_count'],
            'flags': {'congested_flag': 'is_congested', 'was_congested_flag': 'was_congested',
                      'expansion_failed_flag': 'expansion_failed'},
        },
        'vse_stack': {
            'mart': 'fct_vse_stack_health', 'entity': 'cast(null as string)', 'command': "'QUERY STATS'",
            'start': 'interval_start', 'end': 'interval_end',
            'metrics': ['non_ip_count', 'misrouted_pct', 'complete_scans_pct', 'inbound_rejections_count'], 'flags': {},
        },
        'csaix_memory': {
            'mart': 'fct_csaix_memory_snapshot', 'entity': 'pool_name', 'command': 'source_command',
            'start': 'captured_at', 'end': 'captured_at',
            'metrics': ['buf_avail_ram_pct', 'unlimited_kernel_memory_ram_pct'], 'flags': {},
        },
        'vse_connection': {
            'mart': 'fct_vse_connection_performance', 'entity': 'peer', 'command': "'DIAGNOSE=PERFORM'",
            'start': 'interval_start', 'end': 'interval_end',
            'metrics': ['retransmission_mode_count', 'sws_time_pct', 'depth_mode_count', 'max_turnaround_ms'], 'flags': {},
        },
        'host_cpu': {
            'mart': 'fct_host_cpu_snapshot', 'entity': 'host_role', 'command': 'source_command',
            'start': 'captured_at', 'end': 'captured_at', 'metrics': ['busy_pct'], 'flags': {},
        },
        'vse_prty': {
            'mart': 'fct_vse_partition_priority', 'entity': 'tcpip_partition', 'command': "'PRTY'",
            'start': 'captured_at', 'end': 'captured_at', 'metrics': ['tcpip_outranked_count'], 'flags': {},
        },
    }) }}
{% endmacro %}

{#- Fails for every row whose value does not cross its rule: a report row must be a real crossing.
    (The arguments name columns; `limit` itself is a reserved test config.) -#}
{% test crosses_limit(model, value_column, operator_column, limit_column) %}
select *
from {{ model }}
where not coalesce({{ crosses(value_column, operator_column, limit_column) }}, false)
{% endtest %}

{#- Fails for every rule of `entities` whose rule_id names more than one entity and metric, or whose
    entity and metric have more than one rule_id: reports that name crossed rules by their metric
    (the Figure 1 mart) need one rule per metric. -#}
{% test one_rule_per_metric(model, entities) %}
with pairs as (
    select distinct rule_id, entity, metric
    from {{ model }}
    where entity in ('{{ entities | join("', '") }}')
)

select pairs.rule_id, pairs.entity, pairs.metric
from pairs
where exists (
        select 1 from pairs as other
        where other.rule_id = pairs.rule_id and (other.entity <> pairs.entity or other.metric <> pairs.metric)
    )
    or exists (
        select 1 from pairs as other
        where other.entity = pairs.entity and other.metric = pairs.metric and other.rule_id <> pairs.rule_id
    )
{% endtest %}

{#- The join of a shift fact's values (`measured`, unpivoted) to the rules of its entity (`rules`): the
    system's rule for the metric and, for a target whose rules name a command (`userdef`: the counter),
    the rows of that command only. -#}
{% macro shift_rule_applies(command) -%}
    rules.system_name = measured.system_name
        and rules.metric = measured.metric
        {%- if command %}
        and (rules.source_command = '*' or rules.source_command = measured.{{ command }})
        {%- endif %}
{%- endmacro %}

{#- Every value of the network marts a network rule may compare, one row per interval or snapshot and
    metric (a flag reads as 1 or 0), with the host, the command, what was measured and the interval;
    `touched_only` keeps the rows of the days a day model rebuilds. -#}
{% macro network_observed(touched_only) %}
    {%- set observations = [] %}
    {%- for entity, target in network_rule_targets().items() %}
        {%- for metric in target.metrics %}
            {%- do observations.append((entity, target, metric, metric)) %}
        {%- endfor %}
        {%- for metric, flag in target.flags.items() %}
            {%- do observations.append((entity, target, metric, 'case when ' ~ flag ~ ' then 1 else 0 end')) %}
        {%- endfor %}
    {%- endfor %}
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
    {%- if touched_only %}
    where {{ touched('host', target.end, 'day') }}
    {%- endif %}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
{% endmacro %}
