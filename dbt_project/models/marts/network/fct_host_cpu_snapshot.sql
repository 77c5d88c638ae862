-- CPU busy of a CS/AIX TN Server or SNA gateway host per vmstat capture (rule 002-R27: seed 002 gives 68 % at
-- 1,524 gateway sessions, L1022, and 85 % at 2,000 TN sessions, L1155): us + sy of the capture's last report
-- line (wa is idle time with disk I/O pending; the first report of a run averages since boot, the last is the
-- latest interval). Only the hosts csaix_host_roles() names. One row per capture.
{%- set roles = csaix_host_roles() %}
with reports as (
    select
        host,
        captured_at,
        entity as report,
        sum(case when counter_name = 'user_pct' then value end) as user_pct,
        sum(case when counter_name = 'system_pct' then value end) as system_pct,
        sum(case when counter_name = 'io_wait_pct' then value end) as io_wait_pct
    from {{ ref('int_counter__snapshot') }}
    where command = 'vmstat'
        and section = 'cpu'
        and host in ({% for host in roles %}'{{ host }}'{{ ', ' if not loop.last }}{% endfor %})
    group by host, captured_at, entity
),

ranked as (
    select
        reports.*,
        row_number() over (
            partition by host, captured_at order by cast(substr(report, 8) as int) desc
        ) as from_last
    from reports
)

select
    host,
    case host
        {%- for host, role in roles.items() %}
        when '{{ host }}' then '{{ role }}'
        {%- endfor %}
    end as host_role,
    captured_at,
    'vmstat' as source_command,
    user_pct,
    system_pct,
    io_wait_pct,
    user_pct + system_pct as busy_pct
from ranked
where from_last = 1
