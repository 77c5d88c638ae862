-- Seed 000's mode consistency (R14, L370-L413): a mode the network's applications use is defined alike on
-- every node that defines it, or sessions of one mode get RU sizes and windows that depend on which end
-- binds them (the document's CM/2 #BATCH sessions with 256-byte and 8,192-byte RUs). One row per
-- definition of a mode that more than one node defines, each node's newest listing: its RU size and its
-- smallest pacing window beside the mode's range; every definition of a mode whose definitions differ
-- fires (which one is wrong the listings cannot tell).
--   RU size         a generic listing's RU size, CM/2's MAX_RU_SIZE_UPPER_BOUND, the AS/400's MAXLENRU
--                   (*CALC is computed at bind: no size to compare), VTAM's RUSIZES (the larger direction)
--   pacing window   CM/2's RECEIVE_PACING_WINDOW, VTAM's PSNDPAC, SSNDPAC and SRCVPAC, the AS/400's
--                   INPACING and OUTPACING: the smallest
{%- set rusizes = rusizes_bytes() %}

with settings as (
    {{ ranked_listing_settings() }}
),

definitions as (
    select
        source_file_id,
        node,
        max(case when parameter_key = 'mode_name' and nth = 1 then value_text end) as mode_name,
        max(case when parameter_key = 'rusizes' and nth = 1 then value_text end) as rusizes_text,
        max(case when parameter_key in ('ru_size', 'max_ru_size_upper_bound', 'maxlenru') and nth = 1 then value end)
            as ru_number,
        min(case when parameter_key in ('pacing_window', 'mode_send_pacing', 'inpacing', 'outpacing') then value end)
            as pacing_window
    from settings
    group by source_file_id, node
    having max(case when parameter_key = 'mode_name' then 1 else 0 end) = 1
),

-- a node's configuration is its newest listing
newest as (
    select
        *,
        row_number() over (partition by node, mode_name order by source_file_id desc) as recency
    from definitions
),

sized as (
    select
        source_file_id,
        node,
        mode_name,
        pacing_window,
        coalesce(ru_number, case when {{ rusizes.valid }} then greatest({{ rusizes.first }}, {{ rusizes.second }}) end)
            as ru_bytes
    from newest
    where recency = 1
),

modes as (
    select
        mode_name,
        count(*) as definitions,
        count(distinct ru_bytes) as ru_sizes,
        count(distinct pacing_window) as pacing_windows,
        min(ru_bytes) as min_ru_bytes,
        max(ru_bytes) as max_ru_bytes,
        min(pacing_window) as min_pacing_window,
        max(pacing_window) as max_pacing_window
    from sized
    group by mode_name
    having count(*) > 1
)

select
    '000-R14' as rule_id,
    upper(sized.mode_name) as mode_name,
    sized.source_file_id,
    files.path as listing,
    sized.node,
    split_part(sized.node, '/', 1) as system_name,
    cast(sized.ru_bytes as double) as ru_bytes,
    sized.pacing_window,
    modes.definitions,
    cast(modes.min_ru_bytes as double) as min_ru_bytes,
    cast(modes.max_ru_bytes as double) as max_ru_bytes,
    modes.min_pacing_window,
    modes.max_pacing_window,
    modes.ru_sizes > 1 or modes.pacing_windows > 1 as fired
from sized
inner join modes
    on modes.mode_name = sized.mode_name
left join {{ source('manifest', 'ingest_files') }} as files
    on files.file_id = sized.source_file_id
