-- Workloads per system and calendar month on both platforms. A day model of months
-- (macros/incremental.sql): a night adds up the hours of the touched months.
{%- set month_start = 'cast(' ~ dbt.date_trunc('month', 'hour_start') ~ ' as date)' %}
{{ config(materialized='incremental', unique_key=['system_name', 'month_start'], meta={'touched_grain': 'month'}) }}
with monthly as (
    select
        platform,
        system_name,
        {{ month_start }} as month_start,
        workload,
        count(distinct hour_start) as n_hours,
        {{ workload_sums() }}
    from {{ ref('int_workload__hourly') }}
    where {{ touched('system_name', month_start, 'month') }}
    group by platform, system_name, {{ month_start }}, workload
)

select
    *,
    {{ workload_ratios(['month_start']) }},
    elapsed_s / nullif(transactions, 0) as response_s
from monthly
