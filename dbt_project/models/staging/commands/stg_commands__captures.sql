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
    -- the instant: captures are ordered and differenced on it, so an offset that changes within a log
    -- (DST, a new time zone) moves the local time, not the interval
    {{ add_millis('-1000 * coalesce(cast(utc_offset_s as bigint), 0)', 'captured_at') }} as captured_utc,
    counter_count
from {{ source('commands', 'command_captures') }}
