-- A workload's CPU seconds per processor, system and clock hour: what loads each CPU (Evans, seed 001
-- L1811: a workload's consumption is distributed "only among servers used by that workload").
-- NonStop: measured. A process runs in one CPU (MEASURE PROCESS records carry its cpu_num), so a
--   workload loads only the CPUs its processes run in.
-- z/OS: allocated. WLM dispatches a service class on any processor of the type its work runs on, and
--   SMF 72.3 does not split its time per processor: its CP seconds are spread over the hour's CPs, its
--   zIIP seconds over the hour's zIIPs, each in proportion to the processor's measured busy (SMF 70).
-- cpu_s is the workload's own time (process busy, service class CP or zIIP time); the CPU's busy time
-- besides it (interrupts, dispatching, the monitor: the processes do not own it) is not in it.
-- transactions: on NonStop the $RECEIVE messages the workload's processes in that CPU received (as
-- int_workload__hourly counts a workload's transactions); on z/OS NULL, as SMF 72.3 does not say which
-- processor a transaction ran on (fct_workload_hourly has the service class's).
-- Hours are keyed by their UTC instant (hour_start_utc): a fall-back day's repeated clock hour is two rows.
-- A day model (macros/incremental.sql): a night rebuilds the hours of the touched days.
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with nonstop as (
    select
        p.system_name,
        p.hour_start,
        p.hour_start_utc,
        p.cpu_num,
        e.workload,
        sum(p.cpu_busy_s) as cpu_s,
        sum(p.messages_received_count) as transactions
    from {{ ref('int_process__hourly') }} as p
    {{ join_workload_entity('p.system_name', 'p.hour_start', 'nonstop', 'program', 'p.program_file_name',
                            [null_safe_equal('e.secondary_name', 'p.process_name')]) }}
    where {{ touched('p.system_name', 'p.hour_start', 'day') }}
    group by p.system_name, p.hour_start, p.hour_start_utc, p.cpu_num, e.workload
),

zos_processors as (
    -- each processor's part of its type's busy in the hour
    select
        system_name,
        hour_start_utc,
        cpu_num,
        cpu_type,
        busy_pct / nullif(sum(busy_pct) over (partition by system_name, hour_start_utc, cpu_type), 0) as part
    from {{ ref('int_cpu__hourly') }}
    where source = 'smf70'
        and cpu_type in ('CP', 'zIIP')
        and busy_pct is not null
        and {{ touched('system_name', 'hour_start', 'day') }}
),

zos as (
    select
        w.system_name,
        w.hour_start,
        w.hour_start_utc,
        c.cpu_num,
        w.workload,
        case c.cpu_type when 'CP' then w.cpu_s else w.ziip_s end * c.part as cpu_s,
        cast(null as bigint) as transactions
    from {{ ref('int_workload__hourly') }} as w
    inner join zos_processors as c
        on c.system_name = w.system_name
        and c.hour_start_utc = w.hour_start_utc
    where w.platform = 'zos'
        and {{ touched('w.system_name', 'w.hour_start', 'day') }}
)

select 'nonstop' as platform, system_name, hour_start, hour_start_utc, cpu_num, workload, cpu_s, transactions,
    false as is_allocated
from nonstop
union all
select 'zos' as platform, system_name, hour_start, hour_start_utc, cpu_num, workload, coalesce(cpu_s, 0), transactions,
    true as is_allocated
from zos
