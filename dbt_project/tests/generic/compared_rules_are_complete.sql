{#- Fails for every rule of the catalogue that cannot be run as written: a threshold or selection rule
    (or a diagnostic rule a diagnostic model compares) without its system, entity, command, metric,
    operator or limit; a configuration rule with a metric
    but no operator or limit (config_checks compares it); a rule_id without exactly one default row. -#}
{% test compared_rules_are_complete(model) %}
with defaults as (
    select rule_id
    from {{ model }}
    group by rule_id
    having sum(case when system_name is null or system_name = '*' then 1 else 0 end) <> 1
)

select rule_id, 'not exactly one default row' as problem
from defaults
union all
select rule_id, 'threshold or selection rule without what it compares' as problem
from {{ model }}
where (kind in ('threshold', 'selection') or evaluated_by in ('{{ limit_diagnostic_models() | join("', '") }}'))
    and evaluated_by is not null
    and evaluated_by not in ('{{ band_rule_models() | join("', '") }}')
    and evaluated_by not in ('{{ self_deciding_models() | join("', '") }}')
    and (system_name is null or entity is null or source_command is null or metric is null
        or operator is null or {{ adapter.quote('limit') }} is null)
union all
select rule_id, 'configuration rule with a metric but no operator or limit' as problem
from {{ model }}
where kind = 'configuration'
    and metric is not null
    and (operator is null or {{ adapter.quote('limit') }} is null)
{% endtest %}
