-- What a transaction costs, by component (seed 001, the ATM article: Fig. 6's measurement entities,
-- Fig. 7 and Table 4), per platform, system and day. One total and one transaction count with
-- fct_capacity_cost_per_transaction: both read the hours of int_capacity__transaction_hourly (MEASURE:
-- all the processors' busy seconds and the THROUGHPUT transactions; z/OS: CP busy and the transactions
-- of the application service classes). The components of those hours are the CPU of the workloads by
-- their `component` (seed workload_definitions; unassigned work counts as `system`) and
-- `system_overhead`, the measured CPU no process or service class captured: "the difference between
-- total CPU time and all processes" (Fig. 6 caption, L3441; notes 001b §5.8). So the components of a
-- day add up to total_cpu_ms_per_transaction = 1000 x measured busy seconds / transactions, as Fig. 7's
-- rows add up to its totals. The capture ratio (captured / measured CPU) is the share of the measured
-- CPU that the workload shares (fct_workload_daily) divide; a ratio above 100 (overhead below 0) says
-- the process counters and the processor counters disagree, and is shown, not hidden.
-- A day model (macros/incremental.sql): a night costs the touched days.
{{ config(materialized='incremental', unique_key=['system_name', 'day']) }}
with components as (
    select platform, workload, max(component) as component
    from {{ ref('workload_definitions') }}
    group by platform, workload
),

hours as (
    select platform, system_name, hour_start, hour_start_utc, busy_cpu_s, transactions
    from {{ ref('int_capacity__transaction_hourly') }}
    where {{ touched('system_name', 'hour_start', 'day') }}
),

days as (
    select
        platform,
        system_name,
        cast(hour_start as date) as day,
        sum(busy_cpu_s) as measured_cpu_s,
        sum(transactions) as transactions
    from hours
    group by platform, system_name, cast(hour_start as date)
),

captured as (
    select
        h.platform,
        h.system_name,
        cast(h.hour_start as date) as day,
        coalesce(c.component, 'system') as component,
        sum(w.cpu_s) as cpu_s
    from hours as h
    inner join {{ ref('int_workload__hourly') }} as w
        on w.platform = h.platform and w.system_name = h.system_name and w.hour_start_utc = h.hour_start_utc
    left join components as c
        on c.platform = w.platform and c.workload = w.workload
    where {{ touched('w.system_name', 'w.hour_start', 'day') }}
    group by h.platform, h.system_name, cast(h.hour_start as date), coalesce(c.component, 'system')
),

day_captured as (
    select platform, system_name, day, sum(cpu_s) as captured_cpu_s
    from captured
    group by platform, system_name, day
),

measured as (
    select d.platform, d.system_name, d.day, d.measured_cpu_s, d.transactions, coalesce(c.captured_cpu_s, 0) as captured_cpu_s
    from days as d
    left join day_captured as c
        on c.platform = d.platform and c.system_name = d.system_name and c.day = d.day
),

component_rows as (
    select platform, system_name, day, component, cpu_s
    from captured
    union all
    select platform, system_name, day, 'system_overhead' as component, measured_cpu_s - captured_cpu_s as cpu_s
    from measured
)

select
    r.platform,
    r.system_name,
    r.day,
    r.component,
    r.cpu_s,
    m.transactions,
    1000 * r.cpu_s / nullif(m.transactions, 0) as cpu_ms_per_transaction,
    100 * r.cpu_s / nullif(m.measured_cpu_s, 0) as cost_share_pct,
    m.measured_cpu_s,
    m.captured_cpu_s,
    100 * m.captured_cpu_s / nullif(m.measured_cpu_s, 0) as capture_ratio_pct,
    1000 * m.measured_cpu_s / nullif(m.transactions, 0) as total_cpu_ms_per_transaction
from component_rows as r
inner join measured as m
    on m.platform = r.platform and m.system_name = r.system_name and m.day = r.day
