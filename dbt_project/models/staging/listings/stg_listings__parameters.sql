-- Every parameter of every listing loaded, as the listing printed it and under its canonical name
-- (parameter_key, the rules catalogue's metric). A listing is its file: the same node in two listings (the
-- baseline and the tuned NCP of seed 000) is two configurations, both kept.
select
    source_file_id,
    record_ordinal,
    line_number,
    node,
    parameter,
    parameter_key,
    value_text,
    value,
    unit,
    source_format
from {{ source('listings', 'parameter_listings') }}
