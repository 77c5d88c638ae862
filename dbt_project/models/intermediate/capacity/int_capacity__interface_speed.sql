-- The link speed each AIX `netstat -v` capture reports as Media Speed Running ("1000 Mbps Full
-- Duplex"), the day's last per interface: a day model of the capture's day. fct_capacity_daily_peak
-- applies each interface's latest speed to every day, reading one row per interface and day.
{{ config(materialized='incremental', unique_key=['host', 'captured_date']) }}
select
    host,
    entity as interface_name,
    cast(captured_at as date) as captured_date,
    max(captured_at) as captured_at,
    max_by(text_value, captured_at) as media_speed
from {{ ref('int_counter__snapshot') }}
where command = 'netstat -v'
    and section = 'specific'
    and counter_name like '%media_speed_running'
    and {{ regex_contains('text_value', "'^[0-9]+([.][0-9]+)? [MG]bps'") }}
    and {{ touched('host', 'captured_at', 'day') }}
group by host, entity, cast(captured_at as date)
