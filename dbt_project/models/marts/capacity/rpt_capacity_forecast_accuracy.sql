-- Projected against actual: every kept forecast whose target day has been measured, with its error,
-- and per resource and horizon the bias and the mean absolute error - seed 001's "validate the model
-- within 5 %". A forecast misses when its projection is more than capacity_forecast_miss_pct
-- (default 5) percent of the measured peak away from it; a resource and horizon whose mean absolute
-- percentage error exceeds it is flagged, so its model is the one to correct.
{%- set miss_pct = var('capacity_forecast_miss_pct', 5) %}
with compared as (
    select
        f.resource_type,
        f.system_name,
        f.resource_name,
        f.shift,
        f.horizon_days,
        f.forecast_date,
        f.target_date,
        f.projected_pct,
        f.projected_low_pct,
        f.projected_high_pct,
        p.peak_pct as actual_pct,
        f.projected_pct - p.peak_pct as error_pct_points,
        100 * (f.projected_pct - p.peak_pct) / nullif(p.peak_pct, 0) as error_pct
    from {{ ref('fct_capacity_forecast_history') }} as f
    inner join {{ ref('fct_capacity_daily_peak') }} as p
        on p.resource_type = f.resource_type
        and p.system_name = f.system_name
        and p.resource_name = f.resource_name
        and p.shift is not distinct from f.shift
        and p.peak_date = f.target_date
)

select
    *,
    abs(error_pct) > {{ miss_pct }} as is_miss,
    actual_pct between projected_low_pct and projected_high_pct as within_band,
    count(*) over (partition by resource_type, system_name, resource_name, shift, horizon_days) as forecasts_compared,
    avg(error_pct_points) over (partition by resource_type, system_name, resource_name, shift, horizon_days) as bias_pct_points,
    avg(abs(error_pct)) over (partition by resource_type, system_name, resource_name, shift, horizon_days) as mean_abs_error_pct,
    avg(abs(error_pct)) over (partition by resource_type, system_name, resource_name, shift, horizon_days) > {{ miss_pct }}
        as model_misses
from compared
