-- How the valid 4HRA of each z/OS image spreads over a month: the intervals in each 25 MSU/h band, and the
-- percent of the month's valid intervals at or above the band's floor (the percent of time a defined
-- capacity at that floor would cap; `perfdb report msu --limit` counts it for any limit). Incremental by
-- month, as fct_msu_lpar_monthly.
{{ config(materialized='incremental', unique_key=['system_id', 'month_start'],
          meta={'touched_grain': 'day_and_next_month'}) }}
with valid as (
    select
        system_id,
        cast({{ dbt.date_trunc('month', 'interval_start') }} as date) as month_start,
        cast(floor(rolling_4h_msu_per_h / 25) as integer) * 25 as band_floor_msu_per_h
    from {{ ref('fct_msu_lpar_interval') }}
    where is_4hra_valid
        and {{ touched('system_id', 'cast(' ~ dbt.date_trunc('month', 'interval_start') ~ ' as date)', 'day_and_next_month') }}
),

bands as (
    select system_id, month_start, band_floor_msu_per_h, count(*) as interval_count
    from valid
    group by system_id, month_start, band_floor_msu_per_h
)

select
    system_id,
    month_start,
    band_floor_msu_per_h,
    interval_count,
    100.0 * sum(interval_count) over (
        partition by system_id, month_start order by band_floor_msu_per_h desc
        rows between unbounded preceding and current row
    ) / sum(interval_count) over (partition by system_id, month_start) as pct_at_or_above
from bands
