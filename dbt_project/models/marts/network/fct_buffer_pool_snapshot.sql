-- Buffer pools per host per snapshot, one conformed shape for every source that reports them:
-- VTAM D NET,BFRUSE pools, AIX `netstat -m` kernel malloc buckets (and the count-first "requests
-- ... denied" lines), VM/MVS NETSTAT POOLSIZE pools and the CS/AIX STREAMS buffers and kernel
-- memory of snaadmin. Levels are as captured; the failure, delay and expansion counts are the
-- growth since the previous snapshot (NULL for the first snapshot and across a restart).
--
-- A day model of the day of the snapshot: a night rebuilds the snapshots of the touched days, from
-- those days' snapshots and, for each touched day, each pool's last snapshot before it (its
-- previous_captured_at), as int_counter__rate reads the counters.
{%- set commands = ['D NET,BFRUSE', 'netstat -m', 'NETSTAT POOLSIZE',
                    'snaadmin query_buffer_availability', 'snaadmin query_kernel_memory_limit'] %}
{{ config(materialized='incremental', unique_key=['host', 'captured_at']) }}
with pool_snapshots as (
    select * from {{ ref('int_counter__snapshot') }}
    where command in ('{{ commands | join("', '") }}')
),

{%- if touched_build() %}

-- the last capture before each touched day of each section and entity: every pool's last snapshot is
-- among them, as a pool is one or several sections and entities of one command
last_before_touched as (
    select s.host, s.command, s.section, s.entity, max(s.captured_at) as captured_at
    from pool_snapshots as s
    inner join ({{ touched_periods('day') }}) as touched_periods
        on touched_periods.touched_system = s.host and s.captured_at < touched_periods.touched_period
    group by s.host, s.command, s.section, s.entity, touched_periods.touched_period
),

{%- endif %}

snapshot as (
    select * from pool_snapshots
    where {{ touched('host', 'captured_at', 'day') }}
    {%- if touched_build() %}
    -- whole captures: a pool's row is built from several of the capture's rows
    union all
    select pool_snapshots.*
    from pool_snapshots
    inner join (select distinct host, command, captured_at from last_before_touched) as previous
        on previous.host = pool_snapshots.host
        and previous.command = pool_snapshots.command
        and previous.captured_at = pool_snapshots.captured_at
    where not {{ touched('pool_snapshots.host', 'pool_snapshots.captured_at', 'day') }}
    {%- endif %}
),

growth as (
    select host, command, section, entity, counter_name, interval_end as captured_at, delta_value
    from {{ ref('int_counter__rate') }}
    where command in ('D NET,BFRUSE', 'netstat -m')
        and {{ touched('host', 'interval_end', 'day') }}
),

-- pools counted in buffers; buffers in use are the total less the available ones (in `pools`)
vtam as (
    select
        host, command as source_command, entity as pool_name, captured_at,
        max(value) filter (where counter_name = 'curr_total') as buffers_total_count,
        max(value) filter (where counter_name = 'curr_available') as buffers_available_count,
        max(value) filter (where counter_name = 'max_used') as buffers_max_used_count,
        max(value) filter (where counter_name = 'buff_size') as buffer_size_bytes,
        coalesce(max(text_value) filter (where counter_name = 'flags'), '') like '%F%' as expansion_failed,
        coalesce(max(text_value) filter (where counter_name = 'flags'), '') like '%Q%' as request_queued
    from snapshot
    where command = 'D NET,BFRUSE' and section = 'pool'
    group by host, command, entity, captured_at
),

aix_buckets as (
    select
        host, command as source_command, section || ' size ' || entity as pool_name, captured_at,
        max(value) filter (where counter_name = 'inuse') + max(value) filter (where counter_name = 'free')
            as buffers_total_count,
        max(value) filter (where counter_name = 'free') as buffers_available_count,
        cast(null as double) as buffers_max_used_count,
        try_cast(entity as double) as buffer_size_bytes,
        false as expansion_failed,
        false as request_queued
    from snapshot
    where command = 'netstat -m' and section <> 'summary'
    group by host, command, section, entity, captured_at
),

-- the "requests ... denied" lines of netstat -m belong to no bucket: a pool of their own
aix_summary as (
    select distinct
        host, command as source_command, 'mbuf summary' as pool_name, captured_at,
        cast(null as double) as buffers_total_count,
        cast(null as double) as buffers_available_count,
        cast(null as double) as buffers_max_used_count,
        cast(null as double) as buffer_size_bytes,
        false as expansion_failed,
        false as request_queued
    from snapshot
    where command = 'netstat -m' and section = 'summary'
),

vm_pools as (
    select
        host, command as source_command, entity as pool_name, captured_at,
        max(value) filter (where counter_name = 'allocated') as buffers_total_count,
        max(value) filter (where counter_name = 'free') as buffers_available_count,
        -- the low-water mark is the fewest free since start: the most ever in use
        max(value) filter (where counter_name = 'allocated')
            - max(value) filter (where counter_name = 'low_water') as buffers_max_used_count,
        cast(null as double) as buffer_size_bytes,
        false as expansion_failed,
        false as request_queued
    from snapshot
    where command = 'NETSTAT POOLSIZE'
    group by host, command, entity, captured_at
),

sna as (
    select
        host,
        command as source_command,
        case when command = 'snaadmin query_buffer_availability' then 'STREAMS buffers' else 'kernel memory' end
            as pool_name,
        captured_at,
        -- CS/AIX sizes its STREAMS buffers in bytes (buf_avail): there is no pool total in buffers
        cast(null as double) as buffers_total_count,
        max(value) filter (where counter_name = 'buf_total_count') as buffers_in_use_count,
        cast(null as double) as buffers_available_count,
        max(value) filter (where counter_name = 'max_buf_total_count') as buffers_max_used_count,
        cast(null as double) as buffer_size_bytes,
        coalesce(max(value) filter (where counter_name = 'buf_total_bytes'),
                 max(value) filter (where counter_name = 'actual')) as bytes_in_use,
        -- a kernel memory limit of 0 means no limit
        coalesce(max(value) filter (where counter_name = 'buf_avail'),
                 nullif(max(value) filter (where counter_name = 'limit'), 0)) as bytes_limit,
        coalesce(max(value) filter (where counter_name = 'max_buf_total_bytes'),
                 max(value) filter (where counter_name = 'max_used')) as bytes_max_used,
        max(value) filter (where counter_name = 'throttle_status') as throttle_status,
        -- its high-water mark since the last reset_max_values (seed 002 L636)
        max(value) filter (where counter_name = 'max_throttle_status') as max_throttle_status,
        coalesce(bool_or(text_value = 'CONGESTED') filter (where counter_name = 'buf_use_status'), false)
            as is_congested,
        coalesce(bool_or(text_value = 'CONGESTED') filter (where counter_name = 'max_buf_use_status'), false)
            as was_congested,
        false as expansion_failed,
        false as request_queued
    from snapshot
    where command like 'snaadmin %'
    group by host, command, captured_at
),

buffer_pools as (
    select * from vtam
    union all
    select * from aix_buckets
    union all
    select * from aix_summary
    union all
    select * from vm_pools
),

pools as (
    select
        host, source_command, pool_name, captured_at, buffers_total_count,
        buffers_total_count - buffers_available_count as buffers_in_use_count,
        buffers_available_count, buffers_max_used_count, buffer_size_bytes,
        -- levels in bytes, the throttle and congestion: only CS/AIX reports them
        cast(null as double) as bytes_in_use,
        cast(null as double) as bytes_limit,
        cast(null as double) as bytes_max_used,
        cast(null as double) as throttle_status,
        cast(null as double) as max_throttle_status,
        false as is_congested,
        false as was_congested,
        expansion_failed,
        request_queued
    from buffer_pools
    union all
    select * from sna
),

pool_growth as (
    select
        host,
        command as source_command,
        case
            when command = 'netstat -m' and section = 'summary' then 'mbuf summary'
            when command = 'netstat -m' then section || ' size ' || entity
            else entity
        end as pool_name,
        captured_at,
        sum(delta_value) filter (where counter_name = 'failed' or counter_name like 'requests_for_%_denied')
            as requests_failed_count,
        sum(delta_value) filter (where counter_name = 'delayed' or counter_name like 'requests_for_%_delayed')
            as requests_delayed_count,
        sum(delta_value) filter (where counter_name = 'times_exp') as expansions_count
    from growth
    group by 1, 2, 3, 4
),

pool_snapshot_rows as (
    select
        pools.host,
        pools.source_command,
        pools.pool_name,
        lag(pools.captured_at) over (
            partition by pools.host, pools.source_command, pools.pool_name order by pools.captured_at
        ) as previous_captured_at,
        pools.captured_at,
        pools.buffers_total_count,
        pools.buffers_in_use_count,
        pools.buffers_available_count,
        pools.buffers_max_used_count,
        pools.buffer_size_bytes,
        pools.bytes_in_use,
        pools.bytes_limit,
        pools.bytes_max_used,
        coalesce(
            100.0 * pools.bytes_in_use / nullif(pools.bytes_limit, 0),
            100.0 * pools.buffers_in_use_count / nullif(pools.buffers_total_count, 0)
        ) as in_use_pct,
        100.0 * pools.buffers_max_used_count / nullif(pools.buffers_total_count, 0) as max_used_pct,
        pool_growth.requests_failed_count,
        pool_growth.requests_delayed_count,
        pool_growth.expansions_count,
        pools.throttle_status,
        pools.max_throttle_status,
        pools.is_congested,
        pools.was_congested,
        pools.expansion_failed,
        pools.request_queued
    from pools
    left join pool_growth using (host, source_command, pool_name, captured_at)
)

-- the previous snapshots were read for previous_captured_at only
select * from pool_snapshot_rows
where {{ touched('host', 'captured_at', 'day') }}
