-- SMF 30 work as non-overlapping pieces, one per record that must be counted. Subtypes 2 and 3 cover
-- a step's consumption interval by interval; subtype 4 covers the same consumption as a step total.
-- Adding both would count a step twice (type30.md §0), so a step that wrote interval records is
-- counted through them and every other step through its subtype 4. A step without interval records
-- ran inside one SMF interval, so its piece never straddles an hour. Job totals (subtype 5) repeat
-- their steps and are left out.
-- A day model of the day a piece starts (macros/incremental.sql), with the grain `shift_date`: a piece
-- lies inside one SMF interval (at most an hour), so a record written on a day starts on that day or,
-- just after midnight, on the day before, and a night rebuilds both. A step that wrote interval
-- records wrote its first one at the end of the interval it started in, on its start day or the next:
-- those two days decide whether its subtype 4 counts, so the decision reads the touched days and the
-- day after, and never the whole history.
{{ config(materialized='incremental',
          unique_key=['system_id', 'period_start'],
          meta={'touched_grain': 'shift_date', 'retention': 'interval'}) }}
{%- set step_keys = ['system_id', 'job_id', 'job_name', 'reader_start', 'step_number'] %}
{%- set day_before_written = dbt.dateadd('day', -1, 'period_end') %}
with work as (
    select
        *,
        coalesce(period_start, period_end) as piece_start
    from {{ ref('stg_smf__work') }}
    where {{ touched('system_id', 'coalesce(period_start, period_end)', 'shift_date') }}
),

interval_records as (
    select {{ step_keys | join(', ') }}, period_end
    from {{ ref('stg_smf__work') }}
    where record_subtype in (2, 3)
        and ({{ touched('system_id', 'period_end', 'shift_date') }}
            or {{ touched('system_id', day_before_written, 'shift_date') }})
),

-- the days a step that wrote interval records may have started on: the day of one of them or the day before
interval_steps as (
    select {{ step_keys | join(', ') }}, cast(period_end as date) as start_day
    from interval_records
    union
    select {{ step_keys | join(', ') }}, cast({{ day_before_written }} as date) as start_day
    from interval_records
)

select
    work.system_id,
    work.record_subtype,
    work.work_type,
    work.job_name,
    work.job_id,
    work.step_name,
    work.step_number,
    work.program_name,
    work.workload_name,
    work.service_class,
    work.report_class,
    work.piece_start as period_start,
    work.period_end,
    {{ micros_between('work.piece_start', 'work.period_end') }} / 1e6 as elapsed_s,
    work.cpu_tcb_us / 1e6 as cpu_tcb_s,
    work.cpu_srb_us / 1e6 as cpu_srb_s,
    work.cp_cpu_us / 1e6 as cpu_s,
    work.ziip_us / 1e6 as ziip_s,
    work.excp_count,
    work.service_units,
    work.abended
from work
left join interval_steps
    on {% for k in step_keys %}interval_steps.{{ k }} = work.{{ k }} and {% endfor %}interval_steps.start_day = cast(work.piece_start as date)
where work.record_subtype in (2, 3)
    or (work.record_subtype = 4 and interval_steps.start_day is null)
