-- Network interfaces per host per interval between two consecutive snapshots: packets and bytes
-- per second, error and drop rates. Sources: Linux `netstat -i`, BSD/macOS `netstat -i`/`-ib` (link
-- rows) and AIX `netstat -v` (adapter statistics). Bytes are NULL where the command does not print
-- them (Linux and plain BSD `-i`). Intervals across a counter reset are left out. A day model of the day
-- of the interval's end, as int_counter__rate.
{%- set counters = ['rx_packets', 'tx_packets', 'rx_bytes', 'tx_bytes', 'rx_errors', 'tx_errors',
                    'rx_drops', 'tx_drops', 'collisions'] %}
{{ config(materialized='incremental', unique_key=['host', 'interval_end']) }}
with rates as (
    select *
    from {{ ref('int_counter__rate') }}
    where {{ touched('host', 'interval_end', 'day') }}
        and counter_name in ({% for name in counters %}'{{ name }}'{% if not loop.last %}, {% endif %}{% endfor %})
        and (
            (command in ('netstat -i', 'netstat -ib') and section = 'link')
            or (command = 'netstat -v' and section = 'statistics')
        )
),

intervals as (
    {{ counter_intervals('rates', ['host', 'entity', 'command'], counters) }}
)

select
    host,
    entity as interface_name,
    command,
    interval_start,
    interval_end,
    interval_s,
    {%- for name in counters %}
    {{ name }}_count,
    {%- endfor %}
    rx_packets_count / nullif(interval_s, 0) as rx_packets_per_s,
    tx_packets_count / nullif(interval_s, 0) as tx_packets_per_s,
    rx_bytes_count / nullif(interval_s, 0) as rx_bytes_per_s,
    tx_bytes_count / nullif(interval_s, 0) as tx_bytes_per_s,
    100.0 * (coalesce(rx_errors_count, 0) + coalesce(tx_errors_count, 0))
        / nullif(coalesce(rx_packets_count, 0) + coalesce(tx_packets_count, 0), 0) as error_pct,
    100.0 * (coalesce(rx_drops_count, 0) + coalesce(tx_drops_count, 0))
        / nullif(coalesce(rx_packets_count, 0) + coalesce(tx_packets_count, 0), 0) as drop_pct
from intervals
where not counter_reset
