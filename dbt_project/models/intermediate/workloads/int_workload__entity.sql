-- Every entity the workload marts measure, with the workload the seed workload_definitions gives it
-- (macros/workloads.sql workload_of_entities: of the rows matching either of its names, the highest
-- priority, then the longest pattern; else `unassigned`):
--   NonStop (MEASURE PROCESS): a program (primary) run under a process name (secondary);
--   NonStop (MEASURE USERDEF): a user-defined counter by its name (source `userdef`), counted by a
--     process of a program (secondary): a `userdef` row claims a counter, else its program's row;
--   z/OS (SMF 72.3): a service or report class.
-- MEASURE records no PATHWAY server class of a process (PROCESS and USERDEF carry program, process
-- name and user id only), so server classes cannot be mapped; the PATHWAY monitor and servers are
-- mapped by program and process name.
with entities as (
    select distinct
        'nonstop' as platform,
        'program' as primary_source,
        program_file_name as primary_name,
        'process' as secondary_source,
        process_name as secondary_name
    from {{ ref('stg_measure__process') }}
    union all
    select distinct
        'nonstop' as platform,
        'userdef' as primary_source,
        counter_name as primary_name,
        'program' as secondary_source,
        program_file_name as secondary_name
    from {{ ref('stg_measure__userdef') }}
    union all
    select distinct
        'zos' as platform,
        case when is_report_class then 'report_class' else 'service_class' end as primary_source,
        class_name as primary_name,
        cast(null as {{ dbt.type_string() }}) as secondary_source,
        cast(null as {{ dbt.type_string() }}) as secondary_name
    from {{ ref('stg_smf__workload_period') }}
)

{{ workload_of_entities('entities') }}
