-- RMF CPU activity per logical CPU of each z/OS image and RMF interval: MVS busy, LPAR busy, parked
-- and online share, I/O interrupt and dispatch rates.
{{ config(materialized='incremental', unique_key=['system_id', 'interval_start']) }}
select
    system_id,
    interval_start,
    interval_end,
    interval_s,
    cpu_id,
    cpu_type,
    mvs_busy_pct,
    lpar_busy_pct,
    effective_lpar_busy_pct,
    parked_pct,
    online_pct,
    io_interrupts_per_s,
    dispatches_per_s
from {{ ref('int_zos_cpu__logical_interval') }}
where {{ touched('system_id', 'interval_start', 'day') }}
