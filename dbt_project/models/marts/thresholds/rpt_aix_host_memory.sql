-- thewall against RAM on the RS/6000 side of a channel attachment (seed 002 L1089, rule 002-R21: "An AIX
-- parameter that specifies the maximum amount of memory that may be used for communication buffers (mbufs).
-- This should be set to 25% of memory"), one row per channel-attached host whose listings give both: thewall
-- of no -a (in KB, L842) and the RAM of lsattr -El sys0 (realmem, in KB, L822), each host's listing loaded
-- last. A host is channel-attached when a CS/AIX listing of it defines a link station or port over an ESCON
-- or block multiplexer channel (L1047: "a direct channel attachment to a host over ESCON and BLKMUX adapters");
-- the rule is the channel section's, so another host is not judged. fired = thewall below 25 % of RAM.
with settings as (
    select
        params.node,
        params.parameter_key,
        params.value,
        lower(params.value_text) as value_text,
        -- the host the listing's file name gives (<host>__<command>__<time>), as the listing parsers name the
        -- node of no -a and lsattr; a CS/AIX listing's nodes are its link stations
        split_part(files.file_name, '__', 1) as file_host,
        row_number() over (
            partition by params.node, params.parameter_key order by params.source_file_id desc, params.line_number
        ) as nth
    from {{ ref('stg_listings__parameters') }} as params
    inner join {{ source('manifest', 'ingest_files') }} as files
        on files.file_id = params.source_file_id
    where params.parameter_key in ('thewall', 'realmem', 'dlc_type')
),

host_memory as (
    select
        node as host,
        max(case when parameter_key = 'thewall' then value end) as thewall_kb,
        max(case when parameter_key = 'realmem' then value end) as ram_kb
    from settings
    where nth = 1 and parameter_key in ('thewall', 'realmem')
    group by node
),

channel_hosts as (
    select
        file_host as host,
        min(node) as channel_station
    from settings
    where parameter_key = 'dlc_type'
        and (value_text like '%escon%' or value_text like '%blkmux%' or value_text like '%channel%')
    group by file_host
)

select
    '002-R21' as rule_id,
    memory.host as system_name,
    channel.channel_station,
    memory.thewall_kb,
    memory.ram_kb,
    100.0 * memory.thewall_kb / memory.ram_kb as thewall_ram_pct,
    0.25 * memory.ram_kb as limit_kb,
    memory.thewall_kb < 0.25 * memory.ram_kb as fired
from host_memory as memory
inner join channel_hosts as channel
    on channel.host = memory.host
where memory.thewall_kb is not null
    and memory.ram_kb > 0
