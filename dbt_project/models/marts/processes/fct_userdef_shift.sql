-- User-defined counters condensed into shifts per process (process_key) and counter: AVG, MAX and
-- MIN of the hourly rates, e.g. the RESP-TIME queue and THROUGHPUT counters of King 1986, Fig. 3.
-- As in ENFORM, the aggregates run over the hourly records of every process with that name.
with hourly as (
    select * from {{ ref('int_userdef__hourly') }}
    where shift is not null
)

select
    system_name,
    process_key,
    counter_name,
    counter_index,
    shift_date,
    shift,
    max(shift_name) as shift_name,
    max(counter_type_name) as counter_type_name,
    max(counter_rate_unit) as counter_rate_unit,
    count(distinct hour_start) as n_hours,
    {{ condense_hours(['counter_rate']) }}
from hourly
group by system_name, process_key, counter_name, counter_index, shift_date, shift
