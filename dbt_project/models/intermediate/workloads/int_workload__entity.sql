-- Every entity the workload marts measure, per system and day it was measured, with the workload the
-- seed workload_definitions gives it (macros/workloads.sql workload_of_entities: of the rows matching
-- either of its names, the highest priority, then the longest pattern; else `unassigned`):
--   NonStop (MEASURE PROCESS): a program (primary) run under a process name (secondary);
--   NonStop (MEASURE USERDEF): a user-defined counter by its name (source `userdef`), counted by a
--     process of a program (secondary): a `userdef` row claims a counter, else its program's row;
--   z/OS (SMF 72.3): a service or report class.
-- MEASURE records no PATHWAY server class of a process (PROCESS and USERDEF carry program, process
-- name and user id only), so server classes cannot be mapped; the PATHWAY monitor and servers are
-- mapped by program and process name.
-- A day model (macros/incremental.sql): the workload marts of a day join the entities of that day, so
-- a night assigns the entities of the touched days only, not those of the whole history.
{{ config(materialized='incremental', unique_key=['system_name', 'day']) }}
with entities as (
    select distinct
        system_name,
        cast(interval_start as date) as day,
        'nonstop' as platform,
        'program' as primary_source,
        program_file_name as primary_name,
        'process' as secondary_source,
        process_name as secondary_name
    from {{ ref('stg_measure__process') }}
    where {{ touched('system_name', 'interval_start', 'day') }}
    union all
    select distinct
        system_name,
        cast(interval_start as date) as day,
        'nonstop' as platform,
        'userdef' as primary_source,
        counter_name as primary_name,
        'program' as secondary_source,
        program_file_name as secondary_name
    from {{ ref('stg_measure__userdef') }}
    where {{ touched('system_name', 'interval_start', 'day') }}
    union all
    select distinct
        system_id as system_name,
        cast(interval_start as date) as day,
        'zos' as platform,
        case when is_report_class then 'report_class' else 'service_class' end as primary_source,
        class_name as primary_name,
        cast(null as {{ dbt.type_string() }}) as secondary_source,
        cast(null as {{ dbt.type_string() }}) as secondary_name
    from {{ ref('stg_smf__workload_period') }}
    where {{ touched('system_id', 'interval_start', 'day') }}
)

{{ workload_of_entities('entities', ['system_name', 'day']) }}
