-- FILE records (logical I/O of one open of a file), one per open and interval; duplicate copies
-- are dropped.
with source as (
    {{ first_copy(source('measure', 'measure_file'), ['system_name', 'opener_cpu', 'opener_pin', 'file_name', 'from_timestamp', 'to_timestamp']) }}
)

select
    {{ measure_record_columns() }}
    {{ measure_open_columns() }}
    cast(device_type as integer) as device_type,
    {{ measure_interval_columns() }}
    cast(file_busy_time as bigint) as file_busy_us,
    cast(reads as bigint) as read_count,
    cast(writes as bigint) as write_count,
    cast(updates_or_replies as bigint) as update_or_reply_count,
    cast(deletes_or_writereads as bigint) as delete_or_writeread_count,
    cast(info_calls as bigint) as info_call_count,
    cast(messages as bigint) as message_count,
    cast(message_bytes as bigint) as message_bytes
from source
