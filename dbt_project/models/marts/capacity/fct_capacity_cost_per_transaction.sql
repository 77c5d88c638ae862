-- What a transaction costs in processor time, seed 001's "transaction resource" (Cabell & Mackie,
-- L3487-L3491): CPU ms per transaction = CPUs x utilization x period / transactions, with ETR (the
-- transactions per elapsed second) and ITR (transactions per second of busy processor complex, ETR /
-- utilization; per CPU, 1000 / CPU ms per transaction). Three sources, one row per system and hour or
-- per benchmark run:
--   measure:   the processors of MEASURE, transactions from the USERDEF THROUGHPUT accumulators;
--   smf:       RMF's CP busy, transactions = those ended in the application service classes (72.3);
--   benchmark: the runs of fct_benchmark_run that give utilization and a transaction rate.
-- The hours come from the day model int_capacity__transaction_hourly; this table adds the benchmark
-- runs (which belong to no system and day) and reads one row per system and hour that occurred, not the
-- processors' (period_start_utc tells a fall-back day's repeated clock hour from the first).
-- Why two marts and not one: this one is the total per hour and per run, with ETR and ITR;
-- rpt_workload_cost_per_transaction splits the same hours' total by component per day (what the
-- Workloads dashboard stacks). Both read int_capacity__transaction_hourly, so a day's hours here add up
-- to that day's total there: one transaction count, one total CPU.
with hours as (
    select
        source,
        system_name,
        hour_start as period_start,
        hour_start_utc as period_start_utc,
        cast(null as string) as run_key,
        period_s,
        cpu_count,
        busy_cpu_s,
        transactions
    from {{ ref('int_capacity__transaction_hourly') }}
),

benchmark as (
    select
        'benchmark' as source,
        coalesce(sut_processor_model, sut_platform, study) as system_name,
        coalesce(started_at, cast(run_date as timestamp)) as period_start,
        cast(null as timestamp) as period_start_utc,
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
    period_start_utc,
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
