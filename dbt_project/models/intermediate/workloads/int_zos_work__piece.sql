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
-- Times as UTC instants: SMF 30 is local time without an offset, so a local time takes the offsets (SMF70LGO)
-- of the system's RMF intervals that hold it: a piece's start those of the intervals it starts, its end those
-- of the intervals it falls in or ends (the end of the last interval before the clocks go back is the start of
-- the first after it). Outside the hour a fall-back day repeats there is one; in it, two: a piece's start
-- takes the earlier instant, or the later one in the record's second pass (stg_smf__work.local_pass), and its
-- end the earliest instant not before its start. A time no RMF interval of the system holds is taken to keep
-- UTC, as an RMF record without SMF70LGO is.
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

rmf_offsets as (
    select system_id, interval_start, interval_end, cast(-1000 * utc_offset_s as bigint) as to_utc_ms
    from {{ ref('stg_smf__cpu_control') }}
    where {{ touched('system_id', 'interval_start', 'shift_date') }}
),

-- the instants a piece's local start may be: the first pass takes the earliest, the second the latest
starts as (
    select
        work.source_file_id,
        work.record_ordinal,
        case when max(work.local_pass) = 2
            then max({{ add_millis('coalesce(offsets.to_utc_ms, 0)', 'work.piece_start') }})
            else min({{ add_millis('coalesce(offsets.to_utc_ms, 0)', 'work.piece_start') }})
        end as period_start_utc
    from work
    left join rmf_offsets as offsets
        on offsets.system_id = work.system_id
        and work.piece_start >= offsets.interval_start
        and work.piece_start < offsets.interval_end
    group by work.source_file_id, work.record_ordinal
),

-- the instants its local end may be: the earliest not before its start
ends as (
    select
        work.source_file_id,
        work.record_ordinal,
        starts.period_start_utc,
        coalesce(
            min(case when {{ add_millis('offsets.to_utc_ms', 'work.period_end') }} >= starts.period_start_utc
                then {{ add_millis('offsets.to_utc_ms', 'work.period_end') }} end),
            {{ add_millis('cast(' ~ micros_between('work.piece_start', 'work.period_end') ~ ' / 1000 as bigint)', 'starts.period_start_utc') }}
        ) as period_end_utc
    from work
    inner join starts
        on starts.source_file_id = work.source_file_id and starts.record_ordinal = work.record_ordinal
    left join rmf_offsets as offsets
        on offsets.system_id = work.system_id
        and work.period_end between offsets.interval_start and offsets.interval_end
    group by work.source_file_id, work.record_ordinal, starts.period_start_utc, work.piece_start, work.period_end
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
    ends.period_start_utc,
    ends.period_end_utc,
    {{ micros_between('ends.period_start_utc', 'ends.period_end_utc') }} / 1e6 as elapsed_s,
    work.cpu_tcb_us / 1e6 as cpu_tcb_s,
    work.cpu_srb_us / 1e6 as cpu_srb_s,
    work.cp_cpu_us / 1e6 as cpu_s,
    work.ziip_us / 1e6 as ziip_s,
    work.excp_count,
    work.service_units,
    work.abended
from work
inner join ends
    on ends.source_file_id = work.source_file_id and ends.record_ordinal = work.record_ordinal
left join interval_steps
    on {% for k in step_keys %}interval_steps.{{ k }} = work.{{ k }} and {% endfor %}interval_steps.start_day = cast(work.piece_start as date)
where work.record_subtype in (2, 3)
    or (work.record_subtype = 4 and interval_steps.start_day is null)
