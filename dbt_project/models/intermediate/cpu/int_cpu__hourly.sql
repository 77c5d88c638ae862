-- One row per system, processor and clock hour (King 1986, Fig. 5: the file CPUT, one record per
-- hourly LOADID). An interval counts in the hour it starts in; rates are averaged weighted by
-- interval length, so 15- or 30-minute intervals give the values one hourly interval would.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with intervals as (
    {{ touched_rows(ref('int_cpu__interval'), 'system_name', 'interval_start') }}
),

hourly as (
    select
        system_name, cpu_num, {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        max_by(source, interval_start) as source,
        max_by(cpu_type, interval_start) as cpu_type,
        max_by(os_version, interval_start) as os_version,
        min(loadid) as loadid,
        count(*) as interval_count,
        sum(interval_s) as measured_s,
        {%- for measure in cpu_hourly_measures() %}
        sum({{ measure }} * interval_s)
            / sum(case when {{ measure }} is not null then interval_s end) as {{ measure }}{% if not loop.last %},{% endif %}
        {%- endfor %}
    from intervals
    group by system_name, cpu_num, {{ dbt.date_trunc('hour', 'interval_start') }}
)

{{ with_shift('hourly') }}
