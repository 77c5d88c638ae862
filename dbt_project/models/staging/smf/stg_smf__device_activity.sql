-- SMF 74.1, one row per device and RMF interval (first copy ingested), with the sums RMF's device
-- activity report divides (docs/smf74_format.md): connect, pending and disconnect seconds over the
-- measured SSCHs (SMF74MEC), and the IOS queue seconds, the sampled average queue (SMF74QUE / SMF74SAM)
-- times the interval, over all SSCHs (Little's law: queue seconds / I/Os is the IOSQ time per I/O).
-- Sums, not averages, so that hours, shifts and months add them up and weigh each interval by its I/Os.
-- interval_start_utc by SMF74LGO: copies are told by it, as a fall-back day's repeated local hour holds two RMF
-- intervals of each local start.
with source as (
    {{ rmf_first_copy('smf74_device_activity', ['device_number']) }}
)

select
    {{ rmf_interval_columns() }},
    interval_start_utc,
    device_number,
    volser,
    unit_type,
    cast(lcu_number as integer) as lcu_number,
    cast(exposures as integer) as exposures,
    -- SMF74CNF X'20': SMF74SSC .. SMF74DIS are incorrect for the interval
    cast(floor(device_flags / 32) as integer) % 2 = 0 as is_measured,
    cast(ssch_count as bigint) as ssch_count,
    cast(measured_count as bigint) as measured_count,
    cast(connect_us as double) / 1e6 as connect_s,
    cast(pending_us as double) / 1e6 as pending_s,
    cast(disconnect_us as double) / 1e6 as disconnect_s,
    cast(queued_requests as double) / nullif(sample_count, 0) * interval_us / 1e6 as iosq_s,
    cast(sample_count as bigint) as sample_count,
    record_time
from source
