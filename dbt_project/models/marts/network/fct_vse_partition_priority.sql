-- The TCP/IP partition's place among the VSE partitions, as each PRTY display shows the priorities (lowest
-- first), against seed 004's sequence (L2234): "Select PRTY sequence (low to high): Batch, CICS, TCP/IP,
-- VTAM, POWER" and "TCP/IP partition priority should be as high as required" (L2260). Only VTAM and POWER
-- belong above TCP/IP: every other partition or dynamic class displayed above it (a batch partition, the
-- CICS partition) outranks it against the document's sequence (rule 004-aR20). A partition in TCP/IP's
-- balancing group shares its place (the compromise of L2270: CICS=F7) and does not outrank it. The
-- partitions' roles: the seed host_roles (a host's own row for a partition, else the default `*`). One row per
-- display.
with roles as (
    select system_name, component as partition_id, role
    from {{ ref('host_roles') }}
    where component is not null
),

positions as (
    select
        snapshot.host,
        snapshot.captured_at,
        snapshot.entity as partition_id,
        snapshot.value as position,
        coalesce(own.role, every_host.role) as role
    from {{ ref('int_counter__snapshot') }} as snapshot
    left join roles as own
        on own.system_name = snapshot.host
        and own.partition_id = snapshot.entity
    left join roles as every_host
        on every_host.system_name = '*'
        and every_host.partition_id = snapshot.entity
    where snapshot.command = 'PRTY'
        and snapshot.counter_name = 'priority_position'
),

tcpip as (
    select host, captured_at, partition_id, position
    from positions
    where role = 'tcpip'
)

select
    tcpip.host,
    tcpip.captured_at,
    tcpip.partition_id as tcpip_partition,
    tcpip.position as tcpip_position,
    count(*) as partitions_count,
    sum(case
        when positions.position > tcpip.position
            and coalesce(positions.role, 'other') not in ('vtam', 'vse_power') then 1 else 0
    end) as tcpip_outranked_count,
    max(case
        when positions.role = 'cics' and positions.position > tcpip.position then 1 else 0
    end) = 1 as cics_above_tcpip
from tcpip
inner join positions
    on positions.host = tcpip.host
    and positions.captured_at = tcpip.captured_at
group by tcpip.host, tcpip.captured_at, tcpip.partition_id, tcpip.position
