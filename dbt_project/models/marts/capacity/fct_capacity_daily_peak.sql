-- Each resource's peak hour per day (or per shift and day, with the dbt var capacity_peak_basis =
-- 'shift'): the busiest hour's utilization, as seed 001 analyses capacity ("the peak hour of the peak
-- day", Evans L1795) and as the ENFORM trend report picks the busiest hour of each day (King, Fig. 2).
-- Resources: each processor (cpu, one server), each system's processors together (processor_pool,
-- as many servers as processors, the hour's average busy), disc volumes and communication lines
-- (busy = read + write busy), and network interfaces: the hour's bytes per second against the link
-- speed (the speed an AIX `netstat -v` capture reports as Media Speed Running, else the seed
-- interface_speeds), max(receive, transmit) for a full-duplex link, whose directions do not compete,
-- receive + transmit for a half-duplex one. The MEASURE and SMF 70 families feed the processor rows
-- through int_cpu__hourly.
{%- set by_shift = var('capacity_peak_basis', 'daily') == 'shift' %}
{%- set period = 'shift_date' if by_shift else 'cast(hour_start as date)' %}

with cpu_hours as (
    select system_name, cast(cpu_num as string) as cpu_num, hour_start, shift, shift_date, busy_pct
    from {{ ref('int_cpu__hourly') }}
    where busy_pct is not null
),

captured_speeds as (
    -- "1000 Mbps Full Duplex"; the latest capture wins, as an adapter may be renegotiated
    select
        host,
        entity as interface_name,
        max_by(text_value, captured_at) as media_speed
    from {{ ref('int_counter__snapshot') }}
    where command = 'netstat -v'
        and section = 'specific'
        and counter_name like '%media_speed_running'
        and {{ regex_contains('text_value', "'^[0-9]+([.][0-9]+)? [MG]bps'") }}
    group by host, entity
),

interface_speeds as (
    select
        coalesce(captured.host, seed.host) as host,
        coalesce(captured.interface_name, seed.interface_name) as interface_name,
        coalesce(
            try_cast(regexp_extract(captured.media_speed, '^([0-9]+([.][0-9]+)?)', 1) as double)
                * case when captured.media_speed like '% Gbps%' then 1000 else 1 end,
            seed.speed_mbps
        ) as speed_mbps,
        case
            when captured.media_speed ilike '%half duplex%' then 'half'
            when captured.media_speed ilike '%full duplex%' then 'full'
            else coalesce(seed.duplex, 'full')
        end as duplex
    from captured_speeds as captured
    full outer join {{ ref('interface_speeds') }} as seed
        on seed.host = captured.host
        and seed.interface_name = captured.interface_name
),

interface_traffic as (
    select
        host,
        interface_name,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        sum(rx_bytes_per_s * interval_s) / sum(interval_s) as rx_bytes_per_s,
        sum(tx_bytes_per_s * interval_s) / sum(interval_s) as tx_bytes_per_s
    from {{ ref('fct_interface_interval') }}
    where rx_bytes_per_s is not null
        and tx_bytes_per_s is not null
        and interval_s > 0
    group by host, interface_name, {{ dbt.date_trunc('hour', 'interval_start') }}
),

interface_hours as (
    select
        interface_traffic.host as system_name,
        interface_traffic.interface_name,
        interface_traffic.hour_start,
        100 * case speeds.duplex
            when 'half' then interface_traffic.rx_bytes_per_s + interface_traffic.tx_bytes_per_s
            else greatest(interface_traffic.rx_bytes_per_s, interface_traffic.tx_bytes_per_s)
        end * 8 / (speeds.speed_mbps * 1e6) as busy_pct,
        {{ shift_columns('interface_traffic.hour_start') }}
    from interface_traffic
    inner join interface_speeds as speeds
        on speeds.host = interface_traffic.host
        and speeds.interface_name = interface_traffic.interface_name
    {{ join_shift('interface_traffic.hour_start', 'interface_traffic.host') }}
    where speeds.speed_mbps > 0
),

hourly as (
    select
        'cpu' as resource_type,
        system_name,
        'CPU ' || lpad(cpu_num, 2, '0') as resource_name,
        1 as servers,
        hour_start,
        shift,
        shift_date,
        busy_pct
    from cpu_hours
    union all
    select
        'processor_pool' as resource_type,
        system_name,
        'all processors' as resource_name,
        count(*) as servers,
        hour_start,
        max(shift) as shift,
        max(shift_date) as shift_date,
        avg(busy_pct) as busy_pct
    from cpu_hours
    group by system_name, hour_start
    union all
    select 'disc', system_name, device_name, 1, hour_start, shift, shift_date, busy_pct
    from {{ ref('int_disc__hourly') }}
    where busy_pct is not null
    union all
    select 'line', system_name, device_name, 1, hour_start, shift, shift_date, busy_pct
    from {{ ref('int_line__hourly') }}
    where busy_pct is not null
    union all
    select 'interface', system_name, interface_name, 1, hour_start, shift, shift_date, busy_pct
    from interface_hours
)

select
    resource_type,
    system_name,
    resource_name,
    {{ 'shift' if by_shift else 'cast(null as integer)' }} as shift,
    {{ period }} as peak_date,
    max(servers) as servers,
    max(busy_pct) as peak_pct,
    max_by(hour_start, busy_pct) as peak_hour_start,
    count(*) as measured_hours
from hourly
{%- if by_shift %}
where shift is not null
{%- endif %}
group by resource_type, system_name, resource_name, {{ 'shift, ' if by_shift }}{{ period }}
