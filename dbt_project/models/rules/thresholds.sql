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
where kind in ('threshold', 'selection')
    and evaluated_by is not null
