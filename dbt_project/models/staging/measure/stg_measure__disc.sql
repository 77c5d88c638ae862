-- DISC records, one per disc volume, disc-process CPU and interval; duplicate copies are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
{{ measure_staging('measure_disc', ['device_name', 'cpu_num'],
    measure_device_columns(), {
    'request_qtime': 'request_qtime_us', 'requests': 'request_count', 'reads': 'read_count',
    'writes': 'write_count', 'input_bytes': 'input_bytes', 'output_bytes': 'output_bytes',
    'swaps': 'swap_count', 'requests_blocked': 'requests_blocked_count', 'read_busy_time': 'read_busy_us',
    'write_busy_time': 'write_busy_us', 'seek_busy_time': 'seek_busy_us',
    'device_qbusy_time': 'device_qbusy_us', 'cache_hits': 'cache_hit_count', 'cache_misses': 'cache_miss_count'
}) }}
