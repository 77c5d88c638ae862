-- TERMINAL records, one per terminal (a subdevice of a line) and interval; duplicate copies are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
{%- set entity %}
    cast(cpu_num as integer) as cpu_num,
    line_name,
    subdev_name,
    cast(logical_device as integer) as logical_device,
{%- endset %}
{{ measure_staging('measure_terminal', ['line_name', 'subdev_name'], entity, {
    'requests': 'request_count', 'reads': 'read_count', 'writes': 'write_count', 'input_bytes': 'input_bytes',
    'output_bytes': 'output_bytes', 'transactions': 'transaction_count', 'response_time': 'response_time_us'
}) }}
