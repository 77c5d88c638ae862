-- Projected against actual growth month by month and quarter by quarter, for management: seed 001 has the
-- analyst "track actual versus projected growth as the data becomes available (usually monthly)" and
-- present it, and, if a wide discrepancy develops, find why and adjust the model (Evans, L1866-1872).
-- Per resource and horizon, the compared forecasts of rpt_capacity_forecast_accuracy whose target day
-- falls in the month (or quarter): how many, the mean projected and measured peaks, the bias (mean error
-- in points), the mean absolute percentage error and the misses; model_misses when that error exceeds
-- capacity_forecast_miss_pct (default 5), as rpt_capacity_forecast_accuracy grades all of them.
{%- set miss_pct = var('capacity_forecast_miss_pct', 5) %}
with compared as (
    select
        system_name,
        resource_type,
        resource_name,
        shift,
        horizon_days,
        target_date,
        projected_pct,
        actual_pct,
        error_pct_points,
        error_pct,
        is_miss
    from {{ ref('rpt_capacity_forecast_accuracy') }}
),

periods as (
    select 'month' as period, cast({{ dbt.date_trunc('month', 'target_date') }} as date) as period_start, compared.*
    from compared
    union all
    select 'quarter' as period, cast({{ dbt.date_trunc('quarter', 'target_date') }} as date) as period_start, compared.*
    from compared
),

rolled as (
    select
        period,
        period_start,
        system_name,
        resource_type,
        resource_name,
        shift,
        horizon_days,
        count(*) as forecasts_compared,
        avg(projected_pct) as mean_projected_pct,
        avg(actual_pct) as mean_actual_pct,
        avg(error_pct_points) as bias_pct_points,
        avg(abs(error_pct)) as mean_abs_error_pct,
        count(case when is_miss then 1 end) as misses
    from periods
    group by period, period_start, system_name, resource_type, resource_name, shift, horizon_days
)

select
    period,
    period_start,
    -- 2026-02 for a month, 2026-Q1 for a quarter: what a report to management names the period by
    cast(extract(year from period_start) as {{ dbt.type_string() }})
        || case
            when period = 'month' then '-' || lpad(cast(extract(month from period_start) as {{ dbt.type_string() }}), 2, '0')
            else '-Q' || cast(extract(quarter from period_start) as {{ dbt.type_string() }})
        end as period_label,
    system_name,
    resource_type,
    resource_name,
    shift,
    horizon_days,
    forecasts_compared,
    mean_projected_pct,
    mean_actual_pct,
    bias_pct_points,
    mean_abs_error_pct,
    misses,
    mean_abs_error_pct > {{ miss_pct }} as model_misses
from rolled
