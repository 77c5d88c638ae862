-- PROCESS records, one per process and interval; duplicate copies of a record are dropped.
-- interval_start_utc from the system's zone (a fall-back day's repeated hour holds two intervals).
{%- set entity %}
    {{ measure_process_columns() }}
    userid,
{%- endset %}
{{ measure_staging('measure_process', ['cpu_num', 'pin'],
    entity, {
    'cpu_busy_time': 'cpu_busy_us', 'ready_time': 'ready_us', 'mem_qtime': 'mem_qtime_us',
    'dispatches': 'dispatch_count', 'page_faults': 'page_fault_count', 'vsems': 'vsem_count',
    'recv_qtime': 'recv_qtime_us', 'recv_qlen_max': 'recv_qlen_max', 'messages_sent': 'messages_sent_count',
    'messages_received': 'messages_received_count', 'sent_bytes': 'sent_bytes',
    'received_bytes': 'received_bytes', 'checkpoints': 'checkpoint_count',
    'file_open_calls': 'file_open_call_count'
}) }}
