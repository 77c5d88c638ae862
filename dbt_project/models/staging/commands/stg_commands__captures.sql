-- One row per loaded command capture (a capture in two files appears once per file: see
-- int_counter__snapshot for which copy is kept).
select
    source_file_id,
    record_ordinal,
    line_number,
    host,
    command,
    source_format,
    captured_at,
    cast(utc_offset_s as integer) as utc_offset_s,
    counter_count
from {{ source('commands', 'command_captures') }}
