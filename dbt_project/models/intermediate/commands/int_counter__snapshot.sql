-- Every parsed counter of every command capture in one long model: hundreds of counters need no
-- wide tables and a counter a new release prints is kept. Marts pivot what they need from here.
select
    host,
    command,
    source_format,
    section,
    entity,
    counter_label,
    counter_name,
    value,
    text_value,
    unit,
    kind,
    captured_at,
    utc_offset_s,
    source_file_id,
    record_ordinal,
    line_number
from {{ ref('stg_commands__counters') }}
