-- Each adaptive pacing window VTAM displayed (D NET,SESSIONS,SID=: seed 003 L655-L683), one row per capture,
-- session, stage and direction that has a sender, with the session's logon mode and classes of service. Seed
-- 000 L341 (rule 000-R10 of the rules catalogue): during a bulk transfer the window should open to at least 8
-- RUs; one that does not means a resource constraint or a configuration problem on the path. A window is the
-- larger of the sender's CURRENT and NEXT; the interactive modes (#INTER, #INTERSC) are not bulk transfers
-- and are not evaluated.
with displayed as (
    select host, captured_at, section, entity, counter_name, value, text_value
    from {{ ref('int_counter__snapshot') }}
    where command = 'D NET,SESSIONS'
),

-- one row per session (section `session`) and per stage and direction of a session (section `pacing`)
pivoted as (
    select
        host,
        captured_at,
        section,
        entity,
        max(case when counter_name = 'logmode' then text_value end) as logmode,
        max(case when counter_name = 'cos' then text_value end) as cos,
        max(case when counter_name = 'appncos' then text_value end) as appncos,
        max(case when counter_name = 'pacing_type' then text_value end) as pacing_type,
        max(case when counter_name = 'send_window_current' then value end) as send_window_current,
        max(case when counter_name = 'send_window_next' then value end) as send_window_next,
        max(case when counter_name = 'receive_window' then value end) as receive_window
    from displayed
    group by host, captured_at, section, entity
),

-- the rule's limit as the catalogue states it (its default row)
rule as (
    select rule_id, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('thresholds') }}
    where rule_id = '000-R10' and system_name = '*'
)

select
    rule.rule_id,
    windows.host as system_name,
    windows.captured_at,
    sessions.entity as session,
    replace(windows.entity, sessions.entity || '/', '') as stage_direction,
    sessions.logmode,
    sessions.cos,
    sessions.appncos,
    windows.pacing_type,
    windows.send_window_current,
    windows.send_window_next,
    windows.receive_window,
    greatest(windows.send_window_current, coalesce(windows.send_window_next, windows.send_window_current))
        as send_window,
    rule.limit_value,
    coalesce({{ crosses('greatest(windows.send_window_current, coalesce(windows.send_window_next, '
                        'windows.send_window_current))', 'rule.operator', 'rule.limit_value') }}, false) as fired
from pivoted as windows
inner join pivoted as sessions
    on sessions.host = windows.host
    and sessions.captured_at = windows.captured_at
    and sessions.section = 'session'
    and windows.entity like sessions.entity || '/%'
cross join rule
where windows.section = 'pacing'
    and windows.send_window_current is not null
    and coalesce(upper(sessions.logmode), '') not in ('#INTER', '#INTERSC')
