-- Workloads per system, shift date and shift (the shifts seed): the hourly rows condensed, with the
-- day type of the shift's date (int_calendar__day: workday, weekend, holiday, month-end) to scope by.
-- A day model of shift dates (macros/incremental.sql).
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
with shifts as (
    select
        platform,
        system_name,
        shift_date,
        shift,
        max(shift_name) as shift_name,
        workload,
        -- the hours that occurred: 9 or 7 in the shift a change of the clocks falls in
        count(distinct hour_start_utc) as n_hours,
        {{ workload_sums() }}
    from {{ ref('int_workload__hourly') }}
    where shift is not null
        and {{ touched('system_name', 'shift_date', 'shift_date') }}
    group by platform, system_name, shift_date, shift, workload
)

select
    shifts.*,
    calendar.day_type,
    {{ workload_ratios(['shift_date', 'shift']) }},
    elapsed_s / nullif(transactions, 0) as response_s
from shifts
left join {{ ref('int_calendar__day') }} as calendar
    on calendar.calendar_date = shifts.shift_date
