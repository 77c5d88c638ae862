-- The peaks of fct_capacity_daily_peak measured by the hourly device models (cpu, processor_pool, disc,
-- line), one row per resource and day (or shift and day with capacity_peak_basis = 'shift'): a day model
-- rebuilt for the touched days only. Interface peaks depend on link speeds a later capture may change
-- for every day, so fct_capacity_daily_peak adds them from the network facts on every build.
{%- set by_shift = var('capacity_peak_basis', 'daily') == 'shift' %}
{%- set in_touched = touched('system_name', 'shift_date', 'shift_date') if by_shift
    else touched('system_name', 'hour_start', 'day') %}
{{ config(materialized='incremental',
          unique_key=['system_name', 'peak_date'], meta={'touched_grain': 'shift_date' if by_shift else 'day'}) }}

with cpu_hours as (
    select system_name, cast(cpu_num as string) as cpu_num, hour_start, shift, shift_date, busy_pct, cpu_type
    from {{ ref('int_cpu__hourly') }}
    where busy_pct is not null
        and {{ in_touched }}
),

hourly as (
    select
        'cpu' as resource_type,
        system_name,
        'CPU ' || lpad(cpu_num, 2, '0') as resource_name,
        1 as servers,
        hour_start,
        shift,
        shift_date,
        busy_pct,
        cpu_type
    from cpu_hours
    union all
    select
        'processor_pool' as resource_type,
        system_name,
        'all processors' as resource_name,
        count(*) as servers,
        hour_start,
        max(shift) as shift,
        max(shift_date) as shift_date,
        avg(busy_pct) as busy_pct,
        -- the type the system's processors share; a mixed system is judged by the thresholds of any type
        case when min(cpu_type) = max(cpu_type) then min(cpu_type) end as cpu_type
    from cpu_hours
    group by system_name, hour_start
    union all
    select 'disc', system_name, device_name, 1, hour_start, shift, shift_date, busy_pct, cast(null as string)
    from {{ ref('int_disc__hourly') }}
    where busy_pct is not null
        and {{ in_touched }}
    union all
    select 'line', system_name, device_name, 1, hour_start, shift, shift_date, busy_pct, cast(null as string)
    from {{ ref('int_line__hourly') }}
    where busy_pct is not null
        and {{ in_touched }}
)

{{ daily_peaks('hourly', by_shift) }}
