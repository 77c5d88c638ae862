-- What an application transaction costs, by component (seed 001, the ATM article's breakdown:
-- application, TMF/disc processes, line handlers, system overhead), per platform, system and day:
-- each component's CPU milliseconds over the transactions of the application workloads (the
-- `component` of the seed workload_definitions; unassigned work is system overhead). The components
-- of a day add up to the system's measured CPU per application transaction.
-- A day model (macros/incremental.sql): a night costs the touched days.
{{ config(materialized='incremental', unique_key=['system_name', 'day']) }}
with components as (
    select workload, max(component) as component
    from {{ ref('workload_definitions') }}
    group by workload
),

daily as (
    select
        w.platform,
        w.system_name,
        cast(w.hour_start as date) as day,
        coalesce(c.component, 'system') as component,
        sum(w.cpu_s) as cpu_s,
        sum(case when c.component = 'application' then w.transactions else 0 end) as application_transactions
    from {{ ref('fct_workload_hourly') }} as w
    left join components as c
        on c.workload = w.workload
    where {{ touched('w.system_name', 'w.hour_start', 'day') }}
    group by w.platform, w.system_name, cast(w.hour_start as date), coalesce(c.component, 'system')
)

select
    platform,
    system_name,
    day,
    component,
    cpu_s,
    sum(application_transactions) over (partition by platform, system_name, day) as application_transactions,
    1000 * cpu_s / nullif(sum(application_transactions) over (partition by platform, system_name, day), 0)
        as cpu_ms_per_transaction,
    100 * cpu_s / nullif(sum(cpu_s) over (partition by platform, system_name, day), 0) as cost_share_pct
from daily
