-- SMF 30 work per system, day and application (job name): CP CPU and zIIP seconds and EXCPs of the
-- hours of fct_zos_work_hourly added up. rpt_zos_workload_characterization ranks a month's
-- applications from these rows, which are kept, and not from the hours, which retention deletes
-- (family `hourly`): a month rebuilt after a purge keeps its purged days.
-- A day model with the grain of the hours it adds up (shift_date: a night rebuilds the touched days and
-- the days before them).
{{ config(materialized='incremental',
          unique_key=['system_id', 'day'], meta={'touched_grain': 'shift_date'}) }}
select
    system_id,
    cast(hour_start as date) as day,
    job_name as application,
    {%- for c in ['work_type', 'service_class'] %}
    max({{ c }}) as {{ c }},
    {%- endfor %}
    {%- for c in ['cpu_s', 'ziip_s', 'excp_count'] %}
    sum({{ c }}) as {{ c }}{{ ',' if not loop.last }}
    {%- endfor %}
from {{ ref('fct_zos_work_hourly') }}
where {{ touched('system_id', 'hour_start', 'shift_date') }}
group by system_id, cast(hour_start as date), job_name
