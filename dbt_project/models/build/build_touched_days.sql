-- The (system, day) pairs the incremental models rebuild: the days of every file loaded since the last
-- successful build (up to this build's high-water mark) and of every file removed since that build
-- started. A late file for an old day touches that old day, and for a command host the next day that
-- host captured the same command: a counter's rate pairs each capture with the one before it, so the
-- first capture after a capture that arrived late (or was removed) has another interval now.
-- `perfdb build --full-refresh` on a warehouse whose retention has purged raw files sets the var
-- rebuild_kept: every day of a file still kept is touched, so the day models rebuild all they can from
-- the raw data kept, and keep the periods of purged days as built (a true full refresh would rebuild the
-- summaries from the kept detail alone and lose every older shift, month and year).
{%- if var('rebuild_kept', false) %}
select distinct days.system_name, days.day
from {{ source('manifest', 'ingest_file_days') }} as days
inner join {{ source('manifest', 'ingest_files') }} as files
    on files.file_id = days.source_file_id
cross join {{ ref('build_high_water') }} as this_build
where files.status in ('loaded', 'loaded_with_rejects')
    and days.source_file_id <= this_build.last_file_id
{%- else %}
with last_build as (
    select
        coalesce(max(last_file_id), 0) as last_file_id,
        coalesce(max(started_at), cast('1900-01-01 00:00:00' as timestamp)) as started_at
    from {{ source('builds', 'builds') }}
),

loaded as (
    select file_days.system_name, file_days.day
    from {{ source('manifest', 'ingest_file_days') }} as file_days
    cross join last_build
    cross join {{ ref('build_high_water') }} as this_build
    where file_days.source_file_id > last_build.last_file_id
        and file_days.source_file_id <= this_build.last_file_id
),

removed as (
    select removed_days.system_name, removed_days.day
    from {{ source('manifest', 'removed_file_days') }} as removed_days
    cross join last_build
    where removed_days.removed_at >= last_build.started_at
),

changed as (
    select system_name, day from loaded
    union
    select system_name, day from removed
),

command_days as (
    select distinct host, command, cast(captured_at as date) as day
    from {{ source('commands', 'command_captures') }}
),

following as (
    select changed.system_name, min(command_days.day) as day
    from changed
    inner join command_days
        on command_days.host = changed.system_name and command_days.day > changed.day
    group by changed.system_name, changed.day, command_days.command
)

select system_name, day from changed
union
select system_name, day from following
{%- endif %}
