-- The TCP/IP partition's place among the VSE partitions, as each PRTY display shows the priorities (lowest
-- first), against seed 004's sequence (L2234): "Select PRTY sequence (low to high): Batch, CICS, TCP/IP,
-- VTAM, POWER" and "TCP/IP partition priority should be as high as required" (L2260). Only VTAM and POWER
-- belong above TCP/IP: every other partition or dynamic class displayed above it (a batch partition, the
-- CICS partition) outranks it against the document's sequence (rule 004-aR20). A partition in TCP/IP's
-- balancing group shares its place (the compromise of L2270: CICS=F7) and does not outrank it. The
-- partitions' roles: vse_partition_roles(). One row per display.
{%- set roles = vse_partition_roles() %}
with positions as (
    select host, captured_at, entity as partition_id, value as position
    from {{ ref('int_counter__snapshot') }}
    where command = 'PRTY'
        and counter_name = 'priority_position'
),

tcpip as (
    select host, captured_at, position
    from positions
    where partition_id = '{{ roles.tcpip }}'
)

select
    tcpip.host,
    tcpip.captured_at,
    '{{ roles.tcpip }}' as tcpip_partition,
    tcpip.position as tcpip_position,
    count(*) as partitions_count,
    sum(case
        when positions.position > tcpip.position
            and positions.partition_id not in ('{{ roles.vtam }}', '{{ roles.power }}') then 1 else 0
    end) as tcpip_outranked_count,
    max(case
        when positions.partition_id = '{{ roles.cics }}' and positions.position > tcpip.position then 1 else 0
    end) = 1 as cics_above_tcpip
from tcpip
inner join positions
    on positions.host = tcpip.host
    and positions.captured_at = tcpip.captured_at
group by tcpip.host, tcpip.captured_at, tcpip.position
