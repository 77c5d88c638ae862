-- Seed 004 states three QUERY STATS / QUERY ISTATS rules twice: part 2's summary of the displays repeats
-- part 1's (004-bR1 "Non-IP (should be 0)" is VSE-R1, L3268; 004-bR2 "Mis-Routed (should be very small)" is
-- VSE-R2, L3269; 004-bR5 "Co ... should be as low as possible" is VSE-R22, L3375). Each repeat is evaluated
-- here on the same values of fct_vse_stack_health against the limit of the rule it repeats, as that rule
-- applies to the host (a host's own row replaces the default), so both catalogue rows have their
-- evaluations and findings while rpt_threshold_exceptions lists each crossing once, under part 1's rule.
{%- set repeats = {'004-bR1': 'VSE-R1', '004-bR2': 'VSE-R2', '004-bR5': 'VSE-R22'} %}
with health as (
    select * from {{ ref('fct_vse_stack_health') }}
),

values_compared as (
    {{ unpivot_metrics('health', ['host', 'interval_start', 'interval_end'],
                       ['non_ip_count', 'misrouted_pct', 'complete_scans_pct']) }}
),

hosts as (
    select distinct host as system_name from health
),

rules as (
    {{ effective_thresholds('vse_stack', 'hosts') }}
),

repeats as (
    {%- for repeat, rule_id in repeats.items() %}
    select '{{ repeat }}' as rule_id, '{{ rule_id }}' as repeated_rule_id
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select
    repeats.rule_id,
    repeats.repeated_rule_id,
    measured.host as system_name,
    measured.interval_start,
    measured.interval_end,
    measured.metric,
    measured.metric_value,
    rules.operator,
    rules.limit_value,
    coalesce({{ crosses('measured.metric_value', 'rules.operator', 'rules.limit_value') }}, false) as fired
from values_compared as measured
inner join rules
    on rules.system_name = measured.host
    and rules.metric = measured.metric
inner join repeats
    on repeats.repeated_rule_id = rules.rule_id
where measured.metric_value is not null
