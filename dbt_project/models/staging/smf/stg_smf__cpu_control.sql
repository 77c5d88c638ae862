-- SMF 70.1 record level: the RMF interval and the CPU complex. RMF may split one interval into several
-- "broken" records (reassembly_area_count > 0) and overlapping dumps repeat records: one row per
-- system and interval (its UTC start), the first copy ingested.
with source as (
    {{ smf70_first_copy(source('smf', 'smf70_cpu_control')) }}
)

select
    {{ rmf_interval_columns() }},
    interval_start_utc,
    {{ add_millis('cast(interval_us / 1000 as bigint)', 'interval_start_utc') }} as interval_end_utc,
    cast(utc_offset_us as double) / 1e6 as utc_offset_s,
    cast(cycle_us as double) / 1e6 as cycle_s,
    cast(sample_count as integer) as sample_count,
    zos_level,
    cast(partition_number as integer) as partition_number,
    machine_type,
    model_capacity_id,
    hardware_model,
    cpc_serial,
    cast(physical_cpus as integer) as physical_cpu_count,
    cast(ziips_online as integer) as ziips_online,
    cast(zaaps_online as integer) as zaaps_online,
    cast(capacity_msu_per_h as integer) as capacity_msu_per_h,
    cast(long_term_avg_msu_per_h as integer) as long_term_avg_msu_per_h,
    -- SMF70CPA: sixteenths of a CPU microsecond per CPU service unit; 0 when the record does not say
    cast(nullif(cpu_adjustment_factor, 0) as integer) as cpu_adjustment_factor,
    -- SMF70HHF X'40': HiperDispatch active
    hiperdispatch_flags % 128 >= 64 as hiperdispatch_active,
    cast(cpu_section_count as integer) as cpu_section_count,
    cast(partition_section_count as integer) as partition_section_count,
    record_time
from source
