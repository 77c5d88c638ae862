-- What a user sent that perfdb does not read yet: MEASCOM text kept verbatim, per entity listed.
select
    coalesce(entity, '(outside any listing)') as entity,
    count(distinct source_file_id) as file_count,
    count(*) as block_count,
    sum(line_count) as line_count,
    min(first_line) as example_first_line
from {{ ref('stg_measure__unparsed') }}
group by all
