-- SMF 119 subtype 6: one row per interface and SMF interval; counters are deltas for the interval.
with source as (
    {{ first_copy(source('smf', 'smf119_interface'), [
        'system_id', 'stack_name', 'interface_name', 'record_time'
    ]) }}
)

select
    source_file_id,
    record_ordinal,
    system_id,
    stack_name,
    interface_name,
    interface_type,
    device_name,
    home_ip,
    record_time as interval_end,
    {{ add_millis('cast(-interval_us / 1000 as integer)', 'record_time') }} as interval_start,
    cast(interval_us as double) / 1e6 as interval_s,
    cast(mtu_bytes as integer) as mtu_bytes,
    in_bytes,
    out_bytes,
    in_unicast_packets + coalesce(in_broadcast_packets, 0) + coalesce(in_multicast_packets, 0) as in_packets,
    out_unicast_packets + coalesce(out_broadcast_packets, 0) + coalesce(out_multicast_packets, 0) as out_packets,
    in_discards,
    in_errors,
    out_discards,
    out_errors,
    out_queue_length
from source
