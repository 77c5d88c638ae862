-- DISCOPEN records (physical I/O by the disc process for one open), one per open and interval;
-- duplicate copies are dropped.
with source as (
    {{ first_copy(source('measure', 'measure_discopen'), ['system_name', 'opener_cpu', 'opener_pin', 'file_name', 'from_timestamp', 'to_timestamp']) }}
)

select
    {{ measure_record_columns() }}
    {{ measure_open_columns() }}
    {{ measure_interval_columns() }}
    cast(driver_input_calls as bigint) as driver_input_call_count,
    cast(driver_output_calls as bigint) as driver_output_call_count,
    cast(cache_hits as bigint) as cache_hit_count,
    cast(cache_write_hits as bigint) as cache_write_hit_count,
    cast(block_splits as bigint) as block_split_count,
    cast(requests as bigint) as request_count,
    cast(requests_blocked as bigint) as requests_blocked_count,
    cast(lockwait_time as bigint) as lockwait_us
from source
