-- The days a system was measured (its CPU records) without the TERMINAL records it sends on other days.
-- TERMINAL is the one entity a form of MEASURE data does not carry: the binary records and the CSV export
-- hold it, a MEASCOM text report keeps LIST TERMINAL verbatim (no report layout of it is known,
-- rpt_measure_unparsed) or does not list it at all. fct_terminal_daily and rpt_line_terminals have no rows
-- for these days, so the rules on them are evaluated without them: a missing day is listed here rather than
-- read as a day without terminals. One row per system and day; only systems with TERMINAL records on some
-- day (a system without terminals misses nothing).
with measured as (
    select system_name, cast(interval_start as date) as report_date, min(source_form) as cpu_form
    from {{ ref('stg_measure__cpu') }}
    group by system_name, cast(interval_start as date)
),

recorded as (
    select distinct system_name, cast(interval_start as date) as report_date
    from {{ ref('stg_measure__terminal') }}
),

-- MEASCOM text that listed TERMINAL, by the days of its file
listed as (
    select distinct file_days.system_name, file_days.day as report_date, true as verbatim
    from {{ ref('stg_measure__unparsed') }} as unparsed
    inner join {{ source('manifest', 'ingest_file_days') }} as file_days
        on file_days.source_file_id = unparsed.source_file_id
    where unparsed.entity = 'TERMINAL'
)

select
    measured.system_name,
    measured.report_date,
    'TERMINAL' as entity,
    measured.cpu_form,
    case when listed.verbatim then 'listed in MEASCOM text, kept verbatim' else 'not in the files of the day' end
        as reason
from measured
left join listed using (system_name, report_date)
where measured.system_name in (select system_name from recorded)
    and not exists (
        select 1 from recorded
        where recorded.system_name = measured.system_name and recorded.report_date = measured.report_date
    )
