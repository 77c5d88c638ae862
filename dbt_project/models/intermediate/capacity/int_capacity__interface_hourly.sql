-- Each interface's traffic per hour as fct_capacity_daily_peak weighs it: the intervals of
-- fct_interface_interval that start in the hour, their bytes and seconds summed. A day model of the day
-- of the interval's end, as fct_interface_interval: an hour's intervals may end on two days (the last
-- interval of a day ends after midnight, or captures paused for days), so an hour has a row per day
-- its intervals end on, and the peak adds them up. A night rebuilds only the touched days' rows.
{{ config(materialized='incremental', unique_key=['host', 'interval_end_date']) }}
select
    host,
    interface_name,
    cast(interval_end as date) as interval_end_date,
    {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
    sum(rx_bytes_per_s * interval_s) as rx_bytes,
    sum(tx_bytes_per_s * interval_s) as tx_bytes,
    sum(interval_s) as interval_s
from {{ ref('fct_interface_interval') }}
where rx_bytes_per_s is not null
    and tx_bytes_per_s is not null
    and interval_s > 0
    and {{ touched('host', 'interval_end', 'day') }}
group by host, interface_name, cast(interval_end as date), {{ dbt.date_trunc('hour', 'interval_start') }}
