-- SMF 70.1 PR/SM logical processor sections: one row per logical processor of every partition and
-- RMF interval. Times are microseconds of the interval.
with source as (
    {{ smf70_first_copy(source('smf', 'smf70_logical_processor'), ['partition_name', 'lp_address']) }}
)

select
    {{ smf70_section_columns() }}
    partition_name,
    cast(partition_number as integer) as partition_number,
    cast(lp_address as integer) as lp_address,
    -- SMF70CIN names of the CPU-identification section the LP points to
    case cpu_type_name
        when 'CP' then 'CP'
        when 'IIP' then 'zIIP'
        when 'AAP' then 'zAAP'
        else cpu_type_name
    end as cpu_type,
    cast(cpu_type_physical_count as integer) as cpu_type_physical_count,
    dispatch_us,
    effective_dispatch_us,
    online_us,
    cast(weight as integer) as weight,
    weight = 65535 as dedicated,
    -- SMF70VPF X'80': wait completion enabled (the LP keeps its physical CPU while waiting)
    lp_flags % 256 >= 128 as wait_completion,
    -- SMF70POF bits 0-1
    case cast(floor(polarization_flags / 64) as integer) % 4
        when 0 then 'horizontal'
        when 1 then 'vertical low'
        when 2 then 'vertical medium'
        when 3 then 'vertical high'
    end as polarization
from source
