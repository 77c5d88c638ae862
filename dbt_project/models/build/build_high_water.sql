-- The last file this build reads and when it started: files loaded later, and files removed after this
-- moment, are the next build's (on-run-end records this row in audit.builds once the build succeeded).
select
    coalesce(max(file_id), 0) as last_file_id,
    cast(current_timestamp as timestamp) as started_at
from {{ source('manifest', 'ingest_files') }}
