-- Workloads per system and calendar month on both platforms.
with monthly as (
    select
        platform,
        system_name,
        cast({{ dbt.date_trunc('month', 'hour_start') }} as date) as month_start,
        workload,
        count(distinct hour_start) as n_hours,
        sum(cpu_s) as cpu_s,
        sum(ziip_s) as ziip_s,
        sum(transactions) as transactions,
        sum(io_count) as io_count,
        sum(elapsed_s) as elapsed_s
    from {{ ref('int_workload__hourly') }}
    group by platform, system_name, cast({{ dbt.date_trunc('month', 'hour_start') }} as date), workload
)

select
    *,
    100 * cpu_s / nullif(sum(cpu_s) over (partition by platform, system_name, month_start), 0) as cpu_share_pct,
    1000 * cpu_s / nullif(transactions, 0) as cpu_ms_per_transaction,
    cast(io_count as double) / nullif(transactions, 0) as io_per_transaction,
    elapsed_s / nullif(transactions, 0) as response_s
from monthly
