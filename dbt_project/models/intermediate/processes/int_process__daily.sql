-- One row per program in a CPU and PIN and calendar day: what the application-process reports
-- (Glasstone 1986, Figs. 1-3) list, per day instead of per measurement. process_runs counts the
-- processes of the program that ran in the PIN that day.
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
select
    system_name,
    cast(hour_start as date) as report_date,
    cpu_num,
    pin,
    program_file_name,
    sum(process_runs) as process_runs,
    max(process_name) as process_name,
    max(priority) as priority,
    sum(measured_s) as run_time_s,
    sum(cpu_busy_s) as cpu_busy_s,
    sum(messages_received_count) as messages_received_count,
    sum(messages_sent_count) as messages_sent_count
from {{ ref('int_process__hourly') }}
where {{ touched('system_name', 'hour_start', 'day') }}
group by system_name, cast(hour_start as date), cpu_num, pin, program_file_name
