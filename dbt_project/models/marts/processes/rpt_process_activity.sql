-- Glasstone 1986, Fig. 3, Process Activity by Program, per system and day: for each process (a program
-- in a CPU and PIN) that received and sent messages, CPU seconds per transaction (message received), file I/Os (messages
-- sent) per transaction and CPU seconds per I/O. "For an OLTP system, each transaction will typically
-- need to perform between 5 and 20 file I/Os" (L2264): the `process_activity` rules of the thresholds
-- seed flag a process outside that band, and only an OLTP server: a process of an `application` workload
-- (seed workload_definitions) that is not batch work. The report "is most valuable for OLTP servers"
-- (L2262), whose messages received are transactions; a batch job's are not (it reads a file, it does not
-- serve requests: its I/Os per message received are no transaction's, and were the band applied every
-- batch job would cross it), nor are a monitor's, disc process's, line handler's or requester's (their
-- I/Os per message are far below 5 by design).
{{ config(materialized='incremental', unique_key=['system_name', 'report_date']) }}
with activity as (
    select
        system_name,
        report_date,
        program_file_name,
        process_name,
        cpu_num,
        pin,
        process_runs,
        cpu_busy_s,
        messages_received_count,
        messages_sent_count,
        cpu_busy_s / messages_received_count as cpu_per_trans_s,
        cast(messages_sent_count as double) / messages_received_count as io_per_trans,
        cpu_busy_s / messages_sent_count as cpu_per_io_s
    from {{ ref('int_process__daily') }}
    where messages_received_count > 0
        and messages_sent_count > 0
        and {{ touched('system_name', 'report_date', 'day') }}
),

components as (
    select workload, max(component) as component
    from {{ ref('workload_definitions') }}
    where platform = 'nonstop'
    group by workload
),

-- batch is a property of the programs a seed row names, not of their workload: one workload (a
-- production object library, say) may hold both batch jobs and the servers Glasstone's Fig. 3 judges
batch_patterns as (
    select distinct pattern
    from {{ ref('workload_definitions') }}
    where platform = 'nonstop' and source = 'program' and batch
),

classified as (
    select
        activity.*,
        coalesce(e.workload, 'unassigned') as workload,
        coalesce(components.component, 'system') = 'application' as is_application,
        coalesce(components.component, 'system') = 'application' and batch_patterns.pattern is null
            as is_oltp_server
    from activity
    left join {{ ref('int_workload__entity') }} as e
        on e.system_name = activity.system_name
        and e.day = activity.report_date
        and e.platform = 'nonstop'
        and e.primary_source = 'program'
        and e.primary_name = activity.program_file_name
        and {{ null_safe_equal('e.secondary_name', 'activity.process_name') }}
    left join components
        on components.workload = e.workload
    left join batch_patterns
        on batch_patterns.pattern = e.matched_pattern
),

rules as (
    {{ effective_thresholds('process_activity', 'classified') }}
),

-- the band's rule a process crosses (at most one: above or below)
crossed as (
    select classified.system_name, classified.report_date, classified.cpu_num, classified.pin,
           classified.program_file_name, min(rules.rule_id) as oltp_band_rule_id
    from classified
    inner join rules
        on rules.system_name = classified.system_name
        and rules.metric = 'io_per_trans'
    where classified.is_oltp_server
        and {{ crosses('classified.io_per_trans', 'rules.operator', 'rules.limit_value') }}
    group by classified.system_name, classified.report_date, classified.cpu_num, classified.pin,
             classified.program_file_name
)

select
    classified.*,
    crossed.oltp_band_rule_id,
    crossed.oltp_band_rule_id is not null as io_per_trans_outside_oltp_band
from classified
left join crossed
    on {{ same_values('crossed', 'classified', ['system_name', 'report_date', 'cpu_num', 'pin', 'program_file_name']) }}
