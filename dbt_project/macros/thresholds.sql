{#-
    Threshold rules from the thresholds seed. "Each system has its own set of threshold items and
    values" (King 1986): a system's own rule for an entity and metric replaces the `*` default.
-#}

{#- The rules of `entity` that apply to every system_name found in `systems`. -#}
{% macro effective_thresholds(entity, systems) %}
select
    systems.system_name,
    rules.metric,
    rules.operator,
    rules."limit" as limit_value
from (select distinct system_name from {{ systems }}) as systems
inner join {{ ref('thresholds') }} as rules
    on rules.entity = '{{ entity }}'
    and (rules.system_name = systems.system_name or rules.system_name = '*')
where rules.system_name = systems.system_name
    or not exists (
        select 1
        from {{ ref('thresholds') }} as own
        where own.entity = rules.entity
            and own.metric = rules.metric
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
