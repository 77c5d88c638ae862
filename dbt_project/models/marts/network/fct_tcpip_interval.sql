-- TCP per host (and z/OS stack) per interval between two consecutive `netstat -s` or NETSTAT STATS
-- snapshots: segments in and out, retransmission percentage, connection openings, failed attempts
-- and resets. Intervals across a restart are left out (see int_counter__rate). A day model of the day of
-- the interval's end, as int_counter__rate.
{%- set counters = {
    'tcp_in_segs': 'segments_in_count',
    'tcp_out_segs': 'segments_out_count',
    'tcp_retrans_segs': 'segments_retransmitted_count',
    'tcp_in_errs': 'bad_segments_in_count',
    'tcp_active_opens': 'active_opens_count',
    'tcp_passive_opens': 'passive_opens_count',
    'tcp_attempt_fails': 'failed_attempts_count',
    'tcp_estab_resets': 'resets_received_count',
    'tcp_out_rsts': 'resets_sent_count',
} %}
{{ config(materialized='incremental', unique_key=['host', 'interval_end']) }}
with rates as (
    select *
    from {{ ref('int_counter__rate') }}
    where {{ touched('host', 'interval_end', 'day') }}
        and counter_name in ({% for name in counters %}'{{ name }}'{% if not loop.last %}, {% endif %}{% endfor %})
),

intervals as (
    {{ counter_intervals('rates', ['host', 'entity', 'command'], counters) }}
),

established as (
    select host, entity as stack_name, captured_at, value as connections_established_count
    from {{ ref('int_counter__snapshot') }}
    where {{ touched('host', 'captured_at', 'day') }}
        and counter_name = 'tcp_curr_estab'
)

select
    intervals.host,
    intervals.entity as stack_name,
    intervals.command,
    intervals.interval_start,
    intervals.interval_end,
    intervals.interval_s,
    {%- for column in counters.values() %}
    intervals.{{ column }},
    {%- endfor %}
    intervals.segments_in_count / nullif(intervals.interval_s, 0) as segments_in_per_s,
    intervals.segments_out_count / nullif(intervals.interval_s, 0) as segments_out_per_s,
    100.0 * intervals.segments_retransmitted_count / nullif(intervals.segments_out_count, 0) as retransmitted_pct,
    established.connections_established_count
from intervals
left join established
    on established.host = intervals.host
    and established.stack_name is not distinct from intervals.entity
    and established.captured_at = intervals.interval_end
where not intervals.counter_reset
