-- Glasstone 1986, Fig. 1, the Process Summary report, per system and day: for each program, how many
-- processes ran it (COUNT: a high count means processes are created dynamically), their CPU seconds
-- and the messages they received over $RECEIVE and sent through the file system.
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
select
    system_name,
    report_date,
    program_file_name,
    sum(process_runs) as process_count,
    sum(cpu_busy_s) as cpu_busy_s,
    sum(messages_received_count) as messages_received_count,
    sum(messages_sent_count) as messages_sent_count
from {{ ref('int_process__daily') }}
where {{ touched('system_name', 'report_date', 'day') }}
group by system_name, report_date, program_file_name
