-- The MSU each reporting z/OS image (LPAR) consumed in each RMF interval, with what SMF 70.1 says of its
-- capacity limits. MSU/h = sum(EDT of the partition's CP logical processors, µs) x 3600 x 16
-- / (SMF70CPA x INT s x 1e6): the RMF User's Guide's MSU formula (CPU time x CPU service units per second
-- of a CP, 16e6 / SMF70CPA, x 3600 / 1e6, as a rate over the interval). Effective dispatch time (SMF70EDT),
-- not SMF70PDT: LPAR management is PR/SM's, not the image's, and RMF's Partition Data report counts
-- the image's MSU from the effective time. Only CP-type processors count: zIIP time is not MSU-priced.
-- The image's own partition is the one SMF70PTN names; SMF70WLA, SMF70LAC and SMF70SAM are the image's.
-- Sections join their record by the UTC start: a fall-back day repeats the local starts of an hour.
{{ config(materialized='incremental', unique_key=['system_id', 'interval_start']) }}
with control as (
    {{ touched_rows(ref('stg_smf__cpu_control'), 'system_id', 'interval_start') }}
),

own_partition as (
    select
        partitions.system_id,
        partitions.interval_start_utc,
        partitions.partition_name,
        partitions.defined_capacity_msu_per_h,
        partitions.capacity_group_name,
        partitions.group_max_msu_per_h
    from {{ ref('stg_smf__partition') }} as partitions
    inner join control
        on control.system_id = partitions.system_id
        and control.interval_start_utc = partitions.interval_start_utc
        and control.partition_number = partitions.partition_number
    where {{ touched('partitions.system_id', 'partitions.interval_start', 'day') }}
),

own_cp_time as (
    select
        lp.system_id,
        lp.interval_start_utc,
        sum(lp.effective_dispatch_us) as cp_effective_dispatch_us,
        count(*) as cp_count
    from {{ ref('stg_smf__logical_processor') }} as lp
    inner join control
        on control.system_id = lp.system_id
        and control.interval_start_utc = lp.interval_start_utc
        and control.partition_number = lp.partition_number
    where lp.cpu_type = 'CP'
        and {{ touched('lp.system_id', 'lp.interval_start', 'day') }}
    group by lp.system_id, lp.interval_start_utc
)

select
    control.system_id,
    control.sysname,
    control.sysplex_name,
    control.cpc_serial,
    own_partition.partition_name,
    control.interval_start,
    control.interval_start_utc,
    control.interval_end,
    control.interval_end_utc,
    control.interval_s,
    own_cp_time.cp_count,
    own_cp_time.cp_effective_dispatch_us / 1e6 as cp_effective_dispatch_s,
    control.cpu_adjustment_factor,
    own_cp_time.cp_effective_dispatch_us * 3600.0 * 16
        / nullif(control.cpu_adjustment_factor * control.interval_s * 1e6, 0) as msu_per_h,
    control.capacity_msu_per_h,
    control.long_term_avg_msu_per_h,
    control.sample_count,
    nullif(own_partition.defined_capacity_msu_per_h, 0) as defined_capacity_msu_per_h,
    own_partition.capacity_group_name,
    nullif(own_partition.group_max_msu_per_h, 0) as group_max_msu_per_h
from control
left join own_partition
    on own_partition.system_id = control.system_id
    and own_partition.interval_start_utc = control.interval_start_utc
left join own_cp_time
    on own_cp_time.system_id = control.system_id
    and own_cp_time.interval_start_utc = control.interval_start_utc
