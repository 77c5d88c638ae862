{#-
    The z/OS images of a CPC (or of a capacity group on it) summed on a common time grid, for images whose RMF
    intervals are not synchronised (another start second, another interval length). The grid is on UTC time
    (interval_start_utc, interval_end_utc, by SMF70LGO): on local time a fall-back day's repeated hour would give
    overlapping segments, and images keeping other offsets would not meet. Each segment also has the local
    times of the intervals ending at its point (interval_start, interval_end: a day's rows are those of its
    local day). The grid's points are the ends of every image's intervals, each rounded to the second (RMF intervals run a few milliseconds short of
    the boundary the next one starts on, so synchronised images share their points); a segment runs from the
    point before (or from the start of the intervals ending at the first point) to its point. Per image and
    segment, with each of the image's intervals weighted by the seconds it overlaps:
      - segment_msu_per_h: its MSU/h over the segment (the rate of the interval that covers it);
      - rolling_4h_msu_per_h, window_covered_s: its 4HRA at the segment's end, over the four hours before it,
        as fct_msu_lpar_interval computes it at its own intervals' ends.
    The group's 4HRA at a point is then the sum of its images' 4HRAs at that point in time: WLM's view of the
    CPC, and the time-weighted average of the group's summed MSU/h over the four hours (the sum of averages
    over one window is the average of the sum).
    ``keys``: the group's columns (cpc_serial first: the touched grain's group, meta touched_via);
    ``where``: which image rows belong to a group.
-#}
{% macro msu_image_segments(keys, where) %}
    {%- set key_list = keys | join(', ') -%}
history as (
    -- the rebuilt days and the day before each, whose last four hours the first windows reach back to; local
    -- minus UTC, seconds, and the interval's end as a UTC instant
    select
        *,
        {{ dbt.datediff('interval_start_utc', 'interval_start', 'second') }} as utc_offset_s,
        {{ add_millis('cast(' ~ micros_between('interval_start', 'interval_end') ~ ' / 1000 as bigint)', 'interval_start_utc') }}
            as interval_end_utc
    from {{ ref('fct_msu_lpar_interval') }}
    where {{ where }}
        and ({{ touched('cpc_serial', 'interval_start', 'day_and_next') }}
            or {{ touched('cpc_serial', dbt.dateadd('day', 1, 'interval_start'), 'day_and_next') }})
),

points as (
    select {{ key_list }}, {{ dbt.date_trunc('second', add_millis(500, 'interval_end_utc')) }} as point_end,
        min(interval_start_utc) as first_start,
        max(utc_offset_s) as utc_offset_s
    from history
    group by {{ key_list }}, {{ dbt.date_trunc('second', add_millis(500, 'interval_end_utc')) }}
),

segments as (
    select
        {{ key_list }},
        -- after a gap in every image's data a segment starts with the intervals that end at its point
        greatest(
            coalesce(lag(point_end) over (partition by {{ key_list }} order by point_end), first_start),
            first_start
        ) as interval_start_utc,
        point_end as interval_end_utc,
        {{ add_millis(-4 * 3600 * 1000, 'point_end') }} as window_start,
        utc_offset_s
    from points
),

local_segments as (
    select
        *,
        {{ add_millis('1000 * utc_offset_s', 'interval_start_utc') }} as interval_start,
        {{ add_millis('1000 * utc_offset_s', 'interval_end_utc') }} as interval_end
    from segments
),

rebuilt as (
    select * from local_segments
    where {{ touched('cpc_serial', 'interval_start', 'day_and_next') }}
),

image_parts as (
    select
        {% for key in keys %}rebuilt.{{ key }}, {% endfor %}
        rebuilt.interval_start,
        rebuilt.interval_end,
        rebuilt.interval_start_utc,
        rebuilt.interval_end_utc,
        images.system_id,
        images.msu_per_h,
        images.wlm_4hra_msu_per_h,
        images.is_capped,
        images.group_max_msu_per_h,
        {{ micros_between(
            'case when images.interval_start_utc > rebuilt.window_start then images.interval_start_utc else rebuilt.window_start end',
            'case when images.interval_end_utc < rebuilt.interval_end_utc then images.interval_end_utc else rebuilt.interval_end_utc end'
        ) }} / 1e6 as window_s,
        {{ micros_between(
            'case when images.interval_start_utc > rebuilt.interval_start_utc then images.interval_start_utc else rebuilt.interval_start_utc end',
            'case when images.interval_end_utc < rebuilt.interval_end_utc then images.interval_end_utc else rebuilt.interval_end_utc end'
        ) }} / 1e6 as segment_s
    from rebuilt
    inner join history as images
        on {% for key in keys %}images.{{ key }} = rebuilt.{{ key }} and {% endfor %}images.interval_start_utc < rebuilt.interval_end_utc
        and images.interval_end_utc > rebuilt.window_start
    where images.msu_per_h is not null
),

image_segments as (
    select
        {{ key_list }},
        interval_start,
        interval_end,
        interval_start_utc,
        interval_end_utc,
        system_id,
        sum(case when segment_s > 0 then msu_per_h * segment_s end)
            / nullif(sum(case when segment_s > 0 then segment_s end), 0) as segment_msu_per_h,
        sum(case when segment_s > 0 then wlm_4hra_msu_per_h * segment_s end)
            / nullif(sum(case when segment_s > 0 and wlm_4hra_msu_per_h is not null then segment_s end), 0)
            as wlm_4hra_msu_per_h,
        max(case when segment_s > 0 and is_capped then 1 else 0 end) as is_capped,
        max(case when segment_s > 0 then group_max_msu_per_h end) as group_max_msu_per_h,
        sum(msu_per_h * window_s) / nullif(sum(window_s), 0) as rolling_4h_msu_per_h,
        sum(window_s) as window_covered_s
    from image_parts
    where window_s > 0
    group by {{ key_list }}, interval_start, interval_end, interval_start_utc, interval_end_utc, system_id
)
{% endmacro %}

{#- The sums over a group's images of msu_image_segments(): the images measured in the segment, their MSU/h,
    and the 4HRA, stated only where every image with intervals in the four hours covers them within a minute
    (the sum over a window an image only partly covers is neither the group's 4HRA nor comparable to it). -#}
{% macro msu_group_sums() %}
    sum(case when segment_msu_per_h is not null then 1 else 0 end) as lpar_count,
    sum(segment_msu_per_h) as msu_per_h,
    case when bool_and(window_covered_s >= 4 * 3600 - 60) then sum(rolling_4h_msu_per_h) end as rolling_4h_msu_per_h,
    bool_and(window_covered_s >= 4 * 3600 - 60) as is_4hra_valid,
    sum(wlm_4hra_msu_per_h) as wlm_4hra_msu_per_h
{%- endmacro %}
