-- The hours of fct_capacity_cost_per_transaction: per system and hour, the processors' busy seconds and
-- the transactions that ran, from two sources:
--   measure: the processors of int_cpu__hourly, transactions from the USERDEF THROUGHPUT accumulators
--            (King 1986, Fig. 3) that ran in the hour;
--   smf:     RMF's CP busy (fct_zos_cpu_type_interval), transactions = the jobs that ended in the hour
--            (SMF 30 subtype 5).
-- A day model of the hour's day: every input places its rows in the day of the hour they fall in.
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start']) }}
with measure_cpu as (
    select
        'measure' as source,
        system_name,
        hour_start,
        count(distinct cpu_num) as cpu_count,
        avg(measured_s) as period_s,
        sum(busy_pct / 100 * measured_s) as busy_cpu_s
    from {{ ref('int_cpu__hourly') }}
    where busy_pct is not null
        and {{ touched('system_name', 'hour_start', 'day') }}
    group by system_name, hour_start
),

measure_throughput as (
    select 'measure' as source, system_name, hour_start, cast(sum(counter_value) as double) as transactions
    from {{ ref('int_userdef__hourly') }}
    where upper(counter_name) = 'THROUGHPUT'
        and counter_type_name in ('ACCUM', 'FACCUM')
        and {{ touched('system_name', 'hour_start', 'day') }}
    group by system_name, hour_start
),

smf_cpu as (
    select
        'smf' as source,
        system_id as system_name,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        max(logical_cpu_count) as cpu_count,
        sum(interval_s) as period_s,
        sum(busy_s) as busy_cpu_s
    from {{ ref('fct_zos_cpu_type_interval') }}
    where cpu_type = 'CP'
        and {{ touched('system_id', 'interval_start', 'day') }}
    group by system_id, {{ dbt.date_trunc('hour', 'interval_start') }}
),

smf_jobs as (
    select
        'smf' as source,
        system_id as system_name,
        {{ dbt.date_trunc('hour', 'period_end') }} as hour_start,
        cast(count(distinct job_id || '|' || coalesce(job_name, '')) as double) as transactions
    from {{ ref('stg_smf__work') }}
    where record_subtype = 5
        and {{ touched('system_id', 'period_end', 'day') }}
    group by system_id, {{ dbt.date_trunc('hour', 'period_end') }}
)

select
    cpu.source,
    cpu.system_name,
    cpu.hour_start,
    cpu.period_s,
    cpu.cpu_count,
    cpu.busy_cpu_s,
    work.transactions
from (select * from measure_cpu union all select * from smf_cpu) as cpu
inner join (select * from measure_throughput union all select * from smf_jobs) as work
    using (source, system_name, hour_start)
