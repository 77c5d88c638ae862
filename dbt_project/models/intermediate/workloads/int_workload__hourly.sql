-- Consumption per workload, system and clock hour on both platforms, with the shift of the hour.
-- z/OS: SMF 72.3 service class periods (report classes regroup the same work and are left out):
-- general CP seconds, zIIP seconds, transactions ended, their elapsed time and DASD I/Os.
-- NonStop: MEASURE processes (int_process__hourly): CPU busy seconds and $RECEIVE messages received,
-- the requests the workload's processes served; MEASURE has no I/O count per process.
-- Hours are keyed by their UTC instant (hour_start_utc: SMF72LGO on z/OS, the system's zone on NonStop): a
-- fall-back day's repeated clock hour is two rows.
-- A day model (macros/incremental.sql): a night rebuilds the hours of the touched days.
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with measured as (
    select
        'zos' as platform,
        w.system_id as system_name,
        {{ dbt.date_trunc('hour', 'w.interval_start') }} as hour_start,
        {{ hour_start_utc('w.interval_start', 'w.interval_start_utc') }} as hour_start_utc,
        e.workload,
        w.cp_cpu_s as cpu_s,
        w.ziip_s,
        w.transactions,
        w.elapsed_s,
        w.dasd_io_count as io_count
    from {{ ref('stg_smf__workload_period') }} as w
    {{ join_workload_entity('w.system_id', 'w.interval_start', 'zos', 'service_class', 'w.class_name') }}
    where not w.is_report_class
        and {{ touched('w.system_id', 'w.interval_start', 'day') }}
    union all
    select
        'nonstop' as platform,
        p.system_name,
        p.hour_start,
        p.hour_start_utc,
        e.workload,
        p.cpu_busy_s as cpu_s,
        cast(null as double) as ziip_s,
        p.messages_received_count as transactions,
        cast(null as double) as elapsed_s,
        cast(null as bigint) as io_count
    from {{ ref('int_process__hourly') }} as p
    {{ join_workload_entity('p.system_name', 'p.hour_start', 'nonstop', 'program', 'p.program_file_name',
                            [null_safe_equal('e.secondary_name', 'p.process_name')]) }}
    where {{ touched('p.system_name', 'p.hour_start', 'day') }}
),

hourly as (
    select
        platform,
        system_name,
        hour_start,
        hour_start_utc,
        workload,
        sum(cpu_s) as cpu_s,
        sum(ziip_s) as ziip_s,
        sum(transactions) as transactions,
        sum(elapsed_s) as elapsed_s,
        sum(io_count) as io_count
    from measured
    group by platform, system_name, hour_start, hour_start_utc, workload
)

{{ with_shift('hourly') }}
