-- How much history each system's forecast rests on: seed 001's regression analysis and extrapolation collects
-- "historical data for the last two years or so" (Evans, L1737) before it extends the line into the future. One
-- row per system with the days from the first to the last peak fct_capacity_forecast regressed (its history_start
-- and history_end over the system's resources: the capacity_history_days window, not every peak loaded), compared
-- with the `forecast_history` rules of the catalogue (001-b6.4-5), fired when the history is shorter.
with systems as (
    select
        system_name,
        min(history_start) as history_start,
        max(history_end) as history_end,
        count(*) as forecast_count,
        {{ dbt.datediff('min(history_start)', 'max(history_end)', 'day') }} + 1 as history_days
    from {{ ref('fct_capacity_forecast') }}
    group by system_name
),

measured as (
    {{ unpivot_metrics('systems', ['system_name', 'history_start', 'history_end', 'forecast_count'], ['history_days']) }}
)

{{ rule_evaluations('measured', 'forecast_history') }}
