-- DISCOPEN records (physical I/O by the disc process for one open), one per open and interval;
-- duplicate copies are dropped.
{{ measure_staging('measure_discopen', ['system_name', 'opener_cpu', 'opener_pin', 'file_name', 'from_timestamp', 'to_timestamp'],
    measure_open_columns(), {
    'driver_input_calls': 'driver_input_call_count', 'driver_output_calls': 'driver_output_call_count',
    'cache_hits': 'cache_hit_count', 'cache_write_hits': 'cache_write_hit_count',
    'block_splits': 'block_split_count', 'requests': 'request_count',
    'requests_blocked': 'requests_blocked_count', 'lockwait_time': 'lockwait_us'
}, zoned=false) }}
