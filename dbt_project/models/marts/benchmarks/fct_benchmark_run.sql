-- Every benchmark run (the user's and the documents') with the rates the documents use, each taken as
-- printed when the run gives it and otherwise derived from what it gives: ETR = transactions / elapsed
-- (or 1 / seconds per transaction for a single stream); CPU ms per transaction = engines x utilization
-- / ETR (seed 001 L3487-L3491; seed 003's CPU s per transaction); CPU s per byte = engines x
-- utilization / throughput (seed 003); ITR = ETR / utilization (transactions per second of busy
-- processor complex). The *_source columns say which: printed or derived.
with runs as (
    select * from {{ ref('stg_benchmark__runs') }}
),

rates as (
    select
        *,
        coalesce(
            transactions_per_s,
            transactions / nullif(elapsed_s, 0),
            case when coalesce(sessions, 1) <= 1 and coalesce(users, 1) <= 1 then 1 / nullif(response_time_s, 0) end
        ) as etr_per_s,
        coalesce(sut_engines, 1) * cpu_pct / 100 as busy_engines
    from runs
)

select
    run_key,
    source_kind,
    document,
    doc_table,
    line_start,
    line_end,
    provenance_source,
    study,
    run_label,
    role,
    run_date,
    started_at,
    sut_platform,
    sut_product,
    sut_release,
    sut_service_level,
    sut_processor_model,
    sut_engines,
    sut_mips_per_engine,
    transaction_type,
    bytes_per_transaction,
    users,
    think_time_s,
    sessions,
    repetitions,
    elapsed_s,
    transactions,
    etr_per_s,
    case when transactions_per_s is not null then 'printed' when etr_per_s is not null then 'derived' end as etr_source,
    throughput_bytes_per_s,
    throughput_bytes_per_s * 8 / 1e6 as throughput_mbit_per_s,
    throughput_bytes_per_s / 1024 as throughput_kb_per_s,
    cpu_pct,
    cpu_s,
    coalesce(
        cpu_ms_per_transaction,
        1000 * cpu_s / nullif(transactions, 0),
        1000 * busy_engines / nullif(etr_per_s, 0)
    ) as cpu_ms_per_transaction,
    case
        when cpu_ms_per_transaction is not null then 'printed'
        when coalesce(cpu_s / nullif(transactions, 0), busy_engines / nullif(etr_per_s, 0)) is not null then 'derived'
    end as cpu_ms_per_transaction_source,
    coalesce(
        cpu_s_per_byte,
        busy_engines / nullif(throughput_bytes_per_s, 0),
        cpu_s / nullif(bytes_per_transaction * transactions, 0)
    ) as cpu_s_per_byte,
    coalesce(
        cpu_s_per_byte,
        busy_engines / nullif(throughput_bytes_per_s, 0),
        cpu_s / nullif(bytes_per_transaction * transactions, 0)
    ) * 1048576 as cpu_s_per_mb,
    ki_per_kb,
    response_time_s,
    response_time_pctl_s,
    response_pctl,
    coalesce(itr_per_s, etr_per_s / nullif(cpu_pct / 100, 0)) as itr_per_s,
    coalesce(itr_per_s, etr_per_s / nullif(cpu_pct / 100, 0)) / nullif(coalesce(sut_engines, 1), 0) as itr_per_engine_s,
    parameters_json,
    extra_json,
    printed_values,
    known_exception,
    exception_note,
    tool,
    note
from rates
