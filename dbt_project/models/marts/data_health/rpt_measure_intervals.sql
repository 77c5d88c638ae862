-- King 1986 (seed 001 L1976, L2199, L2201, L2522): the performance data base is measured INTERVAL 1 HOURS,
-- 24 hours a day (a 30-minute interval is for an application analysis, 1-2 hours of file and process data
-- for a file or process study). One row per system and day of its MEASURE data (the CPU records, which
-- every measurement holds): the interval lengths (DELTA-TIME) and the hours measured, fired (001-b6.4-7)
-- when an interval is not one hour or the day has hours no interval covers.
with intervals as (
    select distinct
        system_name,
        interval_start,
        interval_start_utc,
        delta_time_us,
        -- the system's UTC offset at the interval, minutes
        {{ dbt.datediff('interval_start_utc', 'interval_start', 'minute') }} as utc_offset_min
    from ({{ measured_records(ref('stg_measure__cpu')) }}) as records
),

days as (
    select
        system_name,
        cast(interval_start as date) as report_date,
        count(*) as interval_count,
        cast(min(delta_time_us) as double) / 1e6 as interval_s_min,
        cast(max(delta_time_us) as double) / 1e6 as interval_s_max,
        cast(sum(delta_time_us) as double) / 3.6e9 as measured_hours,
        -- 24 hours, 23 or 25 on the day the clock changes: the offset at the first interval less that at the last
        24 + (min_by(utc_offset_min, interval_start_utc) - max_by(utc_offset_min, interval_start_utc)) / 60.0 as day_hours
    from intervals
    group by system_name, cast(interval_start as date)
)

select
    system_name,
    report_date,
    '001-b6.4-7' as rule_id,
    interval_count,
    interval_s_min,
    interval_s_max,
    measured_hours,
    day_hours,
    interval_s_min <> 3600 or interval_s_max <> 3600 or measured_hours < day_hours as fired
from days
