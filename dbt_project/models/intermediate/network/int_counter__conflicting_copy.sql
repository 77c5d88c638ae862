-- Copies of one capture (the same host, command and instant, captured_utc) that two files hold with
-- different values: another collector's capture in the same second, a log edited by hand, a clock set
-- wrong on one of two collectors. int_counter__snapshot keeps the copy ingested first and the rates
-- difference only it, so no instant is differenced twice; a later copy that differs from it is not
-- dropped silently but listed here, with its file and line and the kept copy's. A copy with the same
-- values (a single-capture file and the log that holds it too) is a duplicate and is not listed.
with captures as (
    select
        *,
        row_number() over (
            partition by host, command, captured_utc order by source_file_id, record_ordinal
        ) as copy_number,
        count(*) over (partition by host, command, captured_utc) as copies
    from {{ ref('stg_commands__captures') }}
),

copied as (
    select * from captures where copies > 1
),

printed as (
    select
        copied.host,
        copied.command,
        copied.captured_utc,
        copied.copy_number,
        copied.source_file_id,
        copied.record_ordinal,
        labels.section,
        labels.entity,
        labels.counter_name,
        printed.value,
        printed.text_value,
        printed.line_number
            - min(printed.line_number) over (partition by printed.source_file_id, printed.record_ordinal)
            as line_in_capture
    from copied
    inner join {{ ref('stg_commands__values') }} as printed
        on printed.source_file_id = copied.source_file_id and printed.record_ordinal = copied.record_ordinal
    inner join {{ ref('stg_commands__counter_labels') }} as labels
        on labels.source_file_id = printed.source_file_id and labels.label_id = printed.label_id
),

-- each later copy's values against the first copy's, counter by counter (its name on the same line of
-- the capture): a value that differs, or a counter the first copy does not print there
differences as (
    select
        later.source_file_id,
        later.record_ordinal,
        sum(
            case
                when kept.counter_name is null
                    or kept.section is distinct from later.section
                    or kept.entity is distinct from later.entity
                    or kept.value is distinct from later.value
                    or kept.text_value is distinct from later.text_value
                    then 1
                else 0
            end
        ) as differing_value_count
    from printed as later
    left join printed as kept
        on kept.copy_number = 1
        and kept.host = later.host
        and kept.command = later.command
        and kept.captured_utc = later.captured_utc
        and kept.line_in_capture = later.line_in_capture
        and kept.counter_name = later.counter_name
    where later.copy_number > 1
    group by later.source_file_id, later.record_ordinal
)

select
    later.host,
    later.command,
    later.captured_at,
    later.utc_offset_s,
    later.captured_utc,
    later.source_file_id,
    later.record_ordinal,
    later_files.path as file_path,
    later.line_number,
    kept.source_file_id as kept_source_file_id,
    kept_files.path as kept_file_path,
    kept.line_number as kept_line_number,
    differences.differing_value_count,
    later.counter_count,
    kept.counter_count as kept_counter_count
from differences
inner join copied as later
    on later.source_file_id = differences.source_file_id and later.record_ordinal = differences.record_ordinal
inner join copied as kept
    on kept.copy_number = 1
    and kept.host = later.host
    and kept.command = later.command
    and kept.captured_utc = later.captured_utc
left join {{ source('manifest', 'ingest_files') }} as later_files on later_files.file_id = later.source_file_id
left join {{ source('manifest', 'ingest_files') }} as kept_files on kept_files.file_id = kept.source_file_id
where differences.differing_value_count > 0 or later.counter_count <> kept.counter_count
