-- A threshold on a metric that no model measures would never fire: every rule must name a column
-- its entity's model compares (fct_cpu_shift for `cpu`, rpt_busy_process for `busy_process`).
select
    system_name,
    entity,
    metric
from {{ ref('thresholds') }}
where not (
    (entity = 'cpu' and metric in ('{{ cpu_shift_columns() | join("', '") }}'))
    or (entity = 'busy_process' and metric in ('{{ busy_process_metrics() | join("', '") }}'))
)
