-- Every parsed counter of every command capture in one long model: hundreds of counters need no
-- wide tables and a counter a new release prints is kept. Marts pivot what they need from here.
-- Raw stores a capture once, a counter once per file and each value as (capture, counter, line,
-- value), which makes ingest fast; the long rows are put back together here.
--
-- The same capture can arrive twice (a single-capture file and a console log holding it): keep the
-- first copy ingested. Copies are told apart by their instant (captured_utc: UTC where the offset is
-- known, so a local hour that repeats when the clocks go back holds two captures) and by their line
-- within the capture too, because an interface table may print one address row twice. A day model: every copy of a capture has its
-- captured_at, so the day of a capture's file holds all its copies.
{{ config(materialized='incremental', unique_key=['host', 'captured_at']) }}
with captures as (
    {{ touched_rows(ref('stg_commands__captures'), 'host', 'captured_at') }}
),

labels as (
    select * from {{ ref('stg_commands__counter_labels') }}
),

printed as (
    select * from {{ ref('stg_commands__values') }}
),

joined as (
    select
        captures.host,
        captures.command,
        captures.source_format,
        labels.section,
        labels.entity,
        labels.counter_label,
        labels.counter_name,
        printed.value,
        printed.text_value,
        labels.unit,
        labels.kind,
        captures.captured_at,
        captures.utc_offset_s,
        captures.captured_utc,
        printed.source_file_id,
        printed.record_ordinal,
        printed.line_number,
        printed.line_number
            - min(printed.line_number) over (partition by printed.source_file_id, printed.record_ordinal)
            as line_in_capture
    from printed
    inner join captures using (source_file_id, record_ordinal)
    inner join labels using (source_file_id, label_id)
),

first_copies as (
    {{ first_copy('joined', ['host', 'command', 'section', 'entity', 'counter_name', 'captured_utc', 'line_in_capture']) }}
)

select
    host,
    command,
    source_format,
    section,
    entity,
    counter_label,
    counter_name,
    value,
    text_value,
    unit,
    kind,
    captured_at,
    utc_offset_s,
    captured_utc,
    source_file_id,
    record_ordinal,
    line_number
from first_copies
