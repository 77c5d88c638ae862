-- Every rule of the rules catalogue with its status on this warehouse: `evaluated` with how many values
-- it compared (evaluations), on how many systems, and how many of them were findings; or `not
-- evaluable` with the reason: the input it needs and which capture or listing provides it.
--   threshold, selection  every value of the facts its entity compares (the shift facts, the network
--                         marts, the day's process runs, the Process Activity rows; for a rule of
--                         band_rule_models(), each resource's current peak of fct_capacity_forecast
--                         against its bound of available capacity) against the rule
--                         as it applies to the value's system (effective_thresholds): evaluations =
--                         values compared, findings = values crossing the limit (for an alarm, the
--                         rows of rpt_threshold_exceptions)
--   formula               the rows of the model that computes it (formula_models()); for
--                         rpt_formula_results the cases of the rule's own formulas; no findings
--   diagnostic            a rule whose evaluated_by is a model of diagnostic_models() (a diagnostic row
--                         or a threshold whose limit such a model compares): that model's rows of the
--                         rule, findings = the rows where it fired
--   configuration         the rows of rpt_config_findings: evaluations = the rule's evaluations on the
--                         listings loaded, systems = nodes, findings = evaluations that fired
-- One row per rule_id (a system's own row of a rule is part of its evaluations, not a rule of its own).
{%- set shift_targets = shift_rule_targets() %}
{%- set network_entities = network_rule_targets().keys() | list %}
with
{%- for entity, target in shift_targets.items() %}

{{ entity }}_values as (
    {{ unpivot_metrics(ref(target.fact), target['keys'], target.metrics) }}
),

{{ entity }}_rules as (
    {{ effective_thresholds(entity, ref(target.fact)) }}
),

{{ entity }}_compared as (
    select rules.rule_id, measured.system_name, measured.metric_value, rules.operator, rules.limit_value
    from {{ entity }}_values as measured
    inner join {{ entity }}_rules as rules
        on {{ shift_rule_applies(target.command) }}
),
{%- endfor %}

network_values as (
    {{ network_observed(touched_only=false) }}
),

network_hosts as (
    select distinct host as system_name from network_values
),

network_rules as (
    {{ effective_thresholds(network_entities, 'network_hosts') }}
),

network_compared as (
    select rules.rule_id, observed.host as system_name, observed.observed_value as metric_value, rules.operator,
        rules.limit_value
    from network_values as observed
    inner join network_rules as rules
        on rules.system_name = observed.host
        and rules.entity = observed.rule_entity
        and rules.metric = observed.metric
        and (rules.source_command = '*' or rules.source_command = observed.source_command)
),

process_runs as (
    {{ busy_process_runs(touched_only=false) }}
),

busy_process_values as (
    {{ unpivot_metrics('process_runs', ['system_name'], busy_process_metrics()) }}
),

busy_process_rules as (
    {{ effective_thresholds('busy_process', 'process_runs') }}
),

process_activity_rules as (
    {{ effective_thresholds('process_activity', ref('rpt_process_activity')) }}
),

-- each resource's current peak against the bound of available capacity fct_capacity_forecast projects it to
-- (band_rule_models()): the rule is the one the bound's row of reference_capacity_thresholds names
capacity_compared as (
    select bounds.rule_id, forecast.system_name, forecast.current_peak_pct as metric_value, '>' as operator,
        forecast.threshold_pct as limit_value
    from {{ ref('fct_capacity_forecast') }} as forecast
    inner join {{ ref('reference_capacity_thresholds') }} as bounds
        on bounds.resource_type = forecast.resource_type
        and bounds.cpu_type = forecast.threshold_cpu_type
    where bounds.rule_id is not null
),

compared as (
    {%- for entity in shift_targets %}
    select rule_id, system_name, metric_value, operator, limit_value from {{ entity }}_compared
    union all
    {%- endfor %}
    select rule_id, system_name, metric_value, operator, limit_value from network_compared
    union all
    select rules.rule_id, runs.system_name, runs.metric_value, rules.operator, rules.limit_value
    from busy_process_values as runs
    inner join busy_process_rules as rules
        on rules.system_name = runs.system_name
        and rules.metric = runs.metric
    union all
    -- each side of the OLTP band (io_per_trans) and the band as one rule (the flag of a server outside it)
    select
        rules.rule_id,
        activity.system_name,
        case rules.metric
            when 'io_per_trans' then activity.io_per_trans
            else case when activity.io_per_trans_outside_oltp_band then 1.0 else 0.0 end
        end,
        rules.operator,
        rules.limit_value
    from {{ ref('rpt_process_activity') }} as activity
    inner join process_activity_rules as rules
        on rules.system_name = activity.system_name
        and rules.metric in ('io_per_trans', 'io_per_trans_outside_oltp_band')
    -- the OLTP band applies to OLTP servers only, as rpt_process_activity applies it: a batch job's, a
    -- requester's or a disc process's messages received are not transactions
    where activity.is_oltp_server
    union all
    select rule_id, system_name, metric_value, operator, limit_value from capacity_compared
),

threshold_status as (
    select
        rule_id,
        count(*) as evaluations,
        count(distinct system_name) as systems,
        sum(case when {{ crosses('metric_value', 'operator', 'limit_value') }} then 1 else 0 end) as findings
    from compared
    where metric_value is not null
    group by rule_id
),

formula_status as (
    {%- for model in formula_models() if model != 'rpt_formula_results' %}
    select '{{ model }}' as evaluated_by, count(*) as evaluations
    from {{ ref(model) }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

-- a rule of rpt_formula_results: the cases of its own formulas from its own document (a formula may
-- evaluate several rules, of several documents)
formula_rules as (
    {%- for f in formula_definitions() %}
    {%- set outer = loop %}
    {%- for rule_id in f.rule_ids %}
    select '{{ rule_id }}' as rule_id, '{{ f.formula }}' as formula
    {%- if not (outer.last and loop.last) %}
    union all
    {%- endif %}
    {%- endfor %}
    {%- endfor %}
),

formula_result_status as (
    select formula_rules.rule_id, count(*) as evaluations
    from formula_rules
    inner join (select distinct rule_id, document from {{ ref('rules_catalogue') }}) as catalogue
        on catalogue.rule_id = formula_rules.rule_id
    inner join {{ ref('rpt_formula_results') }} as results
        on results.formula = formula_rules.formula
        and results.document = catalogue.document
    group by formula_rules.rule_id
),

diagnostic_status as (
    {%- for model in diagnostic_models() %}
    select
        '{{ model }}' as evaluated_by,
        rule_id,
        count(*) as evaluations,
        count(distinct system_name) as systems,
        sum(case when fired then 1 else 0 end) as findings
    from {{ ref(model) }}
    group by rule_id
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

config_status as (
    select
        rule_id,
        count(*) as evaluations,
        count(distinct node) as systems,
        sum(case when fired then 1 else 0 end) as findings
    from {{ ref('rpt_config_findings') }}
    group by rule_id
),

rules as (
    select *
    from {{ ref('rules_catalogue') }}
    where system_name is null or system_name = '*'
),

status as (
    select
        rules.*,
        case
            when rules.evaluated_by in ('{{ diagnostic_models() | join("', '") }}')
                then coalesce(diagnostic_status.evaluations, 0)
            when rules.kind in ('threshold', 'selection') then coalesce(threshold_status.evaluations, 0)
            when rules.kind = 'formula' and rules.evaluated_by = 'rpt_formula_results'
                then coalesce(formula_result_status.evaluations, 0)
            when rules.kind = 'formula' then coalesce(formula_status.evaluations, 0)
            when rules.kind = 'configuration' then coalesce(config_status.evaluations, 0)
            else 0
        end as evaluations,
        case
            when diagnostic_status.rule_id is not null then diagnostic_status.systems
            when rules.kind in ('threshold', 'selection') then threshold_status.systems
            when rules.kind = 'configuration' then config_status.systems
        end as systems,
        case
            when diagnostic_status.rule_id is not null then diagnostic_status.findings
            when rules.kind in ('threshold', 'selection') then threshold_status.findings
            when rules.kind = 'configuration' then config_status.findings
        end as findings
    from rules
    left join threshold_status
        on threshold_status.rule_id = rules.rule_id
    left join diagnostic_status
        on diagnostic_status.rule_id = rules.rule_id
        and diagnostic_status.evaluated_by = rules.evaluated_by
    left join config_status
        on config_status.rule_id = rules.rule_id
        and rules.kind = 'configuration'
    left join formula_status
        on formula_status.evaluated_by = rules.evaluated_by
        and rules.kind = 'formula'
    left join formula_result_status
        on formula_result_status.rule_id = rules.rule_id
        and rules.evaluated_by = 'rpt_formula_results'
)

select
    rule_id,
    document,
    doc_rule,
    lines,
    kind,
    subject,
    title,
    severity,
    evaluated_by,
    case when evaluations > 0 then 'evaluated' else 'not evaluable' end as status,
    evaluations,
    systems,
    case when evaluations > 0 then findings end as findings,
    case
        when evaluations > 0 then null
        when evaluated_by is not null then 'no ' || input || ' in the warehouse yet: ' || provided_by
        else 'needs ' || input || ': ' || provided_by
    end as reason,
    input,
    provided_by,
    words
from status
