-- Every value printed in a command capture, by capture (record_ordinal) and counter (label_id).
select
    source_file_id,
    record_ordinal,
    label_id,
    line_number,
    cast(value as double) as value,
    text_value
from {{ source('commands', 'command_values') }}
