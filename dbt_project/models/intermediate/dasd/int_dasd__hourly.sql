-- One row per z/OS system, DASD volume and clock hour (SMF 74.1): the RMF intervals of the hour added up
-- (macros/dasd.sql), with RMF's device activity figures from the sums and the hour's shift. Intervals whose
-- device flags say the times are incorrect are left out. Hours are keyed by their UTC instant (hour_start_utc, by
-- SMF74LGO): a fall-back day's repeated clock hour is two rows, a spring-forward day has 23.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with intervals as (
    select
        system_id as system_name,
        device_number,
        volser,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        {{ hour_start_utc('interval_start', 'interval_start_utc') }} as hour_start_utc,
        exposures,
        interval_s as measured_s,
        interval_s * exposures as exposure_s,
        ssch_count,
        measured_count,
        connect_s,
        pending_s,
        disconnect_s,
        iosq_s
    from {{ ref('stg_smf__device_activity') }}
    where is_measured
        and {{ touched('system_id', 'interval_start', 'day') }}
),

hourly as (
    select
        system_name, device_number, volser, hour_start, hour_start_utc,
        max(exposures) as exposures,
        count(*) as n_intervals,
        {{ dasd_sums() }}
    from intervals
    group by system_name, device_number, volser, hour_start, hour_start_utc
)

select *, {{ dasd_figures() }}
from ({{ with_shift('hourly') }}) as shifted
