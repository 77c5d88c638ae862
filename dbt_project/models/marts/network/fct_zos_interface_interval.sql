-- TCP/IP interfaces per SMF interval (SMF 119.6): bytes and packets both ways as totals and rates,
-- errors and discards.
{{ config(materialized='incremental', unique_key=['system_id', 'interval_end']) }}
select
    system_id,
    stack_name,
    interface_name,
    interface_type,
    interval_start,
    interval_end,
    interval_s,
    in_bytes,
    out_bytes,
    in_bytes / nullif(interval_s, 0) as in_bytes_per_s,
    out_bytes / nullif(interval_s, 0) as out_bytes_per_s,
    in_packets,
    out_packets,
    in_errors,
    out_errors,
    in_discards,
    out_discards
from {{ ref('stg_smf__interface') }}
where {{ touched('system_id', 'interval_end', 'day') }}
