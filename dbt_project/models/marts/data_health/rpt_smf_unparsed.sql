-- What a user sent that perfdb does not decode yet: SMF records per system, type and subtype.
select
    system_id,
    record_type,
    record_subtype,
    extended_record_type,
    count(*) as record_count,
    sum(record_length) as record_bytes,
    min(record_time) as first_record_time,
    max(record_time) as last_record_time
from {{ ref('stg_smf__unparsed') }}
group by system_id, record_type, record_subtype, extended_record_type
