-- SMF 119 subtypes 20 (session start) and 21 (session end) of the TN3270E server.
with source as (
    {{ first_copy(source('smf', 'smf119_tn3270_session'), [
        'system_id', 'stack_name', 'record_subtype', 'lu_name', 'start_time', 'end_time'
    ]) }}
)

select
    source_file_id,
    record_ordinal,
    system_id,
    stack_name,
    case record_subtype when 20 then 'start' when 21 then 'end' end as event,
    record_time,
    lu_name,
    application,
    remote_ip,
    cast(remote_port as integer) as remote_port,
    start_time,
    end_time,
    cast(duration_us as double) / 1e6 as duration_s,
    in_bytes,
    out_bytes,
    logmode,
    device_type,
    termination_reason
from source
