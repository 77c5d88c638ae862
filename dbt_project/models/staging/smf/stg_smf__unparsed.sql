-- Records perfdb does not decode (yet), kept verbatim: what a user sent that no model reads.
select
    source_file_id,
    record_ordinal,
    byte_offset,
    system_id,
    record_time,
    cast(record_type as integer) as record_type,
    cast(record_subtype as integer) as record_subtype,
    cast(extended_record_type as integer) as extended_record_type,
    subsystem_id,
    cast(record_length as integer) as record_length
from {{ source('smf', 'smf_unparsed') }}
