-- TCP/IP for VSE connections as SET DIAGNOSE=PERFORM displays them when they end (seed 004 L3441-L3477):
-- one row per display, with the connection's duration and the derived rates the document defines on it
-- (formula 004-aF19): bytes sent per second of the connection, the share of it spent in SWS mode, the
-- bytes resent; and what the rules compare: retransmission mode (entered at the 6th retransmitted segment,
-- L3476), maximum depth mode (no inbound packet accepted until IBBLOCKs are freed, L3477), the longest
-- wait of a block for its ACK (the RFC's 500 ms, L1043). The display's values are totals of the
-- connection, so no delta is taken; times are printed in microseconds.
{%- set fields = {
    'connection_duration': 'duration_us',
    'maximum_turn_around_time': 'max_turnaround_us',
    'byte_count_of_data_sent': 'bytes_sent',
    'byte_count_of_data_resent': 'bytes_resent',
    'sws_mode_total_time': 'sws_time_us',
    'sws_mode_count': 'sws_mode_count',
    'retransmission_mode_count': 'retransmission_mode_count',
    'number_of_retransmissions': 'retransmissions_count',
    'maximum_depth_mode_total_time': 'depth_mode_time_us',
    'maximum_depth_mode_count': 'depth_mode_count',
} %}
with displays as (
    select
        host,
        captured_at,
        section as activity,
        entity as peer,
        {%- for counter, name in fields.items() %}
        max(value) filter (where counter_name = '{{ counter }}') as {{ name }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from {{ ref('int_counter__snapshot') }}
    where command = 'DIAGNOSE=PERFORM'
    group by host, captured_at, section, entity
)

select
    host,
    activity,
    peer,
    -- the display is written when the connection ends: it started its duration earlier
    {{ add_millis('-cast(round(duration_us / 1e3) as bigint)', 'captured_at') }} as interval_start,
    captured_at as interval_end,
    duration_us / 1e6 as duration_s,
    max_turnaround_us / 1e3 as max_turnaround_ms,
    bytes_sent,
    bytes_resent,
    bytes_sent / nullif(duration_us / 1e6, 0) as bytes_sent_per_s,
    100.0 * bytes_resent / nullif(bytes_sent, 0) as resent_pct,
    sws_time_us / 1e6 as sws_time_s,
    100.0 * sws_time_us / nullif(duration_us, 0) as sws_time_pct,
    sws_mode_count,
    retransmission_mode_count,
    retransmissions_count,
    depth_mode_time_us / 1e3 as depth_mode_time_ms,
    depth_mode_count
from displays
