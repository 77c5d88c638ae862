-- A catalogue row whose evaluated_by rpt_rule_status does not know would show as never evaluated:
-- every evaluator must be one of rule_evaluators().
select rule_id, evaluated_by
from {{ ref('rules_catalogue') }}
where evaluated_by is not null
    and evaluated_by not in ('{{ rule_evaluators() | join("', '") }}')
