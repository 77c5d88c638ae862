-- CPU records, one per processor and interval. A MEASCOM LIST run twice lands twice in raw:
-- keep the first copy ingested. interval_start_utc from the system's zone (a fall-back day's repeated hour
-- holds two intervals of each processor).
with source as (
    {{ measure_first_copy(source('measure', 'measure_cpu'), ['cpu_num']) }}
)

select
    {{ measure_record_columns() }}
    cast(cpu_num as integer) as cpu_num,
    {{ measure_interval_columns() }}
    interval_start_utc,
    cast(cpu_type as integer) as cpu_type,
    cast(memory_pages as integer) as memory_pages,
    cast(pcbs as integer) as pcb_count,
    cast(cpu_busy_time as bigint) as cpu_busy_us,
    cast(cpu_qtime as bigint) as cpu_qtime_us,
    cast(cpu_qlen_max as bigint) as cpu_qlen_max,
    cast(mem_qtime as bigint) as mem_qtime_us,
    cast(mem_qlen_max as bigint) as mem_qlen_max,
    cast(dispatches as bigint) as dispatch_count,
    cast(swaps as bigint) as swap_count,
    cast(intr_busy_time as bigint) as intr_busy_us,
    cast(process_ovhd as bigint) as process_ovhd_us,
    cast(send_busy_time as bigint) as send_busy_us,
    cast(disc_ios as bigint) as disc_io_count,
    cast(cache_hits as bigint) as cache_hit_count,
    cast(page_requests as bigint) as page_request_count,
    cast(page_scans as bigint) as page_scan_count,
    cast(transactions as bigint) as transaction_count,
    cast(response_time as bigint) as response_time_us,
    cast(ending_free_mem as bigint) as ending_free_mem_pages
from source
