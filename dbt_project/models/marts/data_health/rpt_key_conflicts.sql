-- Copies of the same measurements in two files (ingest/warehouse/copies.py: the same system, entity and
-- interval in both), per pair of files, raw table and system. A duplicate (every value alike) is counted once
-- by the marts; a conflict (a value differs) makes `perfdb check` fail until `perfdb remove` takes the wrong
-- copy out, and meanwhile the marts use the copy loaded first (staging's first_copy): other_file_id's.
select
    copies.table_name,
    copies.system_name,
    copies.file_id,
    files.path,
    copies.other_file_id,
    others.path as other_path,
    copies.first_day,
    copies.last_day,
    case when copies.conflicting_rows > 0 then 'conflict' else 'duplicate' end as copy_kind,
    copies.duplicate_rows,
    copies.conflicting_rows,
    copies.example as conflicting_key_example,
    copies.detected_at
from {{ source('manifest', 'key_conflicts') }} as copies
inner join {{ source('manifest', 'ingest_files') }} as files on files.file_id = copies.file_id
inner join {{ source('manifest', 'ingest_files') }} as others on others.file_id = copies.other_file_id
