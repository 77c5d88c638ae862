-- The documents' sizing formulas fed from the site's own measurements, per z/OS system and day; the
-- formulas are the macros of macros/sizing.sql, twins of ingest/capacity/sizing.py.
--   FTP (seed 004, G.5, G.15, G.20): the bytes the server moved (SMF 119 subtype 70: stores, appends,
--     retrieves) and the CPU of the workload FTP (SMF 30 steps by report class, seed
--     workload_definitions): CPU seconds per MB, KI per KB = CPU s x KIPS / KB, and the MIPS 100 KB/s
--     of FTP costs.
--   TN3270 (seed 004, F.6-F.7): the sessions that ended (SMF 119 subtype 21), their hours and bytes,
--     the CPU of the workload TN3270; the pathlength of the system's application transactions
--     (CPU ms per transaction of the workloads of component `application`, fct_workload_hourly,
--     x MIPS) and the TN3270 terminals one processor carries at capacity_sizing_utilization (default
--     0.70), each sending 2 transactions a minute of that pathlength + 280 KI.
-- MIPS per engine come from the seed processor_speeds (NULL figures without a row). A workload that
-- ran no FTP or TN3270 work that day leaves its CPU NULL, not 0: the report class may just be
-- unmapped. The raw data carries no SNA session counts (snaadmin prints buffers and kernel memory,
-- VTAM its buffer use), so the SNA memory and NCP formulas stay in `perfdb report capacity`.
{%- set target = var('capacity_sizing_utilization', 0.70) %}

with ftp as (
    select
        system_id,
        cast(completed_at as date) as measured_date,
        count(*) as ftp_transfers,
        sum(transfer_bytes) as ftp_bytes
    from {{ ref('stg_smf__ftp_transfer') }}
    where direction is not null
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
    group by system_id, cast(end_time as date)
),

work_cpu as (
    select
        system_id,
        cast(hour_start as date) as measured_date,
        sum(case when workload = 'FTP' then cpu_s end) as ftp_cpu_s,
        sum(case when workload = 'TN3270' then cpu_s end) as tn3270_cpu_s
    from {{ ref('fct_zos_work_hourly') }}
    group by system_id, cast(hour_start as date)
),

applications as (
    select
        w.system_name as system_id,
        cast(w.hour_start as date) as measured_date,
        1000 * sum(w.cpu_s) / nullif(sum(w.transactions), 0) as application_cpu_ms_per_transaction
    from {{ ref('fct_workload_hourly') }} as w
    inner join (
        select distinct workload from {{ ref('workload_definitions') }} where component = 'application'
    ) as a
        on a.workload = w.workload
    where w.platform = 'zos' and w.transactions > 0
    group by w.system_name, cast(w.hour_start as date)
),

days as (
    select system_id, measured_date from ftp
    union
    select system_id, measured_date from tn3270
    union
    select system_id, measured_date from applications
),

measured as (
    select
        days.system_id,
        days.measured_date,
        speeds.mips_per_engine,
        coalesce(ftp.ftp_transfers, 0) as ftp_transfers,
        coalesce(ftp.ftp_bytes, 0) as ftp_bytes,
        work_cpu.ftp_cpu_s,
        coalesce(tn3270.tn3270_sessions, 0) as tn3270_sessions,
        coalesce(tn3270.tn3270_session_hours, 0) as tn3270_session_hours,
        coalesce(tn3270.tn3270_bytes, 0) as tn3270_bytes,
        work_cpu.tn3270_cpu_s,
        applications.application_cpu_ms_per_transaction,
        {{ sizing_ki_per_kb('work_cpu.ftp_cpu_s', 'speeds.mips_per_engine', 'nullif(ftp.ftp_bytes, 0) / 1024.0') }} as ftp_ki_per_kb,
        {{ sizing_pathlength_ki_of_cpu_ms('applications.application_cpu_ms_per_transaction', 'speeds.mips_per_engine') }} as pathlength_ki
    from days
    left join ftp
        on ftp.system_id = days.system_id and ftp.measured_date = days.measured_date
    left join tn3270
        on tn3270.system_id = days.system_id and tn3270.measured_date = days.measured_date
    left join work_cpu
        on work_cpu.system_id = days.system_id and work_cpu.measured_date = days.measured_date
    left join applications
        on applications.system_id = days.system_id and applications.measured_date = days.measured_date
    left join {{ ref('processor_speeds') }} as speeds
        on speeds.system_name = days.system_id
)

select
    system_id,
    measured_date,
    mips_per_engine,
    ftp_transfers,
    ftp_bytes,
    ftp_cpu_s,
    round(ftp_cpu_s / nullif(ftp_bytes / 1048576.0, 0), 4) as ftp_cpu_s_per_mb,
    round(ftp_ki_per_kb, 4) as ftp_ki_per_kb,
    round({{ sizing_ftp_mips_per_100_kb_s('ftp_ki_per_kb') }}, 4) as ftp_mips_per_100_kb_s,
    tn3270_sessions,
    tn3270_session_hours,
    tn3270_bytes,
    tn3270_cpu_s,
    round(tn3270_cpu_s / nullif(tn3270_session_hours, 0), 4) as tn3270_cpu_s_per_session_hour,
    round(application_cpu_ms_per_transaction, 4) as application_cpu_ms_per_transaction,
    round(pathlength_ki, 4) as pathlength_ki,
    round({{ sizing_tn3270_terminals_per_processor(target, 'mips_per_engine', 'pathlength_ki') }}, 4)
        as tn3270_terminals_per_processor
from measured
