-- Glasstone 1986, Figs. 4 and 5, the Process Disc File Activity report, per system and day: the logical
-- I/O each process did on each disc file it opened (FILE records of DEVICE-TYPE 3), joined to the
-- process as the ENFORM query joins them: opener CPU and PIN equal to the process's, and the file's
-- record within the process's time. A MEASURE measurement writes a record per interval for the
-- process and for each of its opens, so a file's record covers the same interval as its opener's
-- record or a part of it: the bounds are inclusive (the figure's strict FROM-TIMESTAMP < FILE.FROM
-- holds only for a FILE listing started after the process, Fig. 4). READS, WRITES, DELETE OR
-- WRITEREAD and INFO CALLS have the report's subtotal per process (SUBTOTAL OVER PROCESS.FROM-TIMESTAMP).
-- A process is a run of consecutive records of one program in a CPU and PIN; one that runs across
-- midnight starts, for the report of the next day, at that day's first record.
{%- set counters = ['read_count', 'write_count', 'delete_or_writeread_count', 'info_call_count'] %}
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
with process_records as (
    {{ measured_day_records(ref('stg_measure__process')) }}
),

process_runs as (
    {{ with_run_start('process_records', ['system_name', 'report_date', 'cpu_num', 'pin'], 'process_from',
                      ['program_file_name']) }}
),

processes as (
    select
        system_name, report_date, cpu_num, pin, process_from,
        max(process_name) as process_name,
        max(program_file_name) as program_file_name,
        max(interval_end) as process_to,
        cast(sum(cpu_busy_us) as double) / 1e6 as cpu_busy_s,
        sum(messages_sent_count) as messages_sent_count,
        sum(messages_received_count) as messages_received_count
    from process_runs
    group by system_name, report_date, cpu_num, pin, process_from
),

file_records as (
    select *
    from {{ ref('stg_measure__file') }}
    where device_type = 3
        and coalesce(error_code, 0) <= 0
        and {{ touched('system_name', 'interval_start', 'day') }}
),

per_file as (
    select
        runs.system_name, runs.report_date, runs.cpu_num, runs.pin, runs.process_from, files.file_name,
        min(files.interval_start) as file_from,
        {%- for counter in counters %}
        sum(files.{{ counter }}) as {{ counter }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from process_runs as runs
    inner join file_records as files
        on files.system_name = runs.system_name
        and files.opener_cpu = runs.cpu_num
        and files.opener_pin = runs.pin
        and files.interval_start >= runs.interval_start
        and files.interval_end <= runs.interval_end
    group by runs.system_name, runs.report_date, runs.cpu_num, runs.pin, runs.process_from, files.file_name
)

select
    processes.system_name,
    processes.report_date,
    processes.cpu_num,
    processes.pin,
    processes.process_name,
    processes.program_file_name,
    processes.process_from,
    processes.process_to,
    processes.cpu_busy_s,
    processes.messages_sent_count,
    processes.messages_received_count,
    per_file.file_name,
    per_file.file_from,
    {%- for counter in counters %}
    per_file.{{ counter }},
    {%- endfor %}
    {%- for counter in counters %}
    sum(per_file.{{ counter }}) over process_files as {{ counter | replace('_count', '') }}_subtotal{% if not loop.last %},{% endif %}
    {%- endfor %}
from processes
inner join per_file
    on {{ same_values('per_file', 'processes', ['system_name', 'report_date', 'cpu_num', 'pin', 'process_from']) }}
window process_files as (
    partition by processes.system_name, processes.report_date, processes.cpu_num, processes.pin,
        processes.process_from
)
