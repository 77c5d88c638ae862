-- Seed 002's rules on the two ends of a link and the two ports of a network node, across the parameter
-- listings loaded: a link station is a node of a listing that names its partner's control point
-- (adj_cp_name); the listing's own control point (cp_name) is the node's. One row per evaluation:
--   002-R13, 002-F11  a link station whose partner's station is loaded too (its adj_cp_name is the other's
--                     cp_name, and the other way round): the receive window count it grants, beside the
--                     transmit window count of the station that sends to it; fired when it receives more
--                     than the sender transmits before waiting for an acknowledgement (L755-L757, L920:
--                     the acknowledgement then waits on the ack timer, L768)
--   000-R16           the same pair's DLC frame sizes (max_ifield): the link uses the lesser (L435-L439); fired
--                     on the end whose frame is the smaller, the one to raise as far as the link allows
--   002-R25, 002-F17  a port of a network node (node_type NN, network node or gateway) with another port:
--                     its frame size (max_ifield) beside the node's other ports'; fired when they differ
--                     (a BIU routed between them is segmented and its mbufs copied, L567-L569, L1024)
-- Each node's newest listing is its configuration.

with settings as (
    {{ ranked_listing_settings() }}
),

listings as (
    select
        source_file_id,
        max(case when parameter_key = 'cp_name' and nth = 1 then value_text end) as cp_name,
        max(case when parameter_key = 'node_type' and nth = 1 then value_text end) as node_type
    from settings
    group by source_file_id
),

stations as (
    select
        settings.source_file_id,
        settings.node,
        max(case when settings.parameter_key = 'adj_cp_name' and settings.nth = 1 then settings.value_text end)
            as adj_cp_name,
        max(case when settings.parameter_key = 'transmit_window_count' and settings.nth = 1 then settings.value end)
            as transmit_window_count,
        max(case when settings.parameter_key = 'receive_window_count' and settings.nth = 1 then settings.value end)
            as receive_window_count,
        max(case when settings.parameter_key = 'dlc_frame_size' and settings.nth = 1 then settings.value end)
            as frame_bytes
    from settings
    group by settings.source_file_id, settings.node
    having max(case when settings.parameter_key = 'adj_cp_name' then 1 else 0 end) = 1
),

newest as (
    select
        stations.*,
        listings.cp_name,
        listings.node_type,
        row_number() over (partition by stations.node order by stations.source_file_id desc) as recency
    from stations
    inner join listings
        on listings.source_file_id = stations.source_file_id
),

current_stations as (
    select * from newest where recency = 1
),

-- a station and its partner's station: each names the other's control point
pairs as (
    select
        station.source_file_id,
        station.node,
        partner.node as partner_node,
        station.receive_window_count,
        partner.transmit_window_count as partner_transmit_window_count,
        station.frame_bytes,
        partner.frame_bytes as partner_frame_bytes
    from current_stations as station
    inner join current_stations as partner
        on partner.cp_name = station.adj_cp_name
        and partner.adj_cp_name = station.cp_name
),

window_pairs as (
    select source_file_id, node, partner_node, receive_window_count as value,
        partner_transmit_window_count as limit_value
    from pairs
    where receive_window_count is not null
        and partner_transmit_window_count is not null
),

frame_pairs as (
    select source_file_id, node, partner_node, frame_bytes as value, partner_frame_bytes as limit_value
    from pairs
    where frame_bytes is not null
        and partner_frame_bytes is not null
),

network_node_ports as (
    select
        port.source_file_id,
        port.node,
        cast(null as {{ dbt.type_string() }}) as partner_node,
        port.frame_bytes as value,
        -- the other ports' frame sizes: the one farthest from this port's
        case
            when abs(max(other.frame_bytes) - port.frame_bytes) >= abs(min(other.frame_bytes) - port.frame_bytes)
                then max(other.frame_bytes)
            else min(other.frame_bytes)
        end as limit_value
    from current_stations as port
    inner join current_stations as other
        on other.source_file_id = port.source_file_id
        and other.node <> port.node
    where (port.node_type in ('nn', 'network_node', 'networknode', 'gateway'))
        and port.frame_bytes is not null
        and other.frame_bytes is not null
    group by port.source_file_id, port.node, port.frame_bytes
),

evaluations as (
    select '002-R13' as rule_id, window_pairs.*, value > limit_value as fired from window_pairs
    union all
    select '002-F11' as rule_id, window_pairs.*, value > limit_value as fired from window_pairs
    union all
    select '000-R16' as rule_id, frame_pairs.*, value < limit_value as fired from frame_pairs
    union all
    select '002-R25' as rule_id, network_node_ports.*, value <> limit_value as fired from network_node_ports
    union all
    select '002-F17' as rule_id, network_node_ports.*, value <> limit_value as fired from network_node_ports
)

select
    evaluations.rule_id,
    evaluations.source_file_id,
    files.path as listing,
    evaluations.node,
    split_part(evaluations.node, '-', 1) as system_name,
    evaluations.partner_node,
    cast(evaluations.value as double) as value,
    cast(evaluations.limit_value as double) as limit_value,
    evaluations.fired
from evaluations
left join {{ source('manifest', 'ingest_files') }} as files
    on files.file_id = evaluations.source_file_id
