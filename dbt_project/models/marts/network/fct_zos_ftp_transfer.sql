-- FTP server transfers that moved data (SMF 119.70), with their effective data rate in KB/s
-- (1 KB = 1024 bytes, as seed 004 counts: 10M = 10 240 KB).
{{ config(materialized='incremental', unique_key=['system_id', 'completed_at']) }}
select
    system_id,
    stack_name,
    completed_at,
    start_time,
    end_time,
    operation,
    direction,
    command,
    file_type,
    data_type,
    user_id,
    client_ip,
    file_name,
    transfer_bytes,
    duration_s,
    transfer_bytes / 1024.0 / nullif(duration_s, 0) as kb_per_s
from {{ ref('stg_smf__ftp_transfer') }}
where direction is not null
    and {{ touched('system_id', 'completed_at', 'day') }}
