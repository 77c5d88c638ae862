-- Each kept forecast against the peak measured on its target day (rpt_capacity_forecast_accuracy), as
-- the Workloads dashboard lists it, and for a system none of whose forecasts has reached its target day
-- yet one row saying so: no row is the healthy state of a young warehouse, and an empty table says nothing.
select
    system_name, resource_type, resource_name, horizon_days, forecast_date, target_date,
    projected_pct, actual_pct, error_pct, is_miss, cast(null as {{ dbt.type_string() }}) as note
from {{ ref('rpt_capacity_forecast_accuracy') }}
union all
select
    system_name, null, null, null, null, null, null, null, null, null,
    'No forecast of this system has reached its target day yet: every build keeps its forecasts, '
    || 'and each is compared here with the peak measured on its target day once that day is loaded.'
from (select distinct system_name from {{ ref('fct_capacity_forecast_history') }}) as kept
where not exists (
    select 1 from {{ ref('rpt_capacity_forecast_accuracy') }} as compared where compared.system_name = kept.system_name
)
