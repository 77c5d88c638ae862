-- One row per communication line and clock hour: busy, throughput and the average response time of
-- the terminal transactions the line carried.
with records as (
    {{ measured_records(ref('stg_measure__line')) }}
),

hourly as (
    select
        system_name,
        device_name,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        max_by(cpu_num, interval_start) as cpu_num,
        max_by(device_type, interval_start) as device_type,
        cast(sum(delta_time_us) as double) / 1e6 as measured_s,
        100 * cast(sum(read_busy_us) + sum(write_busy_us) as double) / sum(delta_time_us) as busy_pct,
        100 * cast(sum(read_busy_us) as double) / sum(delta_time_us) as read_busy_pct,
        100 * cast(sum(write_busy_us) as double) / sum(delta_time_us) as write_busy_pct,
        cast(sum(request_count) as double) / (sum(delta_time_us) / 1e6) as requests_per_s,
        cast(sum(input_bytes) + sum(output_bytes) as double) / (sum(delta_time_us) / 1e6) as bytes_per_s,
        cast(sum(input_data_bytes) + sum(output_data_bytes) as double) / (sum(delta_time_us) / 1e6) as data_bytes_per_s,
        cast(sum(retry_count) as double) / (sum(delta_time_us) / 1e6) as retries_per_s,
        cast(sum(transaction_count) as double) / (sum(delta_time_us) / 1e6) as transactions_per_s,
        -- response time accumulates per transaction: the average is RESPONSE-TIME / TRANSACTIONS
        cast(sum(response_time_us) as double) / nullif(sum(transaction_count), 0) / 1e3 as response_ms,
        sum(transaction_count) as transaction_count
    from records
    group by system_name, device_name, {{ dbt.date_trunc('hour', 'interval_start') }}
)

{{ with_shift('hourly') }}
