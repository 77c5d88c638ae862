-- TERMINAL records, one per terminal (a subdevice of a line) and interval; duplicate copies are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
with source as (
    {{ measure_first_copy(source('measure', 'measure_terminal'), ['line_name', 'subdev_name']) }}
)

select
    {{ measure_record_columns() }}
    cast(cpu_num as integer) as cpu_num,
    line_name,
    subdev_name,
    cast(logical_device as integer) as logical_device,
    {{ measure_interval_columns() }}
    interval_start_utc,
    cast(requests as bigint) as request_count,
    cast(reads as bigint) as read_count,
    cast(writes as bigint) as write_count,
    cast(input_bytes as bigint) as input_bytes,
    cast(output_bytes as bigint) as output_bytes,
    cast(transactions as bigint) as transaction_count,
    cast(response_time as bigint) as response_time_us
from source
