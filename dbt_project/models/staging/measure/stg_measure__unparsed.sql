-- MEASCOM text perfdb keeps verbatim: what a user sent that no model reads yet.
select
    source_file_id,
    record_ordinal,
    source_form,
    entity,
    line_number,
    split_part(raw_text, chr(10), 1) as first_line,
    len(raw_text) - len(replace(raw_text, chr(10), '')) as line_count,
    raw_text
from {{ source('measure', 'measure_unparsed') }}
