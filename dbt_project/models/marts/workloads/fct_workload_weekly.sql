-- Workloads per system, ISO week and shift: the shift rows of the week's days added up. A week starts
-- on Monday and is keyed by that date (as IZPCA keys its weeks), so it lies between shift and month.
-- A day model of weeks (macros/incremental.sql): a night adds up the shift rows of the touched weeks.
{%- set week_start = 'cast(' ~ dbt.date_trunc('week', 'shift_date') ~ ' as date)' %}
{{ config(materialized='incremental', unique_key=['system_name', 'week_start'], meta={'touched_grain': 'week'}) }}
with weekly as (
    select
        platform,
        system_name,
        {{ week_start }} as week_start,
        shift,
        max(shift_name) as shift_name,
        workload,
        count(distinct shift_date) as n_days,
        sum(n_hours) as n_hours,
        {{ workload_sums() }}
    from {{ ref('fct_workload_shift') }}
    where {{ touched('system_name', week_start, 'week') }}
    group by platform, system_name, {{ week_start }}, shift, workload
)

select
    *,
    {{ workload_ratios(['week_start', 'shift']) }}
from weekly
