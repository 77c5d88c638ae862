-- RMF CPU activity per z/OS image, CPU type (CP, zIIP) and RMF interval. Totals are ratios of sums,
-- as RMF computes them: MVS busy = sum(busy time) / sum(unparked time); LPAR busy = sum(PDT) / sum(ONT).
-- Intervals are told apart by their UTC start (SMF70LGO): a fall-back day's repeated local hour holds two RMF
-- intervals of each local start.
{{ config(materialized='incremental', unique_key=['system_id', 'interval_start']) }}
select
    system_id,
    interval_start,
    interval_start_utc,
    max(interval_end) as interval_end,
    max(interval_s) as interval_s,
    cpu_type,
    count(*) as logical_cpu_count,
    100 * sum(measured_s - wait_s - parked_s) / nullif(sum(measured_s - parked_s), 0) as mvs_busy_pct,
    100 * sum(dispatch_s) / nullif(sum(online_s), 0) as lpar_busy_pct,
    100 * sum(effective_dispatch_s) / nullif(sum(online_s), 0) as effective_lpar_busy_pct,
    100 * sum(parked_s) / sum(interval_s) as parked_pct,
    sum(measured_s - wait_s - parked_s) as busy_s,
    sum(io_interrupts_per_s) as io_interrupts_per_s
from {{ ref('int_zos_cpu__logical_interval') }}
where {{ touched('system_id', 'interval_start', 'day') }}
group by system_id, interval_start, interval_start_utc, cpu_type
