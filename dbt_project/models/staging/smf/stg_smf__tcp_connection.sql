-- SMF 119 subtype 2: one row per TCP connection that reached the established state and closed.
with source as (
    {{ first_copy(source('smf', 'smf119_tcp_connection'), [
        'system_id', 'stack_name', 'connection_id', 'start_time', 'end_time', 'remote_ip',
        'remote_port'
    ]) }}
)

select
    source_file_id,
    record_ordinal,
    system_id,
    stack_name,
    record_time as closed_at,
    -- SMF119AP_TTStatus: 0 passive open (we are the server), 1 active open (we are the client)
    case when open_type = 1 then 'client' else 'server' end as role,
    case when open_type = 1 then remote_port else local_port end as service_port,
    remote_ip,
    cast(remote_port as integer) as remote_port,
    local_ip,
    cast(local_port as integer) as local_port,
    -- IPv4 by /24, IPv6 by its first three groups (/48); a '::' inside those groups is not expanded
    case
        when remote_ip like '%:%' then split_part(remote_ip, ':', 1) || ':' || split_part(remote_ip, ':', 2) || ':'
            || split_part(remote_ip, ':', 3) || '::/48'
        else regexp_replace(remote_ip, '[.][0-9]+$', '.0/24')
    end as remote_network,
    start_time,
    end_time,
    start_tod as start_utc,
    end_tod as end_utc,
    -- the STCK pair is exact; the hundredths clock fields are the fallback
    coalesce(
        {{ micros_between('start_tod', 'end_tod') }},
        {{ micros_between('start_time', 'end_time') }}
    ) / 1e6 as duration_s,
    in_bytes,
    out_bytes,
    in_segments,
    out_segments,
    cast(round_trip_ms as integer) as round_trip_ms,
    cast(retransmit_count as integer) as retransmit_count,
    resource_name
from source
