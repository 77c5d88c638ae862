-- SMF 70.1 PR/SM partition sections: every partition of the CPC (and PHYSICAL) per RMF interval, as
-- the reporting image saw it.
with source as (
    {{ smf70_first_copy(source('smf', 'smf70_partition'), ['partition_name']) }}
)

select
    {{ smf70_section_columns() }}
    partition_name,
    cast(partition_number as integer) as partition_number,
    system_name as partition_sysname,
    cluster_name,
    cast(logical_cpu_count as integer) as logical_cpu_count,
    cast(central_storage_mb as bigint) as central_storage_mb,
    cast(defined_capacity_msu_per_h as integer) as defined_capacity_msu_per_h,
    nullif(capacity_group_name, '') as capacity_group_name,
    cast(group_max_msu_per_h as integer) as group_max_msu_per_h,
    -- SMF70PFG X'08': WLM LPAR management active
    partition_flags % 16 >= 8 as wlm_managed
from source
