-- Glasstone 1986, Fig. 2, the Busy Process report, per system and day: the processes (a program in a
-- CPU and PIN) that meet every `busy_process` rule of the thresholds seed (by default more than 60 s
-- of CPU at a priority below 200, which leaves out most system processes), with their run time, CPU
-- busy and I/O rate. MESSAGES-SENT stands for the file I/Os a process initiates.
{%- set columns = ['system_name', 'report_date', 'program_file_name', 'process_name', 'cpu_num', 'pin', 'process_runs',
                   'priority', 'run_time_s', 'cpu_busy_s', 'cpu_busy_pct', 'io_per_s', 'messages_sent_count'] %}
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
with runs as (
    {{ busy_process_runs(touched_only=true) }}
),

rules as (
    {{ effective_thresholds('busy_process', 'runs') }}
),

-- each run's row once per metric, carrying every column the report shows
measures as (
    {{ unpivot_metrics('runs', columns, busy_process_metrics()) }}
)

select measures.{{ columns | join(', measures.') }}
from measures
inner join rules
    on rules.system_name = measures.system_name
    and rules.metric = measures.metric
group by measures.{{ columns | join(', measures.') }}
having bool_and(coalesce({{ crosses('measures.metric_value', 'rules.operator', 'rules.limit_value') }}, false))
