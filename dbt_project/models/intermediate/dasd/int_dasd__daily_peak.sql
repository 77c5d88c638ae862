-- Each DASD volume's peak hour per day (or per shift and day with capacity_peak_basis = 'shift'), the series
-- fct_capacity_daily_peak adds for the capacity forecast, two per volume:
--   dasd_response: the hour's response time, ms, judged against the response-time limit of the rules
--     catalogue's DASD-T1 (fct_capacity_forecast): with PAV aliases and cache a volume's busy says little about
--     the service it gives, while its response time is what the applications wait for and what DASD-T1 limits;
--   dasd_busy: the hour's device busy, percent (connect + disconnect over the time of the volume's exposures),
--     judged against reference_capacity_thresholds' dasd_busy row like a disc's busy.
-- An hour's figures weigh its RMF intervals by their I/Os (int_dasd__hourly); an hour without I/O has no
-- response time and is no response peak. servers is the volume's exposures (base and aliases). A day model, as
-- int_capacity__device_daily_peak: the touched days only.
{%- set by_shift = var('capacity_peak_basis', 'daily') == 'shift' %}
{{ config(materialized='incremental',
          unique_key=['system_name', 'peak_date'], meta={'touched_grain': 'shift_date' if by_shift else 'day'}) }}

with volume_hours as (
    select * from {{ ref('int_dasd__hourly') }}
    where {{ touched('system_name', 'shift_date', 'shift_date') if by_shift else touched('system_name', 'hour_start', 'day') }}
),

-- daily_peaks() takes the peak of busy_pct: each resource's figure of the hour
hourly as (
    {%- for resource_type, figure in {'dasd_response': 'response_ms', 'dasd_busy': 'busy_pct'}.items() %}
    select
        '{{ resource_type }}' as resource_type,
        system_name,
        {{ dasd_volume_label() }} as resource_name,
        exposures as servers,
        hour_start,
        shift,
        shift_date,
        {{ figure }} as busy_pct,
        cast(null as string) as cpu_type
    from volume_hours
    where {{ figure }} is not null
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

{{ daily_peaks('hourly', by_shift) }}
