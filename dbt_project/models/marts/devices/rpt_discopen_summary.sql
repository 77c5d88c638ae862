-- Glasstone 1986, Fig. 7, the DISCOPEN Summary report, per system and day: physical I/O the disc
-- process did for each file, including index blocks, alternate-key files and secondary partitions,
-- so physical I/O exceeds the logical I/O of rpt_file_summary. Block splits against writes show
-- when a key-sequenced file needs reloading with slack. Names with `#` and records without driver
-- calls are left out, as the report's WHERE does.
with records as (
    select * from {{ ref('stg_measure__discopen') }}
    where coalesce(error_code, 0) <= 0
),

opens as (
    {{ with_run_start('records', ['system_name', 'opener_cpu', 'opener_pin', 'file_name'], 'opened_at') }}
),

active as (
    select *
    from opens
    where file_name not like '%#%'
        and coalesce(driver_input_call_count, 0) + coalesce(driver_output_call_count, 0) > 0
),

per_open as (
    select
        system_name,
        cast(interval_start as date) as report_date,
        file_name,
        opener_cpu,
        opener_pin,
        opened_at,
        sum(driver_input_call_count) as driver_input_call_count,
        sum(cache_hit_count) as cache_hit_count,
        sum(driver_output_call_count) as driver_output_call_count,
        sum(block_split_count) as block_split_count,
        sum(requests_blocked_count) as requests_blocked_count
    from active
    group by system_name, cast(interval_start as date), file_name, opener_cpu, opener_pin, opened_at
)

select
    system_name,
    report_date,
    file_name,
    count(*) as open_count,
    sum(driver_input_call_count) as driver_input_call_count,
    sum(cache_hit_count) as cache_hit_count,
    sum(driver_output_call_count) as driver_output_call_count,
    sum(block_split_count) as block_split_count,
    sum(requests_blocked_count) as requests_blocked_count,
    cast(sum(cache_hit_count) as double) / nullif(sum(driver_input_call_count), 0) as cache_hit_ratio
from per_open
group by system_name, report_date, file_name
