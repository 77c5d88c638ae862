-- PROCESS records, one per process and interval; duplicate copies of a record are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
with source as (
    {{ measure_first_copy(source('measure', 'measure_process'), ['cpu_num', 'pin']) }}
)

select
    {{ measure_record_columns() }}
    {{ measure_process_columns() }}
    userid,
    {{ measure_interval_columns() }}
    interval_start_utc,
    cast(cpu_busy_time as bigint) as cpu_busy_us,
    cast(ready_time as bigint) as ready_us,
    cast(mem_qtime as bigint) as mem_qtime_us,
    cast(dispatches as bigint) as dispatch_count,
    cast(page_faults as bigint) as page_fault_count,
    cast(vsems as bigint) as vsem_count,
    cast(recv_qtime as bigint) as recv_qtime_us,
    cast(recv_qlen_max as bigint) as recv_qlen_max,
    cast(messages_sent as bigint) as messages_sent_count,
    cast(messages_received as bigint) as messages_received_count,
    cast(sent_bytes as bigint) as sent_bytes,
    cast(received_bytes as bigint) as received_bytes,
    cast(checkpoints as bigint) as checkpoint_count,
    cast(file_open_calls as bigint) as file_open_call_count
from source
