-- z/OS work per system and hour by job, step, service and report class (SMF 30): CP CPU seconds
-- (TCB + SRB), zIIP seconds, EXCPs and elapsed time. Each step is counted once (int_zos_work__piece).
-- workload: the seed workload_definitions' workload of the step's report class or, where no
-- report_class row matches (or one of higher priority or a longer pattern does), of its service
-- class (macros/workloads.sql workload_of_entities); the report class is the installation's own
-- grouping for reports, so a site maps e.g. one started task to its own workload by it.
-- An hour is one that occurred, keyed by its UTC instant (hour_start_utc, from the pieces' UTC starts): a
-- fall-back day's repeated clock hour is two rows, a spring-forward day has 23 hours.
-- A day model with the grain of its pieces (int_zos_work__piece): a night rebuilds the hours of the
-- touched days and of the days before them.
{{ config(materialized='incremental',
          unique_key=['system_id', 'hour_start'], meta={'touched_grain': 'shift_date', 'retention': 'hourly'}) }}
{%- set work_keys = ['work_type', 'job_name', 'step_name', 'program_name', 'service_class', 'report_class', 'workload_name'] %}
with pieces as (
    select * from {{ ref('int_zos_work__piece') }}
    where {{ touched('system_id', 'period_start', 'shift_date') }}
),

entities as (
    select distinct
        'zos' as platform,
        'report_class' as primary_source,
        report_class as primary_name,
        'service_class' as secondary_source,
        service_class as secondary_name
    from pieces
),

assigned as (
    {{ workload_of_entities('entities') }}
)

select
    pieces.system_id,
    {{ dbt.date_trunc('hour', 'pieces.period_start') }} as hour_start,
    {{ hour_start_utc('pieces.period_start', 'pieces.period_start_utc') }} as hour_start_utc,
    {% for k in work_keys %}pieces.{{ k }}, {% endfor %}
    assigned.workload,
    count(distinct pieces.job_id) as job_count,
    count(*) as record_count,
    sum(pieces.cpu_s) as cpu_s,
    sum(pieces.cpu_tcb_s) as cpu_tcb_s,
    sum(pieces.cpu_srb_s) as cpu_srb_s,
    sum(pieces.ziip_s) as ziip_s,
    sum(pieces.excp_count) as excp_count,
    sum(pieces.elapsed_s) as elapsed_s,
    sum(pieces.service_units) as service_units,
    sum(case when pieces.abended then 1 else 0 end) as abend_count
from pieces
inner join assigned
    on {{ null_safe_equal('assigned.primary_name', 'pieces.report_class') }}
    and {{ null_safe_equal('assigned.secondary_name', 'pieces.service_class') }}
group by
    pieces.system_id,
    {{ dbt.date_trunc('hour', 'pieces.period_start') }},
    {{ hour_start_utc('pieces.period_start', 'pieces.period_start_utc') }},
    {% for k in work_keys %}pieces.{{ k }}, {% endfor %}
    assigned.workload
