-- Glasstone 1986, Table 1 (seed 001 L2492-L2510), the troubleshooting guidelines, per system and day:
-- one row for every evaluation of a symptom's rule on a program, process or file, fired or not. The
-- limits are rows of the rules catalogue (the model thresholds): the document's values where it gives
-- them, our proposals otherwise (each row's `source` says which).
--   process creations        a program's processes started in the day (Process Summary COUNT)
--   file I/Os per trans.     an OLTP server's I/Os per transaction above or below the 5-20 of an OLTP
--                            transaction (the process_activity rules of rpt_process_activity; a batch
--                            job's messages received are not transactions)
--   CPU per file I/O         an application process's CPU seconds per I/O (Process Activity)
--   busy at high priority    the priority of a busy application process (Busy Process report): a batch
--                            job run at the wrong priority
--   continuous execution     a process's I/O rate in its quietest interval of the day: an event-driven
--                            process waits for work when there is none, a polling loop does not
--   file opens               a process's FILE-OPEN-CALLS in the day: a program opens its files when it
--                            starts, not for every transaction
--   block splits             a disc file's logical writes (FILE: records inserted) per block split
--                            (DISCOPEN): the lower, the more a reload with SLACK is due (L2392)
--   a busy PATHMON           the PATHMON process's CPU-BUSY-TIME over the day's measured time, % of its
--                            processor: in a stable PATHWAY it "rarely becomes active" (L2448)
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
with process_records as (
    {{ measured_day_records(ref('stg_measure__process')) }}
),

process_days as (
    select
        system_name, report_date, cpu_num, pin, program_file_name,
        max(process_name) as process_name,
        sum(file_open_call_count) as file_open_call_count,
        min({{ per_s('messages_sent_count', 'delta_time_us') }}) as min_interval_io_per_s,
        {{ busy_pct('sum(cpu_busy_us)') }} as cpu_busy_pct,
        cast(null as {{ dbt.type_string() }}) as file_name
    from process_records
    group by system_name, report_date, cpu_num, pin, program_file_name
),

-- the PATHWAY monitor by its program's name, $SYSTEM.SYSTEM.PATHMON on every NonStop system
pathmons as (
    select *, cpu_busy_pct as pathmon_busy_pct
    from process_days
    where program_file_name like '%.PATHMON'
),

activity as (
    select *, cast(null as {{ dbt.type_string() }}) as file_name
    from {{ ref('rpt_process_activity') }}
    where is_application
        and {{ touched('system_name', 'report_date', 'day') }}
),

oltp_servers as (
    select * from activity where is_oltp_server
),

busy_applications as (
    select busy.*, cast(null as {{ dbt.type_string() }}) as file_name
    from {{ ref('rpt_busy_process') }} as busy
    inner join activity
        on {{ same_values('activity', 'busy', ['system_name', 'report_date', 'cpu_num', 'pin', 'program_file_name']) }}
),

programs as (
    select
        system_name, report_date, program_file_name, process_count,
        cast(null as {{ dbt.type_string() }}) as process_name, cast(null as integer) as cpu_num,
        cast(null as integer) as pin, cast(null as {{ dbt.type_string() }}) as file_name
    from {{ ref('rpt_process_summary') }}
    where {{ touched('system_name', 'report_date', 'day') }}
),

files as (
    select
        logical.system_name, logical.report_date, logical.file_name,
        cast(logical.write_count as double) / nullif(physical.block_split_count, 0) as writes_per_block_split,
        cast(null as {{ dbt.type_string() }}) as program_file_name, cast(null as {{ dbt.type_string() }}) as process_name,
        cast(null as integer) as cpu_num, cast(null as integer) as pin
    from {{ ref('rpt_file_summary') }} as logical
    inner join {{ ref('rpt_discopen_summary') }} as physical
        on physical.system_name = logical.system_name
        and physical.report_date = logical.report_date
        and physical.file_name = logical.file_name
    where logical.write_count > 0
        and {{ touched('logical.system_name', 'logical.report_date', 'day') }}
),

measured as (
    {%- for entity, metric, relation in app_diagnostic_metrics() %}
    select
        system_name, report_date, '{{ entity }}' as entity, '{{ metric }}' as metric,
        cast({{ metric }} as double) as metric_value,
        program_file_name, process_name, cpu_num, pin, file_name
    from {{ relation }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

rules as (
    {{ effective_thresholds(['app_program', 'app_process', 'app_file', 'process_activity'], 'measured') }}
)

select
    measured.system_name,
    measured.report_date,
    rules.rule_id,
    rules.rule,
    measured.entity,
    measured.program_file_name,
    measured.process_name,
    measured.cpu_num,
    measured.pin,
    measured.file_name,
    measured.metric,
    measured.metric_value,
    rules.operator,
    rules.limit_value,
    coalesce({{ crosses('measured.metric_value', 'rules.operator', 'rules.limit_value') }}, false) as fired
from measured
inner join rules
    on rules.system_name = measured.system_name
    and rules.entity = measured.entity
    and rules.metric = measured.metric
