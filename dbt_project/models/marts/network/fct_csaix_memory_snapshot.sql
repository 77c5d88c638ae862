-- CS/AIX memory against its host's RAM (seed 002 L650: "CS/AIX by default limits itself to using at most 50%
-- of the physical RAM for control blocks and 25% of the physical RAM for STREAMS buffers"), per snaadmin
-- snapshot of a host whose RAM a listing gives (lsattr -El sys0 realmem, in KB, L822): the STREAMS buffer
-- limit (buf_avail) as a share of RAM, and, when no kernel memory limit is set (limit = 0), the kernel
-- memory in use as a share of RAM. A table, not a day model: a listing has no day, so a host's new RAM
-- figure re-reads every snapshot.
with listed_ram as (
    select
        node as host,
        value * 1024 as ram_bytes,
        -- the listing loaded last is the host's RAM now
        row_number() over (partition by node order by source_file_id desc, line_number) as nth
    from {{ ref('stg_listings__parameters') }}
    where parameter_key = 'realmem'
)

select
    snapshots.host,
    snapshots.source_command,
    snapshots.pool_name,
    snapshots.captured_at,
    ram.ram_bytes,
    snapshots.bytes_limit,
    snapshots.bytes_in_use,
    case when snapshots.source_command = 'snaadmin query_buffer_availability'
        then 100.0 * snapshots.bytes_limit / nullif(ram.ram_bytes, 0) end as buf_avail_ram_pct,
    -- fct_buffer_pool_snapshot reads a kernel memory limit of 0 as no limit (a NULL bytes_limit)
    case when snapshots.source_command = 'snaadmin query_kernel_memory_limit' and snapshots.bytes_limit is null
        then 100.0 * snapshots.bytes_in_use / nullif(ram.ram_bytes, 0) end as unlimited_kernel_memory_ram_pct
from {{ ref('fct_buffer_pool_snapshot') }} as snapshots
inner join listed_ram as ram
    on ram.host = snapshots.host
    and ram.nth = 1
where snapshots.source_command like 'snaadmin %'
