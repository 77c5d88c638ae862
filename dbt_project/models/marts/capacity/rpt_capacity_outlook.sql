-- The outlook the Capacity dashboard draws, as one long table: each resource's measured daily peaks,
-- the trend of fct_capacity_forecast over its history and capacity_outlook_days (dbt var, default 90)
-- days on, and its threshold. The trend is the forecast's own line, not fitted here: trend_peak_pct is
-- its value on history_end and growth_pct_points_per_day its slope. `line` names the chart's lines:
-- each system's peaks and trend, and one threshold per resource type. Daily peaks only (shift NULL).
{%- set outlook_days = var('capacity_outlook_days', 90) %}
{#- a forecast's history spans fewer than capacity_history_days days (fct_capacity_forecast keeps no
    older peak), so this many days cover every history and its outlook -#}
{%- set day_count = var('capacity_history_days', 730) + outlook_days %}
with forecast as (
    select * from {{ ref('fct_capacity_forecast') }}
    where shift is null
),

offsets as (
    {{ dbt.generate_series(day_count) }}
),

days as (
    select
        forecast.*,
        cast({{ dbt.dateadd('day', 'offsets.generated_number - 1', 'forecast.history_start') }} as date) as day
    from forecast
    inner join offsets
        on offsets.generated_number - 1
            <= {{ dbt.datediff('forecast.history_start', 'forecast.history_end', 'day') }} + {{ outlook_days }}
)

select
    resource_type, system_name, resource_name, peak_date as day,
    'measured peak' as series, system_name || ' peak' as line, peak_pct as pct
from {{ ref('fct_capacity_daily_peak') }}
where shift is null
union all
select
    resource_type, system_name, resource_name, day,
    'trend' as series, system_name || ' trend' as line,
    trend_peak_pct + growth_pct_points_per_day * {{ dbt.datediff('history_end', 'day', 'day') }} as pct
from days
where trend_peak_pct is not null
union all
select
    resource_type, system_name, resource_name, day,
    'threshold' as series, 'threshold' as line, threshold_pct as pct
from days
