-- Glasstone 1986, Fig. 6, the Disc File Summary report, per system and day: logical I/O on disc files
-- (DEVICE-TYPE 3) that processes opened explicitly, with the number of opens (COUNT: more than one
-- means the file is opened dynamically, an overhead). Names with `#` (temporary files) and records
-- without activity are left out, as the report's WHERE does. An open is one run of consecutive
-- records of the same opener and file.
{%- set counters = ['read_count', 'write_count', 'update_or_reply_count', 'delete_or_writeread_count', 'info_call_count'] %}
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
{{ file_opens_per_day('(select * from ' ~ ref('stg_measure__file') ~ ' where ' ~ touched('system_name', 'interval_start', 'day') ~ ') as file_records', counters, activity_counters=counters, where='device_type = 3') }}
