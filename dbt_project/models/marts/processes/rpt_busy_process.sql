-- Glasstone 1986, Fig. 2, the Busy Process report, per system and day: the processes (a program in a
-- CPU and PIN) that meet every `busy_process` rule of the thresholds seed (by default more than 60 s
-- of CPU at a priority below 200, which leaves out most system processes), with their run time, CPU
-- busy and I/O rate. MESSAGES-SENT stands for the file I/Os a process initiates.
{%- set keys = ['system_name', 'report_date', 'cpu_num', 'pin', 'program_file_name'] %}
with runs as (
    select
        *,
        100 * cpu_busy_s / run_time_s as cpu_busy_pct,
        messages_sent_count / run_time_s as io_per_s
    from {{ ref('int_process__daily') }}
),

rules as (
    {{ effective_thresholds('busy_process', 'runs') }}
),

measures as (
    {{ unpivot_metrics('runs', keys, busy_process_metrics()) }}
),

selected as (
    select measures.{{ keys | join(', measures.') }}
    from measures
    inner join rules
        on rules.system_name = measures.system_name
        and rules.metric = measures.metric
    group by measures.{{ keys | join(', measures.') }}
    having bool_and(coalesce({{ crosses('measures.metric_value', 'rules.operator', 'rules.limit_value') }}, false))
)

select
    runs.system_name,
    runs.report_date,
    runs.program_file_name,
    runs.process_name,
    runs.cpu_num,
    runs.pin,
    runs.process_runs,
    runs.priority,
    runs.run_time_s,
    runs.cpu_busy_s,
    runs.cpu_busy_pct,
    runs.io_per_s,
    runs.messages_sent_count
from runs
inner join selected
    on selected.system_name = runs.system_name
    and selected.report_date = runs.report_date
    and selected.cpu_num = runs.cpu_num
    and selected.pin = runs.pin
    and selected.program_file_name is not distinct from runs.program_file_name
