-- The channel-to-channel paths of each z/OS image, RMF interval by interval (SMF 73.1), against the maximum
-- channel utilisation seed 003 L386 measured for VTAM's host-to-host connections: "95% [with] VTAM V4R4 MPC+
-- as compared to maximum of 78-80% with VTAM V4R3". A path at that maximum is saturated. Whether a system's
-- connections are MPC+ is its VTAM listing's MPC+ setting (a listing is the system its file's name gives,
-- `<host>__<listing>__<time>`); a system without one is not evaluated. One row per system, interval and CTC
-- path, with the rule that applies (003-VT-CH-01 on MPC+, 003-VT-CH-02 otherwise) and whether it fired.
with paths as (
    select *
    from {{ ref('stg_smf__channel_path') }}
    where is_ctc and is_measured
),

-- the system's MPC+ setting: MPC+ when any of its listings says so
connections as (
    select
        systems.system_id,
        max(case when lower(trim(settings.value_text)) in ('yes', 'y', 'true', '1', 'on') then 1 else 0 end)
            as mpc_plus
    from (select distinct system_id from paths) as systems
    inner join {{ source('manifest', 'ingest_files') }} as files
        on {{ regex_contains('files.path', "'(^|/)' || systems.system_id || '__'") }}
    inner join {{ ref('stg_listings__parameters') }} as settings
        on settings.source_file_id = files.file_id
        and settings.parameter_key = 'mpc_plus'
    group by systems.system_id
),

-- the rules' limits as the catalogue states them (their default rows)
rules as (
    select rule_id, operator, {{ adapter.quote('limit') }} as limit_value
    from {{ ref('thresholds') }}
    where rule_id in ('003-VT-CH-01', '003-VT-CH-02') and system_name = '*'
)

select
    rules.rule_id,
    paths.system_id as system_name,
    paths.sysname,
    paths.interval_start,
    paths.interval_end,
    paths.chpid,
    paths.path_acronym,
    case when connections.mpc_plus = 1 then 'MPC+' else 'non-MPC+' end as connection_type,
    paths.utilization_pct as channel_util_pct,
    rules.limit_value,
    coalesce({{ crosses('paths.utilization_pct', 'rules.operator', 'rules.limit_value') }}, false) as fired
from paths
inner join connections
    on connections.system_id = paths.system_id
inner join rules
    on rules.rule_id = case when connections.mpc_plus = 1 then '003-VT-CH-01' else '003-VT-CH-02' end
