-- LINE records, one per communication line and interval; duplicate copies are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
{{ measure_staging('measure_line', ['device_name'],
    measure_device_columns(), {
    'read_busy_time': 'read_busy_us', 'write_busy_time': 'write_busy_us', 'requests': 'request_count',
    'input_bytes': 'input_bytes', 'output_bytes': 'output_bytes', 'input_data_bytes': 'input_data_bytes',
    'output_data_bytes': 'output_data_bytes', 'reads': 'read_count', 'writes': 'write_count',
    'retries': 'retry_count', 'transactions': 'transaction_count', 'response_time': 'response_time_us'
}) }}
