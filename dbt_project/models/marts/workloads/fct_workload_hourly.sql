-- Workloads per system and clock hour on both platforms: CPU seconds, share of the system's
-- measured CPU (every workload of the hour, `unassigned` included, adds up to 100 %), transactions,
-- CPU and I/O per transaction, response time (z/OS). A day model (macros/incremental.sql).
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
select
    platform,
    system_name,
    hour_start,
    hour_start_utc,
    shift_date,
    shift,
    shift_name,
    workload,
    cpu_s,
    ziip_s,
    100 * cpu_s / nullif(sum(cpu_s) over (partition by platform, system_name, hour_start_utc), 0) as cpu_share_pct,
    transactions,
    1000 * cpu_s / nullif(transactions, 0) as cpu_ms_per_transaction,
    cast(io_count as double) / nullif(transactions, 0) as io_per_transaction,
    elapsed_s / nullif(transactions, 0) as response_s,
    io_count,
    elapsed_s
from {{ ref('int_workload__hourly') }}
where {{ touched('system_name', 'hour_start', 'day') }}
