-- Workloads per system and day: the shifts of fct_workload_shift summed, with each workload's share of
-- its system's CPU that day (the workloads of a system and day, `unassigned` included, add up to 100).
-- What the Workloads dashboard's share chart draws. A day model of shift dates (macros/incremental.sql).
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
select
    platform,
    system_name,
    shift_date,
    workload,
    sum(cpu_s) as cpu_s,
    sum(transactions) as transactions,
    100 * sum(cpu_s) / nullif(sum(sum(cpu_s)) over (partition by platform, system_name, shift_date), 0) as cpu_share_pct
from {{ ref('fct_workload_shift') }}
where {{ touched('system_name', 'shift_date', 'shift_date') }}
group by platform, system_name, shift_date, workload
