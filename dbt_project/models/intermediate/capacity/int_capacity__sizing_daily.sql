-- What rpt_capacity_sizing_measured sizes, per z/OS system and day: the FTP transfers that completed
-- and their bytes (SMF 119.70), the TN3270 sessions that ended, their hours and bytes (SMF 119.21), the
-- CPU of the workloads FTP and TN3270 (SMF 30, fct_zos_work_hourly) and the CPU ms per transaction of
-- the application workloads (fct_workload_hourly). A day is one of FTP, TN3270 or application work.
-- A day model with the grain shift_date (macros/incremental.sql): a TN3270 session's day is that of its
-- end, while its record is placed by the time it was written, which may be the next day; an SMF 30
-- hour may be written just after midnight too (fct_zos_work_hourly). So a night rebuilds the touched
-- days and the days before them, and the report reads these rows instead of SMF 119 whole.
{{ config(materialized='incremental',
          unique_key=['system_id', 'measured_date'], meta={'touched_grain': 'shift_date'}) }}
with ftp as (
    select
        system_id,
        cast(completed_at as date) as measured_date,
        count(*) as ftp_transfers,
        sum(transfer_bytes) as ftp_bytes
    from {{ ref('stg_smf__ftp_transfer') }}
    where direction is not null
        and {{ touched('system_id', 'completed_at', 'shift_date') }}
    group by system_id, cast(completed_at as date)
),

tn3270 as (
    select
        system_id,
        cast(end_time as date) as measured_date,
        count(*) as tn3270_sessions,
        sum(duration_s) / 3600.0 as tn3270_session_hours,
        sum(in_bytes + out_bytes) as tn3270_bytes
    from {{ ref('stg_smf__tn3270_session') }}
    where event = 'end'
        and {{ touched('system_id', 'end_time', 'shift_date') }}
    group by system_id, cast(end_time as date)
),

work_cpu as (
    select
        system_id,
        cast(hour_start as date) as measured_date,
        sum(case when workload = 'FTP' then cpu_s end) as ftp_cpu_s,
        sum(case when workload = 'TN3270' then cpu_s end) as tn3270_cpu_s
    from {{ ref('fct_zos_work_hourly') }}
    where {{ touched('system_id', 'hour_start', 'shift_date') }}
    group by system_id, cast(hour_start as date)
),

applications as (
    select
        w.system_name as system_id,
        cast(w.hour_start as date) as measured_date,
        1000 * sum(w.cpu_s) / nullif(sum(w.transactions), 0) as application_cpu_ms_per_transaction
    from {{ zos_application_work('w') }}
    where {{ touched('w.system_name', 'w.hour_start', 'shift_date') }}
    group by w.system_name, cast(w.hour_start as date)
),

days as (
    select system_id, measured_date from ftp
    union
    select system_id, measured_date from tn3270
    union
    select system_id, measured_date from applications
)

select
    days.system_id,
    days.measured_date,
    coalesce(ftp.ftp_transfers, 0) as ftp_transfers,
    coalesce(ftp.ftp_bytes, 0) as ftp_bytes,
    work_cpu.ftp_cpu_s,
    coalesce(tn3270.tn3270_sessions, 0) as tn3270_sessions,
    coalesce(tn3270.tn3270_session_hours, 0) as tn3270_session_hours,
    coalesce(tn3270.tn3270_bytes, 0) as tn3270_bytes,
    work_cpu.tn3270_cpu_s,
    applications.application_cpu_ms_per_transaction
from days
left join ftp
    on ftp.system_id = days.system_id and ftp.measured_date = days.measured_date
left join tn3270
    on tn3270.system_id = days.system_id and tn3270.measured_date = days.measured_date
left join work_cpu
    on work_cpu.system_id = days.system_id and work_cpu.measured_date = days.measured_date
left join applications
    on applications.system_id = days.system_id and applications.measured_date = days.measured_date
