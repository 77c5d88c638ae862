-- Glasstone 1986, Fig. 6, the Disc File Summary report, per system and day: logical I/O on disc files
-- (DEVICE-TYPE 3) that processes opened explicitly, with the number of opens (COUNT: more than one
-- means the file is opened dynamically, an overhead). Names with `#` (temporary files) and records
-- without activity are left out, as the report's WHERE does. An open is one run of consecutive
-- records of the same opener and file.
with records as (
    select * from {{ ref('stg_measure__file') }}
    where coalesce(error_code, 0) <= 0
),

opens as (
    {{ with_run_start('records', ['system_name', 'opener_cpu', 'opener_pin', 'file_name'], 'opened_at') }}
),

active as (
    select *
    from opens
    where device_type = 3
        and file_name not like '%#%'
        and coalesce(read_count, 0) + coalesce(write_count, 0) + coalesce(update_or_reply_count, 0)
            + coalesce(delete_or_writeread_count, 0) + coalesce(info_call_count, 0) > 0
),

per_open as (
    select
        system_name,
        cast(interval_start as date) as report_date,
        file_name,
        opener_cpu,
        opener_pin,
        opened_at,
        sum(read_count) as read_count,
        sum(write_count) as write_count,
        sum(update_or_reply_count) as update_or_reply_count,
        sum(delete_or_writeread_count) as delete_or_writeread_count,
        sum(info_call_count) as info_call_count
    from active
    group by system_name, cast(interval_start as date), file_name, opener_cpu, opener_pin, opened_at
)

select
    system_name,
    report_date,
    file_name,
    count(*) as open_count,
    sum(read_count) as read_count,
    sum(write_count) as write_count,
    sum(update_or_reply_count) as update_or_reply_count,
    sum(delete_or_writeread_count) as delete_or_writeread_count,
    sum(info_call_count) as info_call_count
from per_open
group by system_name, report_date, file_name
