-- SMF 73.1, one row per system, RMF interval and defined channel path (first copy ingested), with the
-- utilisation RMF's channel path activity report prints: the partition's busy time over its measurement
-- interval (SMF73PBY / SMF73PTI) where the channel path measurement facility measured it, else the sampled busy
-- (SMF73BSY / SMF73SMP). The sections RMF writes for CHPIDs not defined (SMF73PID only: SMF73FG3 X'02' valid
-- path off) are left out. is_ctc: SMF73FG4 X'40', the path is defined channel-to-channel (the paths a VTAM
-- host-to-host connection, MPC+ or AHHC, runs over).
with source as (
    {{ rmf_first_copy('smf73_channel_path', ['chpid']) }}
)

select
    {{ rmf_interval_columns() }},
    interval_start_utc,
    chpid,
    path_acronym,
    cast(floor(path_flags / 64) as integer) % 2 = 1 as is_ctc,
    -- SMF73FG2 X'02': the path was reconfigured in the interval, its data is incorrect
    cast(floor(channel_flags / 2) as integer) % 2 = 0 as is_measured,
    cast(partition_busy_us as double) / 1e6 as partition_busy_s,
    round(100.0 * case
        when partition_interval_us > 0 then cast(partition_busy_us as double) / partition_interval_us
        else cast(busy_samples as double) / nullif(busy_sample_count, 0)
    end, 4) as utilization_pct,
    record_time
from source
where cast(floor(channel_flags_ext / 2) as integer) % 2 = 1
