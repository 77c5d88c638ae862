-- Each resource's peak hour per day (or per shift and day, with the dbt var capacity_peak_basis =
-- 'shift'): the busiest hour's utilization, as seed 001 analyses capacity ("the peak hour of the peak
-- day", Evans L1795) and as the ENFORM trend report picks the busiest hour of each day (King, Fig. 2).
-- Resources: each processor (cpu, one server), each system's processors together (processor_pool,
-- as many servers as processors, the hour's average busy), disc volumes and communication lines
-- (busy = read + write busy), and network interfaces: the hour's bytes per second against the link
-- speed (the speed an AIX `netstat -v` capture reports as Media Speed Running, else the seed
-- interface_speeds), max(receive, transmit) for a full-duplex link, whose directions do not compete,
-- receive + transmit for a half-duplex one. The MEASURE and SMF 70 families feed the processor rows
-- through int_cpu__hourly. DASD volumes (SMF 74.1) give their peak hourly response time in ms, not a
-- busy (resource_type dasd_response, int_dasd__daily_peak): peak_pct holds the peak of the resource's
-- measure, which fct_capacity_forecast names by its unit. The device peaks are a day model (int_capacity__device_daily_peak); the
-- interface peaks are computed here on every build, as a new capture's link speed applies to every day,
-- from summaries only: the day models of hourly interface traffic (int_capacity__interface_hourly) and
-- of each day's captured link speed (int_capacity__interface_speed). A table, then, whose inputs are
-- one row per resource and day or per interface and hour.
{%- set by_shift = var('capacity_peak_basis', 'daily') == 'shift' %}

with captured_speeds as (
    -- "1000 Mbps Full Duplex"; the latest capture wins, as an adapter may be renegotiated
    select host, interface_name, max_by(media_speed, captured_at) as media_speed
    from {{ ref('int_capacity__interface_speed') }}
    group by host, interface_name
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
        hour_start,
        sum(rx_bytes) / sum(interval_s) as rx_bytes_per_s,
        sum(tx_bytes) / sum(interval_s) as tx_bytes_per_s
    from {{ ref('int_capacity__interface_hourly') }}
    group by host, interface_name, hour_start
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

interface_resource_hours as (
    select 'interface' as resource_type, system_name, interface_name as resource_name, 1 as servers,
        hour_start, shift, shift_date, busy_pct, cast(null as string) as cpu_type
    from interface_hours
),

interface_peaks as (
    {{ daily_peaks('interface_resource_hours', by_shift) }}
)

select * from {{ ref('int_capacity__device_daily_peak') }}
union all
select * from {{ ref('int_dasd__daily_peak') }}
union all
select * from interface_peaks
