{{ config(materialized='incremental', incremental_strategy='append') }}
-- Every forecast a nightly build made, kept (seed 001's loop: forecast, then "compare what happened
-- with what was forecast and correct the model"). A forecast is made on the last day of its history
-- (forecast_date); for each horizon of capacity_forecast_history_horizons (default 7, 30 and 90
-- days) it projects the resource's peak along its trend line, and the band along the lines with the
-- slope's 95 % limits (pivoting on the mean of the history, as fct_capacity_forecast's band does).
-- Appended: a build adds the forecasts of (resource, forecast_date) pairs not kept yet, so a rerun
-- on the same data adds nothing and the forecasts of earlier nights stay as they were made.
{%- set horizons = var('capacity_forecast_history_horizons', [7, 30, 90]) %}
with made as (
    select
        history_end as forecast_date,
        resource_type,
        system_name,
        resource_name,
        shift,
        history_points,
        threshold_pct,
        status,
        trend_peak_pct,
        growth_pct_points_per_day,
        growth_low_pct_points_per_day,
        growth_high_pct_points_per_day,
        history_mean_offset_days,
        history_mean_pct
    from {{ ref('fct_capacity_forecast') }}
    where trend_peak_pct is not null
),

horizons as (
    {%- for h in horizons %}
    select {{ h }} as horizon_days{% if not loop.last %} union all{% endif %}
    {%- endfor %}
),

projected as (
    select
        made.forecast_date,
        made.resource_type,
        made.system_name,
        made.resource_name,
        made.shift,
        horizons.horizon_days,
        cast({{ dbt.dateadd('day', 'horizons.horizon_days', 'made.forecast_date') }} as date) as target_date,
        made.trend_peak_pct + made.growth_pct_points_per_day * horizons.horizon_days as projected_pct,
        made.history_mean_pct
            + made.growth_low_pct_points_per_day * (horizons.horizon_days - made.history_mean_offset_days) as projected_low_pct,
        made.history_mean_pct
            + made.growth_high_pct_points_per_day * (horizons.horizon_days - made.history_mean_offset_days) as projected_high_pct,
        made.growth_pct_points_per_day,
        made.history_points,
        made.threshold_pct,
        made.status
    from made
    cross join horizons
)

select projected.*
from projected
{%- if flags.INTROSPECT and is_incremental() %}
where not exists (
    select 1
    from {{ this }} as kept
    where kept.forecast_date = projected.forecast_date
        and kept.resource_type = projected.resource_type
        and kept.system_name = projected.system_name
        and kept.resource_name = projected.resource_name
        and kept.shift is not distinct from projected.shift
)
{%- endif %}
