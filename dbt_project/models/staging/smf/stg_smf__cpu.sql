-- SMF 70.1 CPU data sections: one row per logical CPU of the reporting z/OS image and RMF interval.
with source as (
    {{ smf70_first_copy(source('smf', 'smf70_cpu'), ['cpu_id']) }}
)

select
    {{ smf70_section_columns() }}
    cast(cpu_id as integer) as cpu_id,
    -- SMF70TYP
    case cpu_type_code when 0 then 'CP' when 1 then 'zAAP' when 2 then 'zIIP' end as cpu_type,
    cpu_serial,
    -- SMF70CNF X'08': data for the complete interval; X'01': online at the end of it
    config_flags % 16 >= 8 as complete_interval,
    config_flags % 2 = 1 as online_at_end,
    cpu_wait_us as wait_us,
    cpu_parked_us as parked_us,
    io_slih_count + io_tpi_count as io_interrupt_count,
    tcb_dispatch_count + srb_dispatch_count as dispatch_count,
    io_count,
    sigp_count
from source
