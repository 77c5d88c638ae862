-- z/OS TCP connections (SMF 119 subtype 2) per workload, system and the hour they closed: the
-- connections, bytes each way and connected seconds. The workload is the seed workload_definitions'
-- by the connection's service port (source `tcp_port`: the local port when the host served it, the
-- remote one when it was the client) or its remote host (source `host`, e.g. `203.0.113.*`), the
-- highest priority then the longest pattern (macros/workloads.sql workload_of_entities). The command
-- captures (netstat -s/-i/-v/-m, NETSTAT STATS/DEVLINKS, QUERY STATS) count per protocol and
-- interface, not per connection: they hold no ports, so only SMF 119 is mapped by host and port.
-- A day model (macros/incremental.sql): a night maps the connections closed on the touched days.
{{ config(materialized='incremental', unique_key=['system_id', 'hour_start'], meta={'retention': 'hourly'}) }}
with connections as (
    select
        system_id,
        {{ dbt.date_trunc('hour', 'closed_at') }} as hour_start,
        cast(service_port as {{ dbt.type_string() }}) as service_port,
        remote_ip,
        in_bytes,
        out_bytes,
        duration_s
    from ({{ touched_rows(ref('stg_smf__tcp_connection'), 'system_id', 'closed_at') }}) as closed
),

entities as (
    select distinct
        'zos' as platform,
        'tcp_port' as primary_source,
        service_port as primary_name,
        'host' as secondary_source,
        remote_ip as secondary_name
    from connections
),

assigned as (
    {{ workload_of_entities('entities') }}
)

select
    connections.system_id,
    connections.hour_start,
    assigned.workload,
    count(*) as connection_count,
    sum(connections.in_bytes) as in_bytes,
    sum(connections.out_bytes) as out_bytes,
    sum(connections.duration_s) as connected_s
from connections
inner join assigned
    on {{ null_safe_equal('assigned.primary_name', 'connections.service_port') }}
    and {{ null_safe_equal('assigned.secondary_name', 'connections.remote_ip') }}
group by connections.system_id, connections.hour_start, assigned.workload
