-- Deltas and per-second rates of cumulative counters between consecutive snapshots of the same
-- host, command, section, entity and counter. Counters only grow while the system runs: when any
-- counter of an entity is lower than in the previous snapshot, the stack, adapter or system was
-- restarted (or a 32-bit counter wrapped) in between, and that interval is dropped (delta and rate
-- NULL, counter_reset true) rather than reported negative. Gauges are not differenced. A counter
-- seen for the first time (net-tools prints many only once they are non-zero) has its first rate at
-- its second snapshot.
--
-- Snapshots follow one another by their instant (captured_utc: UTC where the capture gave its offset),
-- and interval_s is the time between two instants: an offset that changes within a log (DST, a new
-- time zone) moves the local times of interval_start and interval_end, not the interval. A log's
-- capture not taken after the one before it is rejected at ingest, and copies of a capture count once
-- (int_counter__snapshot), so instants strictly increase.
--
-- A day model of the day of its interval's end: a night rebuilds the rates ending on the touched days
-- (build_touched_days adds the day of the first capture after a late or removed one), from the
-- snapshots of those days and, for each touched day, the last snapshot of each counter before it,
-- which may lie on a day not touched.
{{ config(materialized='incremental', unique_key=['host', 'interval_end']) }}
with counter_snapshots as (
    select * from {{ ref('int_counter__snapshot') }}
    where kind = 'counter' and value is not null
),

{%- if touched_build() %}

last_before_touched as (
    select s.host, s.command, s.section, s.entity, s.counter_name, max(s.captured_utc) as captured_utc
    from counter_snapshots as s
    inner join ({{ touched_periods('day') }}) as touched_periods
        on touched_periods.touched_system = s.host and s.captured_at < touched_periods.touched_period
    group by s.host, s.command, s.section, s.entity, s.counter_name, touched_periods.touched_period
),

{%- endif %}

printed as (
    select * from counter_snapshots
    where {{ touched('host', 'captured_at', 'day') }}
    {%- if touched_build() %}
    union
    select counter_snapshots.*
    from counter_snapshots
    inner join last_before_touched as previous
        on previous.host = counter_snapshots.host
        and previous.command = counter_snapshots.command
        and previous.section is not distinct from counter_snapshots.section
        and previous.entity is not distinct from counter_snapshots.entity
        and previous.counter_name = counter_snapshots.counter_name
        and previous.captured_utc = counter_snapshots.captured_utc
    {%- endif %}
),

counters as (
    -- an interface table may print the same address row twice: keep the first
    {{ first_copy('printed', ['host', 'command', 'section', 'entity', 'counter_name', 'captured_utc'], order_by=['line_number']) }}
),

sequenced as (
    select
        *,
        lag(value) over snapshots as previous_value,
        lag(captured_at) over snapshots as previous_captured_at,
        lag(captured_utc) over snapshots as previous_captured_utc
    from counters
    window snapshots as (partition by host, command, section, entity, counter_name order by captured_utc)
),

paired as (
    select
        *,
        bool_or(value < previous_value) over (
            partition by host, command, coalesce(entity, ''), previous_captured_utc, captured_utc
        ) as counter_reset
    from sequenced
    where previous_captured_utc is not null
)

select
    host, command, source_format, section, entity, counter_name, unit,
    previous_captured_at as interval_start,
    captured_at as interval_end,
    captured_utc as interval_end_utc,
    {{ micros_between('previous_captured_utc', 'captured_utc') }} / 1e6 as interval_s,
    previous_value,
    value,
    counter_reset,
    case when not counter_reset then value - previous_value end as delta_value,
    case
        when not counter_reset and captured_utc > previous_captured_utc
            then (value - previous_value)
                / ({{ micros_between('previous_captured_utc', 'captured_utc') }} / 1e6)
    end as rate_per_s
from paired
where {{ touched('host', 'captured_at', 'day') }}
