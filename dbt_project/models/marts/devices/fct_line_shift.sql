-- Communication lines condensed into shifts: AVG, MAX and MIN of the hourly values.
with hourly as (
    select * from {{ ref('int_line__hourly') }}
    where shift is not null
)

select
    system_name,
    device_name,
    shift_date,
    shift,
    max(shift_name) as shift_name,
    count(*) as n_hours,
    {{ condense_hours(line_hourly_measures()) }}
from hourly
group by system_name, device_name, shift_date, shift
