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
-- The measurements are the day summaries of int_capacity__sizing_daily (a day model), so the report is a
-- table over one row per system and day, not over SMF 119 and the work hours of the whole history.
{%- set target = var('capacity_sizing_utilization', 0.70) %}

with measured as (
    select
        daily.*,
        speeds.mips_per_engine,
        {{ sizing_ki_per_kb('daily.ftp_cpu_s', 'speeds.mips_per_engine', 'nullif(daily.ftp_bytes, 0) / 1024.0') }} as ftp_ki_per_kb,
        {{ sizing_pathlength_ki_of_cpu_ms('daily.application_cpu_ms_per_transaction', 'speeds.mips_per_engine') }} as pathlength_ki
    from {{ ref('int_capacity__sizing_daily') }} as daily
    left join {{ ref('processor_speeds') }} as speeds
        on speeds.system_name = daily.system_id
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
