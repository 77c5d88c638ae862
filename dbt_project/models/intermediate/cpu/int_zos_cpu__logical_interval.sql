-- One row per logical CPU of a reporting z/OS image and RMF interval, with RMF's CPU figures
-- (formats/smf/type70_1.md §8). MVS busy comes from the CPU data section; LPAR busy from the
-- image's own PR/SM logical processor: the one with SMF70VPA = SMF70CID inside the partition whose
-- number SMF70PTN names. Without PR/SM data the CPU counts as online the whole interval.
{{ config(materialized='incremental', unique_key=['system_id', 'interval_start']) }}
with joined as (
    select
        cpus.system_id,
        cpus.interval_start,
        cpus.interval_start_utc,
        control.interval_end,
        control.interval_s,
        control.zos_level,
        cpus.cpu_id,
        coalesce(cpus.cpu_type, logical_processors.cpu_type) as cpu_type,
        cpus.wait_us / 1e6 as wait_s,
        cpus.parked_us / 1e6 as parked_s,
        logical_processors.online_us / 1e6 as online_s,
        logical_processors.dispatch_us / 1e6 as dispatch_s,
        logical_processors.effective_dispatch_us / 1e6 as effective_dispatch_s,
        cpus.io_interrupt_count,
        cpus.dispatch_count,
        logical_processors.wait_completion
    from {{ ref('stg_smf__cpu') }} as cpus
    -- by the UTC instant: the repeated local hour of a fall-back day holds two RMF intervals of each start
    inner join {{ ref('stg_smf__cpu_control') }} as control
        on control.system_id = cpus.system_id
        and control.interval_start_utc = cpus.interval_start_utc
    left join {{ ref('stg_smf__logical_processor') }} as logical_processors
        on {{ is_own_logical_processor('logical_processors', 'cpus', 'control') }}
    where {{ touched('cpus.system_id', 'cpus.interval_start', 'day') }}
),

measured as (
    select
        *,
        -- a CPU online for part of the interval is measured against its online time (type70_1.md §8.2,
        -- our choice where RMF's text was not available)
        case when online_s < interval_s then online_s else interval_s end as measured_s
    from joined
)

select
    system_id,
    interval_start,
    interval_start_utc,
    interval_end,
    interval_s,
    zos_level,
    cpu_id,
    cpu_type,
    wait_s,
    parked_s,
    coalesce(online_s, interval_s) as online_s,
    dispatch_s,
    effective_dispatch_s,
    measured_s,
    -- MVS BUSY = (INT - WAT - PAT) / (INT - PAT): busy share of the unparked time; a CPU parked the
    -- whole interval has none (NULL, not 0)
    100 * (measured_s - wait_s - parked_s) / nullif(measured_s - parked_s, 0) as mvs_busy_pct,
    100 * parked_s / interval_s as parked_pct,
    100 * coalesce(online_s, interval_s) / interval_s as online_pct,
    -- LPAR BUSY = PDT / ONT (dispatch time of the logical processor); effective excludes LPAR management
    100 * dispatch_s / nullif(online_s, 0) as lpar_busy_pct,
    100 * effective_dispatch_s / nullif(online_s, 0) as effective_lpar_busy_pct,
    io_interrupt_count / interval_s as io_interrupts_per_s,
    dispatch_count / interval_s as dispatches_per_s,
    -- with wait completion the LP keeps its physical CPU while z/OS waits: PDT includes wait time
    wait_completion
from measured
