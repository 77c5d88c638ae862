-- Workloads per system and calendar month on both platforms: the days of int_workload__daily added up
-- (kept when retention deletes the hours). A day model of months (macros/incremental.sql): a night adds
-- up the days of the touched months.
{%- set month_start = 'cast(' ~ dbt.date_trunc('month', 'day') ~ ' as date)' %}
{{ config(materialized='incremental', unique_key=['system_name', 'month_start'], meta={'touched_grain': 'month'}) }}
with monthly as (
    select
        platform,
        system_name,
        {{ month_start }} as month_start,
        workload,
        cast(sum(n_hours) as bigint) as n_hours,
        {{ workload_sums() }}
    from {{ ref('int_workload__daily') }}
    where {{ touched('system_name', month_start, 'month') }}
    group by platform, system_name, {{ month_start }}, workload
)

select
    *,
    {{ workload_ratios(['month_start']) }},
    elapsed_s / nullif(transactions, 0) as response_s
from monthly
