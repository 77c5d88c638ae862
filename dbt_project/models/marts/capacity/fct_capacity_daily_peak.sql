-- Each resource's peak hour per day (or per shift and day, with the dbt var capacity_peak_basis =
-- 'shift'): the busiest hour's utilization, as seed 001 analyses capacity ("the peak hour of the peak
-- day", Evans L1795) and as the ENFORM trend report picks the busiest hour of each day (King, Fig. 2).
-- Resources: each processor (cpu, one server), each system's processors together (processor_pool,
-- as many servers as processors, the hour's average busy), disc volumes and communication lines
-- (busy = read + write busy). The MEASURE and SMF 70 families feed the processor rows through
-- int_cpu__hourly.
{%- set by_shift = var('capacity_peak_basis', 'daily') == 'shift' %}
{%- set period = 'shift_date' if by_shift else 'cast(hour_start as date)' %}

with cpu_hours as (
    select system_name, cast(cpu_num as varchar) as cpu_num, hour_start, shift, shift_date, busy_pct
    from {{ ref('int_cpu__hourly') }}
    where busy_pct is not null
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
        busy_pct
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
        avg(busy_pct) as busy_pct
    from cpu_hours
    group by system_name, hour_start
    union all
    select 'disc', system_name, device_name, 1, hour_start, shift, shift_date, busy_pct
    from {{ ref('int_disc__hourly') }}
    where busy_pct is not null
    union all
    select 'line', system_name, device_name, 1, hour_start, shift, shift_date, busy_pct
    from {{ ref('int_line__hourly') }}
    where busy_pct is not null
)

select
    resource_type,
    system_name,
    resource_name,
    {{ 'shift' if by_shift else 'cast(null as integer)' }} as shift,
    {{ period }} as peak_date,
    max(servers) as servers,
    max(busy_pct) as peak_pct,
    arg_max(hour_start, busy_pct) as peak_hour_start,
    count(*) as measured_hours
from hourly
{%- if by_shift %}
where shift is not null
{%- endif %}
group by resource_type, system_name, resource_name, {{ 'shift, ' if by_shift }}{{ period }}
