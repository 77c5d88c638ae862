-- The hours of what a transaction costs (fct_capacity_cost_per_transaction, and by component
-- rpt_workload_cost_per_transaction): per system and hour, the processors' busy seconds and the
-- transactions that ran, one definition for both marts:
--   measure: all the processors of int_cpu__hourly (MEASURE CPU busy), transactions from the USERDEF
--            THROUGHPUT accumulators (King 1986, Fig. 3): the transactions the application completed,
--            seed 001's "number of transactions completed during the measured period" (L3487), not the
--            $RECEIVE messages of its servers (a transaction calls several servers, L3412);
--   smf:     RMF's CP busy (fct_zos_cpu_type_interval), transactions = those that ended in the hour in
--            the service classes of the application workloads (SMF 72.3, seed workload_definitions
--            component `application`).
-- An hour is one that occurred, keyed by its UTC instant (hour_start_utc) as its inputs are: a fall-back day's
-- repeated clock hour is two rows of 3,600 s each, a spring-forward day has 23 hours.
-- A day model of the hour's day: every input places its rows in the day of the hour they fall in.
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start']) }}
with measure_cpu as (
    select
        'measure' as source,
        system_name,
        hour_start,
        hour_start_utc,
        count(distinct cpu_num) as cpu_count,
        avg(measured_s) as period_s,
        sum(busy_pct / 100 * measured_s) as busy_cpu_s
    from {{ ref('int_cpu__hourly') }}
    where source = 'measure'
        and busy_pct is not null
        and {{ touched('system_name', 'hour_start', 'day') }}
    group by system_name, hour_start, hour_start_utc
),

measure_throughput as (
    select 'measure' as source, system_name, hour_start, hour_start_utc, cast(sum(counter_value) as double) as transactions
    from {{ ref('int_userdef__hourly') }}
    where upper(counter_name) = 'THROUGHPUT'
        and counter_type_name in ('ACCUM', 'FACCUM')
        and {{ touched('system_name', 'hour_start', 'day') }}
    group by system_name, hour_start, hour_start_utc
),

smf_cpu as (
    select
        'smf' as source,
        system_id as system_name,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        {{ hour_start_utc('interval_start', 'interval_start_utc') }} as hour_start_utc,
        max(logical_cpu_count) as cpu_count,
        sum(interval_s) as period_s,
        sum(busy_s) as busy_cpu_s
    from {{ ref('fct_zos_cpu_type_interval') }}
    where cpu_type = 'CP'
        and {{ touched('system_id', 'interval_start', 'day') }}
    group by system_id, {{ dbt.date_trunc('hour', 'interval_start') }}, {{ hour_start_utc('interval_start', 'interval_start_utc') }}
),

smf_transactions as (
    select
        'smf' as source,
        w.system_name,
        w.hour_start,
        w.hour_start_utc,
        cast(sum(w.transactions) as double) as transactions
    from {{ ref('int_workload__hourly') }} as w
    inner join (
        select distinct workload from {{ ref('workload_definitions') }}
        where platform = 'zos' and component = 'application'
    ) as a
        on a.workload = w.workload
    where w.platform = 'zos'
        and {{ touched('w.system_name', 'w.hour_start', 'day') }}
    group by w.system_name, w.hour_start, w.hour_start_utc
)

select
    cpu.source,
    case when cpu.source = 'measure' then 'nonstop' else 'zos' end as platform,
    cpu.system_name,
    cpu.hour_start,
    cpu.hour_start_utc,
    cpu.period_s,
    cpu.cpu_count,
    cpu.busy_cpu_s,
    work.transactions
from (select * from measure_cpu union all select * from smf_cpu) as cpu
inner join (select * from measure_throughput union all select * from smf_transactions) as work
    using (source, system_name, hour_start, hour_start_utc)
