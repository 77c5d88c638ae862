-- Workloads per system and calendar month on both platforms.
with monthly as (
    select
        platform,
        system_name,
        cast({{ dbt.date_trunc('month', 'hour_start') }} as date) as month_start,
        workload,
        count(distinct hour_start) as n_hours,
        {{ workload_sums() }}
    from {{ ref('int_workload__hourly') }}
    group by platform, system_name, cast({{ dbt.date_trunc('month', 'hour_start') }} as date), workload
)

select
    *,
    {{ workload_ratios(['month_start']) }},
    elapsed_s / nullif(transactions, 0) as response_s
from monthly
