-- The conformed processor interval: one row per source, system, processor and measurement interval,
-- with the rates of King 1986, Fig. 5. Every source that measures processors becomes rows of this
-- model, so the hourly, shift, threshold and trend models are written once: a new source adds a
-- model with these columns (NULL where it has no equivalent) to the union at the end.
{{ config(materialized='incremental',
          unique_key=['system_name', 'interval_start'], meta={'retention': 'interval'}) }}
{%- set columns = ['source', 'system_name', 'cpu_num', 'cpu_type', 'os_version', 'interval_start',
                   'interval_start_utc', 'interval_end', 'interval_s', 'busy_pct', 'ibusy_pct', 'sbusy_pct', 'qlen', 'mqlen',
                   'swaps_per_s', 'dispatches_per_s', 'loadid'] %}
with measure_records as (
    {{ measured_records(ref('stg_measure__cpu')) }}
),

measure as (
    select
        'measure' as source,
        system_name,
        cpu_num,
        cast(cpu_type as string) as cpu_type,
        os_version,
        interval_start,
        interval_start_utc,
        interval_end,
        cast(delta_time_us as double) / 1e6 as interval_s,
        -- busy counters hold microseconds busy: BUSY := CPU-BUSY-TIME / (DELTA-TIME / 100)
        {{ busy_pct('cpu_busy_us', over='delta_time_us') }} as busy_pct,
        {{ busy_pct('intr_busy_us', over='delta_time_us') }} as ibusy_pct,
        {{ busy_pct('send_busy_us', over='delta_time_us') }} as sbusy_pct,
        -- queue counters hold queue length x microseconds: QLEN := CPU-QTIME / DELTA-TIME
        {{ queue_length('cpu_qtime_us', over='delta_time_us') }} as qlen,
        {{ queue_length('mem_qtime_us', over='delta_time_us') }} as mqlen,
        -- Fig. 5 divides SWAPS by DELTA-TIME (microseconds); the SWAP values Fig. 1 prints (.2 to 7.2)
        -- are per second
        {{ per_s('swap_count', over='delta_time_us') }} as swaps_per_s,
        {{ per_s('dispatch_count', over='delta_time_us') }} as dispatches_per_s,
        loadid
    from measure_records
)

select {{ columns | join(', ') }} from measure
where {{ touched('system_name', 'interval_start', 'day') }}
union all
-- z/OS: SMF type 70 subtype 1, per logical processor
select {{ columns | join(', ') }} from {{ ref('int_cpu__interval_smf') }}
where {{ touched('system_name', 'interval_start', 'day') }}
