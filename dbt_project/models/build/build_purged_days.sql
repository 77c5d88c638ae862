-- The (system, day) pairs retention has purged raw files of (ingest/warehouse/retention.py): no build
-- rebuilds a day or a shift that holds one of them (macros/incremental.sql touched_periods), since its rows
-- can no longer be computed from complete detail; the rows built before stay as they are.
select distinct days.system_name, days.day
from {{ source('manifest', 'ingest_file_days') }} as days
inner join {{ source('manifest', 'ingest_files') }} as files
    on files.file_id = days.source_file_id
where files.status = 'purged'
