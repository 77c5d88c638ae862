-- Per CPC and month: the peak of the CPC's valid 4HRA (the sum over its z/OS images) and the interval it
-- ended, and the intervals in which one of its images was capped. Incremental by CPC and month (grain
-- day_and_next_month by CPC, as fct_msu_cpc_interval).
-- depends_on: {{ ref('fct_msu_lpar_interval') }}
{{ config(materialized='incremental', unique_key=['cpc_serial', 'month_start'],
          meta={'touched_grain': 'day_and_next_month',
                'touched_via': {'model': 'fct_msu_lpar_interval', 'system': 'system_id', 'group': 'cpc_serial'}}) }}
with intervals as (
    {{ msu_touched_month_intervals(ref('fct_msu_cpc_interval'), 'cpc_serial') }}
)

select
    cpc_serial,
    month_start,
    {{ msu_peak_4hra_columns() }},
    max(lpar_count) as lpar_count,
    count(*) as interval_count,
    sum(case when is_4hra_valid then 1 else 0 end) as valid_interval_count,
    sum(case when capped_lpar_count > 0 then 1 else 0 end) as capped_interval_count
from intervals
group by cpc_serial, month_start
