-- The NonStop applications' own counters (MEASURE USERDEF, int_userdef__hourly) per workload, system,
-- counter and clock hour: a workload's transactions as its programs count them (THROUGHPUT, an ACCUM
-- counter) beside the $RECEIVE messages of fct_workload_hourly, and the transactions in progress
-- (RESP-TIME, a QUEUE counter). The workload is the seed's, by counter name (source `userdef`) or by
-- the counting program (int_workload__entity). counter_rate adds up the processes' rates: events a
-- second (ACCUM, FACCUM), average queue length (QUEUE), percent busy (BUSY, QBUSY: 200 = two
-- processes busy all hour). A day model (macros/incremental.sql).
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
select
    u.system_name,
    u.hour_start,
    u.hour_start_utc,
    u.shift_date,
    u.shift,
    u.shift_name,
    e.workload,
    u.counter_name,
    u.counter_type_name,
    u.counter_rate_unit,
    count(distinct u.process_key) as process_count,
    sum(u.counter_value) as counter_value,
    sum(u.counter_rate) as counter_rate
from {{ ref('int_userdef__hourly') }} as u
{{ join_workload_entity('u.system_name', 'u.hour_start', 'nonstop', 'userdef', 'u.counter_name',
                        ['e.secondary_name = u.program_file_name']) }}
where {{ touched('u.system_name', 'u.hour_start', 'day') }}
group by
    u.system_name, u.hour_start, u.hour_start_utc, u.shift_date, u.shift, u.shift_name, e.workload, u.counter_name,
    u.counter_type_name, u.counter_rate_unit
