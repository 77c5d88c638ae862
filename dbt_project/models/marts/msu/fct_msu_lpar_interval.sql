-- Per z/OS image (LPAR) and RMF interval: the MSU consumed and the rolling four-hour average (4HRA) WLM
-- prices and caps by. The 4HRA of an interval is the time-weighted mean MSU/h of the image's intervals
-- over the four hours of wall time ending at the interval's end: each interval weighs the seconds it
-- overlaps that window, so 48 five-minute intervals, 16 fifteen-minute or 8 thirty-minute ones all
-- give WLM's average. SMF 70.1 carries no IPL time: an IPL (or anything that stops RMF) leaves the image
-- without intervals, and the 4HRA is valid only where the image's measured intervals cover the whole
-- window, within a minute (RMF intervals run a few milliseconds short). So the intervals ending less
-- than four hours after the first interval after a gap (an IPL, or the first data ever) are invalid.
-- Capping: the valid 4HRA at or above the defined capacity (SMF70MSU); the capacity group (SMF70GNM,
-- limit SMF70GMU) is its members' together, in fct_msu_group_interval.
-- The window is UTC time (a fall-back day's repeated hour is two hours of intervals, a spring-forward day's
-- skipped hour none). A day's rows depend on the last four hours of the day before: grain day_and_next rebuilds a touched
-- day and the day after, reading from the day before (macros/incremental.sql).
{{ config(materialized='incremental', unique_key=['system_id', 'interval_start'],
          meta={'touched_grain': 'day_and_next'}) }}
with history as (
    {{ touched_rows_with_lookback(ref('int_msu__lpar_interval'), 'system_id', 'interval_start') }}
),

rebuilt as (
    -- add_millis, not dbt.dateadd: on Spark dateadd drops the fraction of a second (a window up to a second longer)
    select *, {{ add_millis(-4 * 3600 * 1000, 'interval_end_utc') }} as window_start
    from history
    where {{ touched('system_id', 'interval_start', 'day_and_next') }}
),

window_parts as (
    select
        rebuilt.system_id,
        rebuilt.interval_start_utc,
        earlier.msu_per_h,
        {{ micros_between(
            'case when earlier.interval_start_utc > rebuilt.window_start then earlier.interval_start_utc else rebuilt.window_start end',
            'case when earlier.interval_end_utc < rebuilt.interval_end_utc then earlier.interval_end_utc else rebuilt.interval_end_utc end'
        ) }} / 1e6 as overlap_s
    from rebuilt
    inner join history as earlier
        on earlier.system_id = rebuilt.system_id
        and earlier.interval_start_utc < rebuilt.interval_end_utc
        and earlier.interval_end_utc > rebuilt.window_start
    where earlier.msu_per_h is not null
),

rolling as (
    select
        system_id,
        interval_start_utc,
        sum(msu_per_h * overlap_s) / nullif(sum(overlap_s), 0) as rolling_4h_msu_per_h,
        sum(overlap_s) as window_covered_s
    from window_parts
    where overlap_s > 0
    group by system_id, interval_start_utc
),

lpar as (
    select
        rebuilt.system_id,
        rebuilt.sysname,
        rebuilt.sysplex_name,
        rebuilt.cpc_serial,
        rebuilt.partition_name,
        rebuilt.interval_start,
        rebuilt.interval_start_utc,
        rebuilt.interval_end,
        rebuilt.interval_s,
        rebuilt.cp_count,
        rebuilt.msu_per_h,
        case when rebuilt.msu_per_h is not null then rolling.rolling_4h_msu_per_h end as rolling_4h_msu_per_h,
        coalesce(rolling.window_covered_s, 0) as window_covered_s,
        rebuilt.msu_per_h is not null and coalesce(rolling.window_covered_s, 0) >= 4 * 3600 - 60 as is_4hra_valid,
        rebuilt.long_term_avg_msu_per_h as wlm_4hra_msu_per_h,
        rebuilt.sample_count,
        rebuilt.capacity_msu_per_h,
        rebuilt.defined_capacity_msu_per_h,
        rebuilt.capacity_group_name,
        rebuilt.group_max_msu_per_h
    from rebuilt
    left join rolling using (system_id, interval_start_utc)
)

select
    *,
    is_4hra_valid and coalesce(rolling_4h_msu_per_h >= defined_capacity_msu_per_h, false) as is_capped
from lpar
