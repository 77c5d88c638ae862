-- Paging space %Used day by day, per host and paging space (AIX lsps -a, seed 002 L830): the clause "paging space
-- %used rising" of rule 002-R23 (L412, L428: the memory estimates are meant to avoid paging, and paging space is
-- sized at twice the memory). Each day captured is judged against the host's previous day captured: fired when
-- its highest %Used is above that day's highest. The rule's other clause, paging space below twice the estimated
-- CS/AIX memory, needs the per-session memory of 002-F1, which the document's OCR lost. A table, not a day model:
-- a day's row depends on the day before it.
with captured as (
    select
        host,
        entity as paging_space,
        cast(captured_at as date) as day,
        max(case when counter_name = 'used_pct' then value end) as used_pct_peak,
        max(case when counter_name = 'size_mb' then value end) as size_mb
    from {{ ref('int_counter__snapshot') }}
    where command = 'lsps -a'
        and counter_name in ('used_pct', 'size_mb')
    group by host, entity, cast(captured_at as date)
),

days as (
    select
        *,
        lag(day) over (partition by host, paging_space order by day) as previous_day,
        lag(used_pct_peak) over (partition by host, paging_space order by day) as previous_used_pct_peak
    from captured
    -- an NFS paging space prints no %Used (NaNQ)
    where used_pct_peak is not null
)

select
    '002-R23' as rule_id,
    host as system_name,
    paging_space,
    day,
    size_mb,
    used_pct_peak,
    previous_day,
    previous_used_pct_peak,
    used_pct_peak > previous_used_pct_peak as fired
from days
where previous_used_pct_peak is not null
