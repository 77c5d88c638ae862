-- One row per disc volume and clock hour, with the DISC items King 1986 names as key (DISC BUSY,
-- REQ QLEN, SEEK BUSY, cache hits and misses) and as report line items (WRITE BUSY, BYTE RATE).
-- MEASURE writes one DISC record per CPU running a disc process for the volume (primary and
-- backup): the records of one interval are added up first, so rates are per volume. Hours are keyed by
-- their UTC instant (hour_start_utc): a fall-back day's repeated clock hour is two rows.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
with records as (
    {{ measured_touched_records(ref('stg_measure__disc')) }}
),

per_interval as (
    select
        system_name,
        device_name,
        interval_start,
        interval_start_utc,
        max(delta_time_us) as delta_time_us,
        max_by(device_type, cpu_num) as device_type,
        sum(read_busy_us) as read_busy_us,
        sum(write_busy_us) as write_busy_us,
        sum(seek_busy_us) as seek_busy_us,
        sum(device_qbusy_us) as device_qbusy_us,
        sum(request_qtime_us) as request_qtime_us,
        sum(request_count) as request_count,
        sum(read_count) as read_count,
        sum(write_count) as write_count,
        sum(input_bytes) + sum(output_bytes) as transferred_bytes,
        sum(cache_hit_count) as cache_hit_count,
        sum(cache_miss_count) as cache_miss_count
    from records
    group by system_name, device_name, interval_start, interval_start_utc, interval_end
),

hourly as (
    select
        system_name, device_name, {{ measure_clock_hour() }},
        max_by(device_type, interval_start_utc) as device_type,
        cast(sum(delta_time_us) as double) / 1e6 as measured_s,
        -- DISC BUSY: read busy + write busy (MEASURE's calculated DISC-BUSY-TIME)
        {{ busy_pct('sum(read_busy_us) + sum(write_busy_us)') }} as busy_pct,
        {{ busy_pct('sum(write_busy_us)') }} as write_busy_pct,
        {{ busy_pct('sum(seek_busy_us)') }} as seek_busy_pct,
        -- time at least one request was queued to the device: G-series counts no read/write busy
        {{ busy_pct('sum(device_qbusy_us)') }} as device_qbusy_pct,
        {{ queue_length('sum(request_qtime_us)') }} as request_qlen,
        cast(sum(cache_hit_count) as double)
            / nullif(sum(cache_hit_count) + sum(cache_miss_count), 0) as cache_hit_ratio,
        {{ per_s('sum(transferred_bytes)') }} as bytes_per_s,
        {{ per_s('sum(request_count)') }} as requests_per_s,
        sum(read_count) as read_count,
        sum(write_count) as write_count,
        sum(cache_hit_count) as cache_hit_count,
        sum(cache_miss_count) as cache_miss_count
    from per_interval
    group by system_name, device_name, {{ measure_clock_hour(named=false) }}
)

{{ with_shift('hourly') }}
