-- Each DASD volume's peak hourly response time per day (or per shift and day with capacity_peak_basis =
-- 'shift'), the series fct_capacity_daily_peak adds for the capacity forecast: resource_type dasd_response,
-- in ms, judged against the response-time limit of the rules catalogue's DASD-T1 (fct_capacity_forecast).
-- Response time rather than device busy: with PAV aliases and cache a volume's busy says little about the
-- service it gives, while its response time is what the applications wait for and what DASD-T1 limits. An
-- hour's response time weighs its RMF intervals by their I/Os (int_dasd__hourly); an hour without I/O has
-- none and is no peak. servers is the volume's exposures (base and aliases). A day model, as
-- int_capacity__device_daily_peak: the touched days only.
{%- set by_shift = var('capacity_peak_basis', 'daily') == 'shift' %}
{{ config(materialized='incremental',
          unique_key=['system_name', 'peak_date'], meta={'touched_grain': 'shift_date' if by_shift else 'day'}) }}

with hourly as (
    select
        'dasd_response' as resource_type,
        system_name,
        {{ dasd_volume_label() }} as resource_name,
        exposures as servers,
        hour_start,
        shift,
        shift_date,
        -- daily_peaks() takes the peak of busy_pct: here the hour's response time, ms
        response_ms as busy_pct,
        cast(null as string) as cpu_type
    from {{ ref('int_dasd__hourly') }}
    where response_ms is not null
        and {{ touched('system_name', 'shift_date', 'shift_date') if by_shift else touched('system_name', 'hour_start', 'day') }}
)

{{ daily_peaks('hourly', by_shift) }}
