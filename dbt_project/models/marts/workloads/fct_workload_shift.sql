-- Workloads per system, shift date and shift (the shifts seed): the hourly rows condensed, with the
-- day type of the shift's date (int_calendar__day: workday, weekend, holiday, month-end) to scope by.
with shifts as (
    select
        platform,
        system_name,
        shift_date,
        shift,
        max(shift_name) as shift_name,
        workload,
        count(distinct hour_start) as n_hours,
        sum(cpu_s) as cpu_s,
        sum(ziip_s) as ziip_s,
        sum(transactions) as transactions,
        sum(io_count) as io_count,
        sum(elapsed_s) as elapsed_s
    from {{ ref('int_workload__hourly') }}
    where shift is not null
    group by platform, system_name, shift_date, shift, workload
)

select
    shifts.*,
    calendar.day_type,
    100 * cpu_s / nullif(sum(cpu_s) over (partition by platform, system_name, shift_date, shift), 0) as cpu_share_pct,
    1000 * cpu_s / nullif(transactions, 0) as cpu_ms_per_transaction,
    cast(io_count as double) / nullif(transactions, 0) as io_per_transaction,
    elapsed_s / nullif(transactions, 0) as response_s
from shifts
left join {{ ref('int_calendar__day') }} as calendar
    on calendar.calendar_date = shifts.shift_date
