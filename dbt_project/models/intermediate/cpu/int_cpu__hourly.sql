-- One row per system, processor and clock hour (King 1986, Fig. 5: the file CPUT, one record per
-- hourly LOADID). An interval counts in the hour it starts in; rates are averaged weighted by
-- interval length, so 15- or 30-minute intervals give the values one hourly interval would.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with intervals as (
    {{ touched_rows(ref('int_cpu__interval'), 'system_name', 'interval_start') }}
),

-- An hour is a clock hour of the system's local time at one UTC offset: a fall-back day has two 01:00
-- (or 02:00) hours, each its own row, told apart by hour_start_utc. hour_start stays the local clock hour,
-- which shifts and dashboards read.
keyed as (
    select
        *,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        {{ hour_start_utc('interval_start', 'interval_start_utc') }} as hour_start_utc
    from intervals
),

hourly as (
    select
        system_name, cpu_num, hour_start, hour_start_utc,
        max_by(source, interval_start_utc) as source,
        max_by(cpu_type, interval_start_utc) as cpu_type,
        max_by(os_version, interval_start_utc) as os_version,
        min(loadid) as loadid,
        count(*) as interval_count,
        sum(interval_s) as measured_s,
        {%- for measure in cpu_hourly_measures() %}
        sum({{ measure }} * interval_s)
            / sum(case when {{ measure }} is not null then interval_s end) as {{ measure }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from keyed
    group by system_name, cpu_num, hour_start, hour_start_utc
)

{{ with_shift('hourly') }}
