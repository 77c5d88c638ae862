-- One row per communication line and clock hour: busy, throughput and the average response time of
-- the terminal transactions the line carried. Hours are keyed by their UTC instant (hour_start_utc): a
-- fall-back day's repeated clock hour is two rows.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with records as (
    {{ measured_touched_records(ref('stg_measure__line')) }}
),

hourly as (
    select
        system_name, device_name, {{ measure_clock_hour() }},
        max_by(cpu_num, interval_start_utc) as cpu_num,
        max_by(device_type, interval_start_utc) as device_type,
        cast(sum(delta_time_us) as double) / 1e6 as measured_s,
        {{ busy_pct('sum(read_busy_us) + sum(write_busy_us)') }} as busy_pct,
        {{ busy_pct('sum(read_busy_us)') }} as read_busy_pct,
        {{ busy_pct('sum(write_busy_us)') }} as write_busy_pct,
        {{ per_s('sum(request_count)') }} as requests_per_s,
        {{ per_s('sum(input_bytes) + sum(output_bytes)') }} as bytes_per_s,
        {{ per_s('sum(input_data_bytes) + sum(output_data_bytes)') }} as data_bytes_per_s,
        {{ per_s('sum(retry_count)') }} as retries_per_s,
        {{ per_s('sum(transaction_count)') }} as transactions_per_s,
        -- response time accumulates per transaction: the average is RESPONSE-TIME / TRANSACTIONS
        cast(sum(response_time_us) as double) / nullif(sum(transaction_count), 0) / 1e3 as response_ms,
        sum(transaction_count) as transaction_count
    from records
    group by system_name, device_name, {{ measure_clock_hour(named=false) }}
)

{{ with_shift('hourly') }}
