-- Every entity the workload marts measure, with the workload the seed workload_definitions gives it:
-- a NonStop program run under a process name (MEASURE), a z/OS service or report class (SMF 72.3).
-- Of the seed rows that match any of an entity's names, the highest priority wins, then the longest
-- pattern; an entity no row matches is `unassigned`.
with entities as (
    select distinct
        'nonstop' as platform,
        'program' as primary_source,
        program_file_name as primary_name,
        process_name
    from {{ ref('stg_measure__process') }}
    union all
    select distinct
        'zos' as platform,
        case when is_report_class then 'report_class' else 'service_class' end as primary_source,
        class_name as primary_name,
        cast(null as {{ dbt.type_string() }}) as process_name
    from {{ ref('stg_smf__workload_period') }}
),

candidates as (
    select
        e.platform,
        e.primary_source,
        e.primary_name,
        e.process_name,
        d.workload,
        d.pattern,
        row_number() over (
            partition by e.platform, e.primary_source, e.primary_name, e.process_name
            order by coalesce(d.priority, -1) desc, length(d.pattern) desc, d.pattern
        ) as preference
    from entities as e
    inner join {{ ref('workload_definitions') }} as d
        on d.platform = e.platform
        and (
            (d.source = e.primary_source and {{ glob_matches('e.primary_name', 'd.pattern') }})
            or (d.source = 'process' and {{ glob_matches('e.process_name', 'd.pattern') }})
        )
)

select
    e.platform,
    e.primary_source,
    e.primary_name,
    e.process_name,
    coalesce(c.workload, 'unassigned') as workload,
    c.pattern as matched_pattern
from entities as e
left join candidates as c
    on c.platform = e.platform
    and c.primary_source = e.primary_source
    and c.primary_name = e.primary_name
    and (c.process_name = e.process_name or (c.process_name is null and e.process_name is null))
    and c.preference = 1
