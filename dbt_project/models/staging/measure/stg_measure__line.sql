-- LINE records, one per communication line and interval; duplicate copies are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
with source as (
    {{ measure_first_copy(source('measure', 'measure_line'), ['device_name']) }}
)

select
    {{ measure_record_columns() }}
    {{ measure_device_columns() }}
    {{ measure_interval_columns() }}
    interval_start_utc,
    cast(read_busy_time as bigint) as read_busy_us,
    cast(write_busy_time as bigint) as write_busy_us,
    cast(requests as bigint) as request_count,
    cast(input_bytes as bigint) as input_bytes,
    cast(output_bytes as bigint) as output_bytes,
    cast(input_data_bytes as bigint) as input_data_bytes,
    cast(output_data_bytes as bigint) as output_data_bytes,
    cast(reads as bigint) as read_count,
    cast(writes as bigint) as write_count,
    cast(retries as bigint) as retry_count,
    cast(transactions as bigint) as transaction_count,
    cast(response_time as bigint) as response_time_us
from source
