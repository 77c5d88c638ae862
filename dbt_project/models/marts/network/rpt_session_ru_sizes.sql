-- The RU sizes each session's BIND settled on (D NET,SESSIONS,SID=: IST2064I) beside those its logon mode
-- configures (RUSIZES of the MODEENT of that mode in the system's newest VTAM mode-table listing), one row per
-- display of a session whose mode a listing of its system defines. Seed 000 L202, L302 (rule 000-R08):
-- negotiation with the partner can settle on less than what is configured, and that downward negotiation costs
-- throughput; a session that sends smaller RUs either way than its mode configures fires. RUSIZES X'sspp': the
-- first byte the largest RU the secondary LU sends, the second the primary's (seed 000 L904-L906).
{%- set rusizes = rusizes_bytes() %}

with sessions as (
    {{ snapshot_columns('D NET,SESSIONS', 'session', 'session', {
        'logmode': 'logmode', 'plu_to_slu_ru_size': 'plu_to_slu_ru_size', 'slu_to_plu_ru_size': 'slu_to_plu_ru_size'
    }, texts=['logmode']) }}
),

settings as (
    {{ ranked_listing_settings() }}
),

-- a node's mode and RUSIZES as the configuration rules read them (its first setting of each)
modes as (
    select
        source_file_id,
        node,
        max(case when parameter_key = 'mode_name' and nth = 1 then value_text end) as mode_name,
        max(case when parameter_key = 'rusizes' and nth = 1 then value_text end) as rusizes_text
    from settings
    group by source_file_id, node
),

-- a system's configuration is its newest listing
newest as (
    select
        *,
        row_number() over (partition by node, mode_name order by source_file_id desc) as recency
    from modes
    where mode_name is not null
        and rusizes_text is not null
),

configured as (
    select
        source_file_id,
        upper(split_part(node, '/', 1)) as system_name,
        upper(mode_name) as logmode,
        {{ rusizes.second }} as plu_send_bytes,
        {{ rusizes.first }} as slu_send_bytes
    from newest
    where recency = 1
        and {{ rusizes.valid }}
)

select
    '000-R08' as rule_id,
    sessions.host as system_name,
    sessions.captured_at,
    sessions.session,
    configured.logmode,
    sessions.plu_to_slu_ru_size,
    sessions.slu_to_plu_ru_size,
    cast(configured.plu_send_bytes as double) as configured_plu_to_slu_ru_size,
    cast(configured.slu_send_bytes as double) as configured_slu_to_plu_ru_size,
    files.path as listing,
    sessions.plu_to_slu_ru_size < configured.plu_send_bytes
        or sessions.slu_to_plu_ru_size < configured.slu_send_bytes as fired
from sessions
inner join configured
    on configured.system_name = upper(sessions.host)
    and configured.logmode = upper(sessions.logmode)
left join {{ source('manifest', 'ingest_files') }} as files
    on files.file_id = configured.source_file_id
where sessions.plu_to_slu_ru_size is not null
    and sessions.slu_to_plu_ru_size is not null
