-- PR/SM view of the CPC per RMF interval, as each reporting image saw it: every partition (and
-- PHYSICAL, the time PR/SM did not attribute to a partition) by CPU type. Formulas of the RMF
-- Partition Data report (type70_1.md §8.3): logical busy = sum(PDT) / sum(ONT); physical share =
-- sum(PDT) / (INT x physical CPUs of the type, or of the CPC when the record does not say);
-- LPAR management = sum(PDT - EDT) / the same, which for PHYSICAL is all of its PDT.
{{ config(materialized='incremental', unique_key=['system_id', 'interval_start']) }}
with control as (
    {{ touched_rows(ref('stg_smf__cpu_control'), 'system_id', 'interval_start') }}
),

image_cpus as (
    select * from {{ ref('stg_smf__cpu') }}
),

logical_processors as (
    select
        lp.*,
        control.interval_end,
        control.interval_s,
        control.physical_cpu_count,
        lp.partition_number = control.partition_number as is_reporting_image,
        -- without a CPU-identification section, the reporting image's own LPs take the type of its CPUs
        coalesce(lp.cpu_type, image_cpus.cpu_type, 'unknown') as resolved_cpu_type
    from {{ ref('stg_smf__logical_processor') }} as lp
    -- by the UTC start: a fall-back day repeats the local starts of an hour
    inner join control on control.system_id = lp.system_id and control.interval_start_utc = lp.interval_start_utc
    left join image_cpus on {{ is_own_logical_processor('lp', 'image_cpus', 'control') }}
    where {{ touched('lp.system_id', 'lp.interval_start', 'day') }}
),

by_type as (
    select
        system_id,
        interval_start,
        interval_start_utc,
        max(interval_end) as interval_end,
        max(interval_s) as interval_s,
        partition_name,
        max(partition_number) as partition_number,
        bool_or(is_reporting_image) as is_reporting_image,
        resolved_cpu_type as cpu_type,
        count(*) as logical_cpu_count,
        sum(case when dedicated then 1 else 0 end) as dedicated_cpu_count,
        sum(weight) as weight,
        coalesce(max(cpu_type_physical_count), max(physical_cpu_count)) as physical_cpu_count,
        sum(online_us) / 1e6 as online_s,
        sum(dispatch_us) / 1e6 as dispatch_s,
        sum(effective_dispatch_us) / 1e6 as effective_dispatch_s
    from logical_processors
    group by system_id, interval_start, interval_start_utc, partition_name, resolved_cpu_type
)

select
    *,
    100 * dispatch_s / nullif(online_s, 0) as logical_busy_pct,
    100 * effective_dispatch_s / nullif(online_s, 0) as effective_logical_busy_pct,
    100 * dispatch_s / nullif(interval_s * physical_cpu_count, 0) as physical_share_pct,
    100 * effective_dispatch_s / nullif(interval_s * physical_cpu_count, 0) as effective_physical_share_pct,
    100 * (dispatch_s - effective_dispatch_s) / nullif(interval_s * physical_cpu_count, 0) as lpar_management_pct
from by_type
