-- TCP/IP for VSE stack health per host per interval between two QUERY STATS snapshots (seed 004,
-- foils D.34-D.40): datagrams in and out, Non-IP frames (should be 0), mis-routed datagrams (should
-- be very small, as a percentage of inbound datagrams), inbound TCP rejections, bytes per second by
-- protocol and application, the daemon and buffer levels at the end of the interval, and the
-- complete-scan share of dispatches from the QUERY ISTATS interval ending within it. The counters
-- cannot be reset while TCP/IP runs: an interval across a restart is left out. A day model of the day
-- of the interval's end, as int_counter__rate; the QUERY ISTATS intervals read are those ending after
-- the first touched interval's start, which may lie on a day not touched.
{%- set counters = {
    'rx_blocks': 'blocks_in_count',
    'rx_datagrams': 'datagrams_in_count',
    'rx_non_ip': 'non_ip_count',
    'rx_misrouted': 'misrouted_count',
    'tx_blocks': 'blocks_out_count',
    'tx_datagrams': 'datagrams_out_count',
    'tcp_inbound_rejections': 'inbound_rejections_count',
    'ftp_files_sent': 'ftp_files_sent_count',
    'ftp_files_received': 'ftp_files_received_count',
} %}
{%- set bytes = ['tcp_bytes_sent', 'tcp_bytes_received', 'ftp_bytes_sent', 'ftp_bytes_received',
                 'telnet_bytes_sent', 'telnet_bytes_received'] %}
{%- set levels = ['ftp_daemons_active', 'telnet_daemons_active', 'telnet_daemons_active_max',
                  'telnet_buffers_active_max'] %}
{{ config(materialized='incremental', unique_key=['host', 'interval_end']) }}
with rates as (
    select * from {{ ref('int_counter__rate') }}
    where command = 'QUERY STATS'
        and {{ touched('host', 'interval_end', 'day') }}
),

intervals as (
    {{ counter_intervals('rates', ['host'], counters, per_s=bytes) }}
),

levels as (
    select
        host,
        captured_at,
        {%- for name in levels %}
        max(value) filter (where counter_name = '{{ name }}') as {{ name }}_count{% if not loop.last %},{% endif %}
        {%- endfor %}
    from {{ ref('int_counter__snapshot') }}
    where command = 'QUERY STATS'
        and {{ touched('host', 'captured_at', 'day') }}
    group by host, captured_at
),

first_starts as (
    select host, min(interval_start) as first_start
    from intervals
    group by host
),

dispatching as (
    select
        istats.host,
        istats.interval_end,
        100.0 * max(istats.delta_value) filter (where istats.counter_name = 'dispatch_complete_scans')
            / nullif(max(istats.delta_value) filter (where istats.counter_name = 'dispatches'), 0) as complete_scans_pct
    from {{ ref('int_counter__rate') }} as istats
    inner join first_starts
        on first_starts.host = istats.host
        and istats.interval_end > first_starts.first_start
    where istats.command = 'QUERY ISTATS' and not istats.counter_reset
    group by istats.host, istats.interval_end
),

health as (
    select
        intervals.*,
        100.0 * intervals.misrouted_count / nullif(intervals.datagrams_in_count, 0) as misrouted_pct,
        {%- for name in levels %}
        levels.{{ name }}_count,
        {%- endfor %}
        dispatching.complete_scans_pct,
        row_number() over (
            partition by intervals.host, intervals.interval_start, intervals.interval_end
            order by dispatching.interval_end desc
        ) as latest_dispatching
    from intervals
    left join levels on levels.host = intervals.host and levels.captured_at = intervals.interval_end
    left join dispatching
        on dispatching.host = intervals.host
        and dispatching.interval_end > intervals.interval_start
        and dispatching.interval_end <= intervals.interval_end
    where not intervals.counter_reset
)

select
    host,
    interval_start,
    interval_end,
    interval_s,
    {%- for column in counters.values() %}
    {{ column }},
    {%- endfor %}
    misrouted_pct,
    {%- for name in bytes %}
    {{ name }}_per_s,
    {%- endfor %}
    {%- for name in levels %}
    {{ name }}_count,
    {%- endfor %}
    complete_scans_pct
from health
where latest_dispatching = 1
