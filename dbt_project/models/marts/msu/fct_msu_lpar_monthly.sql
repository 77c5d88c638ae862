-- Per z/OS image and month: the peak valid 4HRA (what sub-capacity pricing charges for) and the interval
-- it ended, the intervals capped, and WLM's own long-term average (SMF70LAC) averaged over the month
-- weighted by the RMF samples (SMF70SAM) of each interval. Incremental by month: a touched day rebuilds
-- the month of its interval rows and of the day after's, whose 4HRA it changes (grain day_and_next_month).
{{ config(materialized='incremental', unique_key=['system_id', 'month_start'],
          meta={'touched_grain': 'day_and_next_month'}) }}
with intervals as (
    {{ msu_touched_month_intervals(ref('fct_msu_lpar_interval'), 'system_id') }}
)

select
    system_id,
    month_start,
    max(cpc_serial) as cpc_serial,
    {{ msu_peak_4hra_columns() }},
    max(msu_per_h) as peak_interval_msu_per_h,
    sum(msu_per_h * interval_s) / nullif(sum(case when msu_per_h is not null then interval_s end), 0) as avg_msu_per_h,
    sum(wlm_4hra_msu_per_h * sample_count) / nullif(sum(case when wlm_4hra_msu_per_h is not null then sample_count end), 0)
        as wlm_4hra_sam_weighted_msu_per_h,
    max(defined_capacity_msu_per_h) as defined_capacity_msu_per_h,
    count(*) as interval_count,
    sum(case when is_4hra_valid then 1 else 0 end) as valid_interval_count,
    sum(case when is_capped then 1 else 0 end) as capped_interval_count,
    100.0 * sum(case when is_capped then 1 else 0 end) / nullif(sum(case when is_4hra_valid then 1 else 0 end), 0)
        as capped_pct
from intervals
group by system_id, month_start
