-- z/OS work per system and hour by job, step and service class (SMF 30): CP CPU seconds (TCB + SRB),
-- zIIP seconds, EXCPs and elapsed time. Each step is counted once (int_zos_work__piece).
{%- set work_keys = ['work_type', 'job_name', 'step_name', 'program_name', 'service_class', 'report_class', 'workload_name'] %}
select
    system_id,
    {{ dbt.date_trunc('hour', 'period_start') }} as hour_start,
    {{ work_keys | join(', ') }},
    count(distinct job_id) as job_count,
    count(*) as record_count,
    sum(cpu_s) as cpu_s,
    sum(cpu_tcb_s) as cpu_tcb_s,
    sum(cpu_srb_s) as cpu_srb_s,
    sum(ziip_s) as ziip_s,
    sum(excp_count) as excp_count,
    sum(elapsed_s) as elapsed_s,
    sum(service_units) as service_units,
    sum(case when abended then 1 else 0 end) as abend_count
from {{ ref('int_zos_work__piece') }}
group by system_id, {{ dbt.date_trunc('hour', 'period_start') }}, {{ work_keys | join(', ') }}
