-- CPU busy of a CS/AIX TN Server or SNA gateway host per vmstat capture (rule 002-R27: seed 002 gives 68 % at
-- 1,524 gateway sessions, L1022, and 85 % at 2,000 TN sessions, L1155): us + sy of the capture's last report
-- line (wa is idle time with disk I/O pending; the first report of a run averages since boot, the last is the
-- latest interval). Only the hosts the seed host_roles names TN Server or SNA gateway. One row per capture.
with roles as (
    select system_name as host, role
    from {{ ref('host_roles') }}
    where role in ('tn_server', 'sna_gateway')
),

reports as (
    {{ snapshot_columns('vmstat', 'cpu', 'report', {
        'user_pct': 'user_pct', 'system_pct': 'system_pct', 'io_wait_pct': 'io_wait_pct'
    }) }}
),

ranked as (
    select
        reports.*,
        row_number() over (
            partition by host, captured_at order by line_number desc
        ) as from_last
    from reports
)

select
    ranked.host,
    roles.role as host_role,
    ranked.captured_at,
    'vmstat' as source_command,
    user_pct,
    system_pct,
    io_wait_pct,
    user_pct + system_pct as busy_pct
from ranked
inner join roles
    on roles.host = ranked.host
where ranked.from_last = 1
