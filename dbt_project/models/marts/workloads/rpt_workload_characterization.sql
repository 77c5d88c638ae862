-- Workload characterization per system and month on both platforms (King 1986, seed 001: "the three
-- or four applications that account for 80% to 90% of the workload become apparent"), by the
-- workloads of the seed workload_definitions. is_major marks the smallest set of top workloads that
-- reaches 80 % of the month's CPU; `unassigned` is ranked like the others, so unmapped work shows.
-- A day model of months (macros/incremental.sql) over the monthly fact: a night ranks the touched months.
{{ config(materialized='incremental', unique_key=['system_name', 'month_start'], meta={'touched_grain': 'month'}) }}
with ranked as (
    select
        platform,
        system_name,
        month_start,
        workload,
        cpu_s,
        transactions,
        cpu_ms_per_transaction,
        cpu_share_pct,
        row_number() over (partition by platform, system_name, month_start order by cpu_s desc, workload) as cpu_rank,
        100 * sum(cpu_s) over (
            partition by platform, system_name, month_start
            order by cpu_s desc, workload
            rows between unbounded preceding and current row
        ) / sum(cpu_s) over (partition by platform, system_name, month_start) as cumulative_cpu_pct
    from {{ ref('fct_workload_monthly') }}
    where {{ touched('system_name', 'month_start', 'month') }}
)

select
    *,
    cumulative_cpu_pct - cpu_share_pct < 80 as is_major
from ranked
