-- DISC records, one per disc volume, disc-process CPU and interval; duplicate copies are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
with source as (
    {{ measure_first_copy(source('measure', 'measure_disc'), ['device_name', 'cpu_num']) }}
)

select
    {{ measure_record_columns() }}
    {{ measure_device_columns() }}
    {{ measure_interval_columns() }}
    interval_start_utc,
    cast(request_qtime as bigint) as request_qtime_us,
    cast(requests as bigint) as request_count,
    cast(reads as bigint) as read_count,
    cast(writes as bigint) as write_count,
    cast(input_bytes as bigint) as input_bytes,
    cast(output_bytes as bigint) as output_bytes,
    cast(swaps as bigint) as swap_count,
    cast(requests_blocked as bigint) as requests_blocked_count,
    cast(read_busy_time as bigint) as read_busy_us,
    cast(write_busy_time as bigint) as write_busy_us,
    cast(seek_busy_time as bigint) as seek_busy_us,
    cast(device_qbusy_time as bigint) as device_qbusy_us,
    cast(cache_hits as bigint) as cache_hit_count,
    cast(cache_misses as bigint) as cache_miss_count
from source
