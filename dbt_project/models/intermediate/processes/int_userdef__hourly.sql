-- One row per user-defined counter (name, index) of a process and clock hour, as the rate its type
-- defines: ACCUM and FACCUM count events (per second, e.g. a THROUGHPUT counter), BUSY and QBUSY
-- accumulate busy time (percent of the interval), QUEUE accumulates queue length x time (average
-- queue length, e.g. a RESP-TIME counter: transactions in progress).
with records as (
    select * from {{ ref('stg_measure__userdef') }}
    where delta_time_us > 0
        and coalesce(error_code, 0) <= 0
),

hourly as (
    select
        system_name,
        cpu_num,
        pin,
        program_file_name,
        counter_name,
        counter_index,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        max_by(process_name, interval_start) as process_name,
        max(counter_type) as counter_type,
        max(counter_type_name) as counter_type_name,
        cast(sum(delta_time_us) as double) / 1e6 as measured_s,
        sum(counter_value) as counter_value,
        max(max_value) as max_value,
        case max(counter_type)
            when 1 then cast(sum(counter_value) as double) / (sum(delta_time_us) / 1e6)
            when 4 then cast(sum(counter_value) as double) / (sum(delta_time_us) / 1e6)
            when 2 then 100 * cast(sum(counter_value) as double) / sum(delta_time_us)
            when 5 then 100 * cast(sum(counter_value) as double) / sum(delta_time_us)
            when 3 then cast(sum(counter_value) as double) / sum(delta_time_us)
        end as counter_rate,
        case max(counter_type)
            when 1 then 'per_s'
            when 4 then 'per_s'
            when 2 then 'pct'
            when 5 then 'pct'
            when 3 then 'avg_queue_length'
        end as counter_rate_unit
    from records
    group by
        system_name,
        cpu_num,
        pin,
        program_file_name,
        counter_name,
        counter_index,
        {{ dbt.date_trunc('hour', 'interval_start') }}
)

select
    hourly.*,
    coalesce(
        hourly.process_name,
        hourly.program_file_name || ' (' || cast(hourly.cpu_num as varchar) || ',' || cast(hourly.pin as varchar) || ')'
    ) as process_key,
    {{ shift_columns('hourly.hour_start') }}
from hourly
{{ join_shift('hourly.hour_start', 'hourly.system_name') }}
