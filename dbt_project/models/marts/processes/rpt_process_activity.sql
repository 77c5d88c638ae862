-- Glasstone 1986, Fig. 3, Process Activity by Program, per system and day: for each process (a program
-- in a CPU and PIN) that received and sent messages, CPU seconds per transaction (message received), file I/Os (messages
-- sent) per transaction and CPU seconds per I/O. An OLTP transaction typically needs 5 to 20 file
-- I/Os; outside that band the transaction or its requester deserve a look.
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
select
    system_name,
    report_date,
    program_file_name,
    process_name,
    cpu_num,
    pin,
    process_runs,
    cpu_busy_s,
    messages_received_count,
    messages_sent_count,
    cpu_busy_s / messages_received_count as cpu_per_trans_s,
    cast(messages_sent_count as double) / messages_received_count as io_per_trans,
    cpu_busy_s / messages_sent_count as cpu_per_io_s,
    cast(messages_sent_count as double) / messages_received_count not between 5 and 20
        as io_per_trans_outside_oltp_band
from {{ ref('int_process__daily') }}
where messages_received_count > 0
    and messages_sent_count > 0
    and {{ touched('system_name', 'report_date', 'day') }}
