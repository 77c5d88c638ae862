-- One row per user-defined counter (name, index) of a process and clock hour, as the rate its type
-- defines: ACCUM and FACCUM count events (per second, e.g. a THROUGHPUT counter), BUSY and QBUSY
-- accumulate busy time (percent of the interval), QUEUE accumulates queue length x time (average
-- queue length, e.g. a RESP-TIME counter: transactions in progress). Hours are keyed by their UTC instant
-- (hour_start_utc): a fall-back day's repeated clock hour is two rows.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
{%- set counter_keys = ['system_name', 'cpu_num', 'pin', 'program_file_name', 'counter_name', 'counter_index'] %}
with records as (
    {{ measured_touched_records(ref('stg_measure__userdef')) }}
),

hourly as (
    select
        {{ counter_keys | join(', ') }},
        {{ measure_clock_hour() }},
        max_by(process_name, interval_start_utc) as process_name,
        max(counter_type) as counter_type,
        max(counter_type_name) as counter_type_name,
        cast(sum(delta_time_us) as double) / 1e6 as measured_s,
        sum(counter_value) as counter_value,
        max(max_value) as max_value,
        -- type 1 ACCUM, 4 FACCUM; 2 BUSY, 5 QBUSY; 3 QUEUE
        case
            when max(counter_type) in (1, 4) then {{ per_s('sum(counter_value)') }}
            when max(counter_type) in (2, 5) then {{ busy_pct('sum(counter_value)') }}
            when max(counter_type) = 3 then {{ queue_length('sum(counter_value)') }}
        end as counter_rate,
        case
            when max(counter_type) in (1, 4) then 'per_s'
            when max(counter_type) in (2, 5) then 'pct'
            when max(counter_type) = 3 then 'avg_queue_length'
        end as counter_rate_unit,
        {{ process_key('max_by(process_name, interval_start_utc)') }} as process_key
    from records
    group by {{ counter_keys | join(', ') }}, {{ measure_clock_hour(named=false) }}
)

{{ with_shift('hourly') }}
