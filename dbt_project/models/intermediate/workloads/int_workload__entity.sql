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
{#- each source: the relation, its system column, and the entity's platform, sources and names -#}
{%- set sources = [
    (ref('stg_measure__process'), 'system_name', 'nonstop', "'program'", 'program_file_name', "'process'", 'process_name'),
    (ref('stg_measure__userdef'), 'system_name', 'nonstop', "'userdef'", 'counter_name', "'program'", 'program_file_name'),
    (ref('stg_smf__workload_period'), 'system_id', 'zos',
        "case when is_report_class then 'report_class' else 'service_class' end", 'class_name',
        'cast(null as ' ~ dbt.type_string() ~ ')', 'cast(null as ' ~ dbt.type_string() ~ ')'),
] %}
with entities as (
    {%- for relation, system, platform, primary_source, primary_name, secondary_source, secondary_name in sources %}
    select distinct
        {{ system }} as system_name,
        cast(interval_start as date) as day,
        '{{ platform }}' as platform,
        {{ primary_source }} as primary_source,
        {{ primary_name }} as primary_name,
        {{ secondary_source }} as secondary_source,
        {{ secondary_name }} as secondary_name
    from {{ relation }}
    where {{ touched(system, 'interval_start', 'day') }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

{{ workload_of_entities('entities', ['system_name', 'day']) }}
