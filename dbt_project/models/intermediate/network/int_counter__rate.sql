-- Deltas and per-second rates of cumulative counters between consecutive snapshots of the same
-- host, command, section, entity and counter. Counters only grow while the system runs: when any
-- counter of an entity is lower than in the previous snapshot, the stack, adapter or system was
-- restarted (or a 32-bit counter wrapped) in between, and that interval is dropped (delta and rate
-- NULL, counter_reset true) rather than reported negative. Gauges are not differenced. A counter
-- seen for the first time (net-tools prints many only once they are non-zero) has its first rate at
-- its second snapshot.
with printed as (
    select * from {{ ref('int_counter__snapshot') }}
    where kind = 'counter' and value is not null
),

counters as (
    -- an interface table may print the same address row twice: keep the first
    {{ first_copy('printed', ['host', 'command', 'section', 'entity', 'counter_name', 'captured_at'], order_by=['line_number']) }}
),

sequenced as (
    select
        *,
        lag(value) over snapshots as previous_value,
        lag(captured_at) over snapshots as previous_captured_at
    from counters
    window snapshots as (partition by host, command, section, entity, counter_name order by captured_at)
),

paired as (
    select
        *,
        bool_or(value < previous_value) over (
            partition by host, command, coalesce(entity, ''), previous_captured_at, captured_at
        ) as counter_reset
    from sequenced
    where previous_captured_at is not null
)

select
    host, command, source_format, section, entity, counter_name, unit,
    previous_captured_at as interval_start,
    captured_at as interval_end,
    {{ micros_between('previous_captured_at', 'captured_at') }} / 1e6 as interval_s,
    previous_value,
    value,
    counter_reset,
    case when not counter_reset then value - previous_value end as delta_value,
    case
        when not counter_reset and captured_at > previous_captured_at
            then (value - previous_value)
                / ({{ micros_between('previous_captured_at', 'captured_at') }} / 1e6)
    end as rate_per_s
from paired
