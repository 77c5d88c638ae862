-- Consumption per workload, platform, system and day: the hours of int_workload__hourly added up. The
-- months (fct_workload_monthly) are condensed from these rows, which are kept, and not from the hours,
-- which retention deletes (family `hourly`): a month rebuilt after a purge keeps its purged days.
-- A day model (macros/incremental.sql): a night adds up the hours of the touched days.
{{ config(materialized='incremental', unique_key=['system_name', 'day']) }}
select
    platform,
    system_name,
    cast(hour_start as date) as day,
    workload,
    -- the hours that occurred: 25 or 23 on a day the clocks change
    count(distinct hour_start_utc) as n_hours,
    {{ workload_sums() }}
from {{ ref('int_workload__hourly') }}
where {{ touched('system_name', 'hour_start', 'day') }}
group by platform, system_name, cast(hour_start as date), workload
