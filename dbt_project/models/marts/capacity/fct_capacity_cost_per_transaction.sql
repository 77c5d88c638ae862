-- What a transaction costs in processor time, seed 001's "transaction resource" (Cabell & Mackie,
-- L3487-L3491): CPU ms per transaction = CPUs x utilization x period / transactions, with ETR (the
-- transactions per elapsed second) and ITR (transactions per second of busy processor complex, ETR /
-- utilization; per CPU, 1000 / CPU ms per transaction). Three sources, one row per system and hour or
-- per benchmark run:
--   measure:   the processors of int_cpu__hourly, transactions from the USERDEF THROUGHPUT
--              accumulators (King 1986, Fig. 3) that ran in the hour;
--   smf:       RMF's CP busy (fct_zos_cpu_type_interval), transactions = the jobs that ended in the
--              hour (SMF 30 subtype 5);
--   benchmark: the runs of fct_benchmark_run that give utilization and a transaction rate.
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
    group by system_name, hour_start
),

measure_throughput as (
    select 'measure' as source, system_name, hour_start, cast(sum(counter_value) as double) as transactions
    from {{ ref('int_userdef__hourly') }}
    where upper(counter_name) = 'THROUGHPUT'
        and counter_type_name in ('ACCUM', 'FACCUM')
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
    group by system_id, {{ dbt.date_trunc('hour', 'period_end') }}
),

hours as (
    select
        cpu.source,
        cpu.system_name,
        cpu.hour_start as period_start,
        cast(null as string) as run_key,
        cpu.period_s,
        cpu.cpu_count,
        cpu.busy_cpu_s,
        work.transactions
    from (select * from measure_cpu union all select * from smf_cpu) as cpu
    inner join (select * from measure_throughput union all select * from smf_jobs) as work
        using (source, system_name, hour_start)
),

benchmark as (
    select
        'benchmark' as source,
        coalesce(sut_processor_model, sut_platform, study) as system_name,
        coalesce(started_at, cast(run_date as timestamp)) as period_start,
        run_key,
        coalesce(elapsed_s, 1.0) as period_s,
        coalesce(sut_engines, 1) as cpu_count,
        coalesce(sut_engines, 1) * cpu_pct / 100 * coalesce(elapsed_s, 1.0) as busy_cpu_s,
        -- a rate without an elapsed time is the transactions of one second
        coalesce(transactions, etr_per_s * elapsed_s, etr_per_s) as transactions
    from {{ ref('fct_benchmark_run') }}
    where cpu_pct is not null
        and coalesce(transactions, etr_per_s) > 0
        and (transactions is null or elapsed_s is not null)
),

unioned as (
    select * from hours
    union all
    select * from benchmark
)

select
    source,
    system_name,
    period_start,
    run_key,
    period_s,
    cpu_count,
    100 * busy_cpu_s / nullif(cpu_count * period_s, 0) as busy_pct,
    transactions,
    transactions / nullif(period_s, 0) as etr_per_s,
    1000 * busy_cpu_s / nullif(transactions, 0) as cpu_ms_per_transaction,
    (transactions / nullif(period_s, 0)) / nullif(busy_cpu_s / nullif(cpu_count * period_s, 0), 0) as itr_per_s,
    1000 / nullif(1000 * busy_cpu_s / nullif(transactions, 0), 0) as itr_per_cpu_s
from unioned
where transactions > 0
