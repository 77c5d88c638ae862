-- Glasstone 1986, Fig. 7, the DISCOPEN Summary report, per system and day: physical I/O the disc
-- process did for each file, including index blocks, alternate-key files and secondary partitions,
-- so physical I/O exceeds the logical I/O of rpt_file_summary. Block splits against writes show
-- when a key-sequenced file needs reloading with slack. Names with `#` and records without driver
-- calls are left out, as the report's WHERE does.
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
{{ file_opens_per_day(
    '(select * from ' ~ ref('stg_measure__discopen') ~ ' where ' ~ touched('system_name', 'interval_start', 'day') ~ ') as discopen_records',
    counters=['driver_input_call_count', 'cache_hit_count', 'driver_output_call_count', 'block_split_count',
              'requests_blocked_count'],
    activity_counters=['driver_input_call_count', 'driver_output_call_count'],
    extra_columns=['cast(sum(cache_hit_count) as double) / nullif(sum(driver_input_call_count), 0) as cache_hit_ratio'],
) }}
