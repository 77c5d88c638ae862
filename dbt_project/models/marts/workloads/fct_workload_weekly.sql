-- Workloads per system, ISO week and shift: the shift rows of the week's days added up. A week starts
-- on Monday and is keyed by that date (as IZPCA keys its weeks), so it lies between shift and month.
with weekly as (
    select
        platform,
        system_name,
        cast({{ dbt.date_trunc('week', 'shift_date') }} as date) as week_start,
        shift,
        max(shift_name) as shift_name,
        workload,
        count(distinct shift_date) as n_days,
        sum(n_hours) as n_hours,
        sum(cpu_s) as cpu_s,
        sum(ziip_s) as ziip_s,
        sum(transactions) as transactions,
        sum(io_count) as io_count,
        sum(elapsed_s) as elapsed_s
    from {{ ref('fct_workload_shift') }}
    group by platform, system_name, cast({{ dbt.date_trunc('week', 'shift_date') }} as date), shift, workload
)

select
    *,
    100 * cpu_s / nullif(sum(cpu_s) over (partition by platform, system_name, week_start, shift), 0) as cpu_share_pct,
    1000 * cpu_s / nullif(transactions, 0) as cpu_ms_per_transaction,
    cast(io_count as double) / nullif(transactions, 0) as io_per_transaction
from weekly
