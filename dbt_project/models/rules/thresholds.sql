-- The threshold and selection rules of the rules catalogue, in the columns the threshold marts read
-- (effective_thresholds): the catalogue is the one list of rules, this is its view for the marts. It
-- lives in the seeds schema, where the thresholds seed was, so readers of seeds.thresholds are unchanged.
{{ config(schema='seeds', materialized='table', tags=['rules']) }}
select
    rule_id,
    system_name,
    entity,
    source_command,
    metric,
    operator,
    {{ adapter.quote('limit') }},
    severity,
    title as rule,
    source
from {{ ref('rules_catalogue') }}
-- a diagnostic rule a diagnostic model compares with a limit is read the same way
where (kind in ('threshold', 'selection') or evaluated_by in ('{{ limit_diagnostic_models() | join("', '") }}'))
    and evaluated_by is not null
    and evaluated_by not in ('{{ band_rule_models() | join("', '") }}')
    -- a selection a diagnostic model decides itself (King's minimum activity) names no metric to compare
    and evaluated_by not in ('{{ self_deciding_models() | join("', '") }}')
