-- TCP connections per system, stack and hour (of closing, header time, local) by service port and
-- remote network (SMF 119.2): count, bytes both ways, connection duration.
{{ config(materialized='incremental', unique_key=['system_id', 'hour_start']) }}
select
    system_id,
    stack_name,
    {{ dbt.date_trunc('hour', 'closed_at') }} as hour_start,
    role,
    service_port,
    remote_network,
    count(*) as connection_count,
    sum(in_bytes) as in_bytes,
    sum(out_bytes) as out_bytes,
    sum(duration_s) as duration_s,
    avg(duration_s) as avg_duration_s,
    max(duration_s) as max_duration_s,
    sum(retransmit_count) as retransmit_count
from {{ ref('stg_smf__tcp_connection') }}
where {{ touched('system_id', 'closed_at', 'day') }}
group by system_id, stack_name, {{ dbt.date_trunc('hour', 'closed_at') }}, role, service_port, remote_network
