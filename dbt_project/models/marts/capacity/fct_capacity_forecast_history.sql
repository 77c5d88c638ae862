{{ config(materialized='incremental', incremental_strategy='append') }}
-- Every forecast a nightly build made, kept (seed 001's loop: forecast, then "compare what happened
-- with what was forecast and correct the model"). A forecast is made on the last day of its history
-- (forecast_date); for each horizon of capacity_forecast_history_horizons (default 7, 30 and 90
-- days) it projects the resource's peak along its trend line, and the band along the lines with the
-- slope's 95 % limits (pivoting on the mean of the history, as fct_capacity_forecast's band does).
-- The trend is fitted on workdays only (capacity_working_days_only), so it forecasts a workday's peak: a
-- target day forecast_date + horizon_days that is a weekend day or a holiday moves to the next workday
-- of int_calendar__day (a 7-day forecast made on a Sunday is compared with Monday's peak, not with
-- Sunday's, whose other workload made every such forecast miss), and the projection runs to that day;
-- horizon_days stays the nominal horizon the forecasts are grouped by.
-- Appended: a build adds the forecasts of (resource, forecast_date) pairs not kept yet, so a rerun
-- on the same data adds nothing and the forecasts of earlier nights stay as they were made.
{%- set horizons = var('capacity_forecast_history_horizons', [7, 30, 90]) %}
{%- set working_days_only = var('capacity_working_days_only', true) %}
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

nominal as (
    select
        made.*,
        horizons.horizon_days,
        cast({{ dbt.dateadd('day', 'horizons.horizon_days', 'made.forecast_date') }} as date) as nominal_date
    from made
    cross join horizons
),

targets as (
    -- each nominal day and the day it is compared on: the first workday from it on (the day itself, or
    -- itself again without capacity_working_days_only or past the calendar's end)
    select
        days.nominal_date,
        {%- if working_days_only %}
        coalesce(min(calendar.calendar_date), days.nominal_date) as target_date
        {%- else %}
        days.nominal_date as target_date
        {%- endif %}
    from (select distinct nominal_date from nominal) as days
    {%- if working_days_only %}
    left join {{ ref('int_calendar__day') }} as calendar
        on calendar.calendar_date >= days.nominal_date
        and calendar.is_workday
    group by days.nominal_date
    {%- endif %}
),

ahead as (
    select
        nominal.*,
        targets.target_date,
        cast({{ dbt.datediff('nominal.forecast_date', 'targets.target_date', 'day') }} as double) as days_ahead
    from nominal
    inner join targets
        on targets.nominal_date = nominal.nominal_date
),

projected as (
    select
        forecast_date,
        resource_type,
        system_name,
        resource_name,
        shift,
        horizon_days,
        target_date,
        trend_peak_pct + growth_pct_points_per_day * days_ahead as projected_pct,
        history_mean_pct + growth_low_pct_points_per_day * (days_ahead - history_mean_offset_days) as projected_low_pct,
        history_mean_pct + growth_high_pct_points_per_day * (days_ahead - history_mean_offset_days) as projected_high_pct,
        growth_pct_points_per_day,
        history_points,
        threshold_pct,
        status
    from ahead
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
