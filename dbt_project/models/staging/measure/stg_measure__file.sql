-- FILE records (logical I/O of one open of a file), one per open and interval; duplicate copies
-- are dropped.
{%- set entity %}
    {{ measure_open_columns() }}
    cast(device_type as integer) as device_type,
{%- endset %}
{{ measure_staging('measure_file', ['system_name', 'opener_cpu', 'opener_pin', 'file_name', 'from_timestamp', 'to_timestamp'],
    entity, {
    'file_busy_time': 'file_busy_us', 'reads': 'read_count', 'writes': 'write_count',
    'updates_or_replies': 'update_or_reply_count', 'deletes_or_writereads': 'delete_or_writeread_count',
    'info_calls': 'info_call_count', 'messages': 'message_count', 'message_bytes': 'message_bytes'
}, zoned=false) }}
