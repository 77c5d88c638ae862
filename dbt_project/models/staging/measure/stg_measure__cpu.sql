-- CPU records, one per processor and interval. A MEASCOM LIST run twice lands twice in raw:
-- keep the first copy ingested. interval_start_utc from the system's zone (a fall-back day's repeated hour
-- holds two intervals of each processor).
{{ measure_staging('measure_cpu', ['cpu_num'],
    "cast(cpu_num as integer) as cpu_num,", {
    'cpu_type': ['cpu_type', 'integer'], 'memory_pages': ['memory_pages', 'integer'],
    'pcbs': ['pcb_count', 'integer'], 'cpu_busy_time': 'cpu_busy_us',
    'cpu_qtime': 'cpu_qtime_us', 'cpu_qlen_max': 'cpu_qlen_max', 'mem_qtime': 'mem_qtime_us',
    'mem_qlen_max': 'mem_qlen_max', 'dispatches': 'dispatch_count', 'swaps': 'swap_count',
    'intr_busy_time': 'intr_busy_us', 'process_ovhd': 'process_ovhd_us', 'send_busy_time': 'send_busy_us',
    'disc_ios': 'disc_io_count', 'cache_hits': 'cache_hit_count', 'page_requests': 'page_request_count',
    'page_scans': 'page_scan_count', 'transactions': 'transaction_count', 'response_time': 'response_time_us',
    'ending_free_mem': 'ending_free_mem_pages'
}) }}
