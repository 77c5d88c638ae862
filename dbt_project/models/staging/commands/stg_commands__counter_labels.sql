-- The counters of each file: what a label_id of stg_commands__values stands for.
select
    source_file_id,
    label_id,
    record_ordinal as first_record_ordinal,
    section,
    entity,
    counter as counter_label,
    counter_name,
    unit,
    kind
from {{ source('commands', 'command_counter_labels') }}
