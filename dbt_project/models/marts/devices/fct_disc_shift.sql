-- Disc volumes condensed into shifts like the processors (King 1986: "similar queries"): AVG, MAX
-- and MIN of the hourly DISC BUSY, REQ QLEN, SEEK BUSY, cache hit ratio, WRITE BUSY and BYTE RATE.
with hourly as (
    select * from {{ ref('int_disc__hourly') }}
    where shift is not null
)

select
    system_name,
    device_name,
    shift_date,
    shift,
    max(shift_name) as shift_name,
    count(*) as n_hours,
    {{ condense_hours(disc_hourly_measures()) }}
from hourly
group by system_name, device_name, shift_date, shift
