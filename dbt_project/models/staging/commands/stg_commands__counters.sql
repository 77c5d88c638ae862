-- Every counter of every command capture, renamed and typed. The same capture can arrive twice (a
-- single-capture file and a console log holding it): keep the first copy ingested. Rows are told
-- apart by their line within the capture too, because an interface table may print one address row
-- twice.
with source as (
    select * from {{ source('commands', 'command_counters') }}
),

positioned as (
    select
        *,
        line_number - min(line_number) over (partition by source_file_id, record_ordinal) as line_in_capture
    from source
),

ranked as (
    select
        *,
        row_number() over (
            partition by host, command, section, entity, counter_name, captured_at, line_in_capture
            order by source_file_id, record_ordinal
        ) as copy_number
    from positioned
)

select
    source_file_id,
    record_ordinal,
    line_number,
    host,
    command,
    source_format,
    section,
    entity,
    counter as counter_label,
    counter_name,
    cast(value as double) as value,
    text_value,
    unit,
    kind,
    captured_at,
    cast(utc_offset_s as integer) as utc_offset_s
from ranked
where copy_number = 1
