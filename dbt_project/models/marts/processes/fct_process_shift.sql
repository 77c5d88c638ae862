-- King 1986, Fig. 7: processes condensed into shifts OVER PROCESS-NAME (process_key), with the
-- minimum-activity filters: PQLEN and the semaphore-wait rate over the hours whose $RECEIVE queue
-- averaged more than 0.3, READY/BUSY over the hours with more than 0.3 % CPU busy. A process with
-- no such hour in the shift is left out ("restricting the data to minimum activity level").
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
{%- set min_pqlen = var('process_min_pqlen', 0.3) %}
{%- set min_busy_pct = var('process_min_busy_pct', 0.3) %}
select
    system_name, process_key, shift_date, shift,
    max(shift_name) as shift_name,
    max_by(process_name, hour_start) as process_name,
    max_by(program_file_name, hour_start) as program_file_name,
    max_by(cpu_num, hour_start) as cpu_num,
    max_by(pin, hour_start) as pin,
    max_by(priority, hour_start) as priority,
    -- the hours that occurred: 9 or 7 in the shift a change of the clocks falls in
    count(distinct hour_start_utc) as n_hours,
    sum(cpu_busy_s) as cpu_busy_s,
    sum(messages_sent_count) as messages_sent_count,
    sum(messages_received_count) as messages_received_count,
    {{ condense_hours(['cpu_busy_pct']) }},
    avg(pqlen) filter (where pqlen > {{ min_pqlen }}) as pqlen_avg,
    max(pqlen) filter (where pqlen > {{ min_pqlen }}) as pqlen_max,
    max(vsems_per_s) filter (where pqlen > {{ min_pqlen }}) as vsems_per_s_max,
    avg(ready_busy_ratio) filter (where cpu_busy_pct > {{ min_busy_pct }}) as ready_busy_ratio_avg
from {{ ref('int_process__hourly') }}
where shift is not null
    and {{ touched('system_name', 'shift_date', 'shift_date') }}
group by system_name, process_key, shift_date, shift
having max(pqlen) > {{ min_pqlen }} or max(cpu_busy_pct) > {{ min_busy_pct }}
