-- King 1986, Fig. 6: each processor's hours condensed into shifts, AVG, MAX and MIN of the hourly
-- values ("approximately an 8-to-1 reduction"). The spreads are MAX - MIN across the shift's hours
-- for this processor, the DELT of the threshold report (Fig. 9); the spread across processors within
-- an hour is in int_cpu__hourly_spread. Only hours inside a shift of the shifts seed count.
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
select
    system_name, cpu_num, shift_date, shift,
    max(shift_name) as shift_name,
    max_by(cpu_type, hour_start) as cpu_type,
    max_by(os_version, hour_start) as os_version,
    min(hour_start) as first_hour_start,
    -- the hours that occurred: 9 or 7 in the shift a change of the clocks falls in
    count(*) as n_hours,
    {{ condense_hours(cpu_hourly_measures()) }},
    max(qlen) - min(qlen) as qlen_spread_across_hours,
    max(busy_pct) - min(busy_pct) as busy_pct_spread_across_hours
from {{ ref('int_cpu__hourly') }}
where shift is not null
    and {{ touched('system_name', 'shift_date', 'shift_date') }}
group by system_name, cpu_num, shift_date, shift
