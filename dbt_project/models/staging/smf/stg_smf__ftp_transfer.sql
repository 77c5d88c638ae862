-- SMF 119 subtype 70: one row per FTP server transfer (append, delete, rename, retrieve, store).
with source as (
    {{ first_copy(source('smf', 'smf119_ftp_transfer'), [
        'system_id', 'stack_name', 'session_id', 'control_connection_id', 'data_connection_id',
        'start_time', 'end_time', 'command'
    ]) }}
)

select
    source_file_id,
    record_ordinal,
    system_id,
    stack_name,
    record_time as completed_at,
    case operation_code
        when 1 then 'append'
        when 2 then 'delete'
        when 3 then 'rename'
        when 4 then 'retrieve'
        when 5 then 'store'
        when 6 then 'store unique'
    end as operation,
    -- seen from the z/OS host: a client's put arrives, a get leaves; delete and rename move no data
    case
        when operation_code in (1, 5, 6) then 'to_host'
        when operation_code = 4 then 'from_host'
    end as direction,
    command,
    file_type,
    data_type,
    user_id,
    client_ip,
    cast(client_port as integer) as client_port,
    server_ip,
    start_time,
    end_time,
    cast(duration_us as double) / 1e6 as duration_s,
    transfer_bytes,
    cast(nullif(trim(last_reply), '') as integer) as last_reply_code,
    file_name,
    file_name2,
    member_name,
    session_id,
    security_mechanism
from source
