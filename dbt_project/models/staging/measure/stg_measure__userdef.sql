-- USERDEF records, one per user-defined counter (name, index) of a process and interval;
-- duplicate copies are dropped. name, type and index are quoted by the adapter: a double-quoted "name" is
-- the string 'name' on Spark, which would merge every counter silently. interval_start_utc from the system's
-- zone (a fall-back day's repeated hour holds two intervals).
{%- set name, type, index = adapter.quote('name'), adapter.quote('type'), adapter.quote('index') %}
with source as (
    {{ measure_first_copy(source('measure', 'measure_userdef'), ['cpu_num', 'pin', name, index]) }}
)

select
    {{ measure_record_columns() }}
    {{ measure_process_columns() }}
    upper({{ name }}) as counter_name,
    cast({{ type }} as integer) as counter_type,
    -- 1 ACCUM and 4 FACCUM count events, 2 BUSY and 5 QBUSY accumulate busy time, 3 QUEUE
    -- accumulates queue length x time (MEASURE Reference Manual, counter types)
    case cast({{ type }} as integer)
        when 1 then 'ACCUM'
        when 2 then 'BUSY'
        when 3 then 'QUEUE'
        when 4 then 'FACCUM'
        when 5 then 'QBUSY'
    end as counter_type_name,
    cast({{ index }} as integer) as counter_index,
    {{ measure_interval_columns() }}
    interval_start_utc,
    cast(max_value as bigint) as max_value,
    cast(counter_value as bigint) as counter_value
from source
