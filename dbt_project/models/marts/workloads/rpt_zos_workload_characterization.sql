-- Workload characterization per system and month (King 1986, seed 001 L1727: "the three or four
-- applications that account for 80% to 90% of the workload become apparent"). An application is an
-- address space name (a CICS region, a DB2 subsystem, a batch job, a TSO user); ranked by CP CPU
-- seconds. is_major marks the smallest set of top applications that reaches 80 % of the month's CPU.
-- A day model of months (macros/incremental.sql): a night ranks the touched months from their days
-- (int_zos_work__daily, kept when retention deletes the hours), not from every SMF 30 piece of the history.
{%- set month_start = 'cast(' ~ dbt.date_trunc('month', 'day') ~ ' as date)' %}
{{ config(materialized='incremental', unique_key=['system_id', 'month_start'], meta={'touched_grain': 'month'}) }}
with monthly as (
    select
        system_id,
        {{ month_start }} as month_start,
        application,
        max(work_type) as work_type,
        max(service_class) as service_class,
        sum(cpu_s) as cpu_s,
        sum(ziip_s) as ziip_s,
        sum(excp_count) as excp_count
    from {{ ref('int_zos_work__daily') }}
    where {{ touched('system_id', month_start, 'month') }}
    group by system_id, {{ month_start }}, application
),

ranked as (
    select
        *,
        row_number() over (partition by system_id, month_start order by cpu_s desc, application) as cpu_rank,
        100 * cpu_s / sum(cpu_s) over (partition by system_id, month_start) as cpu_share_pct,
        100 * sum(cpu_s) over (
            partition by system_id, month_start
            order by cpu_s desc, application
            rows between unbounded preceding and current row
        ) / sum(cpu_s) over (partition by system_id, month_start) as cumulative_cpu_pct
    from monthly
)

select
    *,
    -- in the set while the applications ranked before it had not yet reached 80 %
    cumulative_cpu_pct - cpu_share_pct < 80 as is_major
from ranked
