-- Per CPC (SMF70CSC) and segment of time: the MSU its z/OS images that write SMF 70 consumed, and the CPC's
-- 4HRA (what sub-capacity pricing adds up), valid when every image's window is covered. Images whose RMF
-- intervals are not synchronised (another start second or interval length) are summed on the common grid of
-- the ends of all their intervals, each image's rate time-weighted over the overlap, and the CPC's 4HRA at a
-- point in time is the sum of its images' 4HRAs at that point (macros/msu.sql). Synchronised images give one
-- segment per RMF interval, starting with it. Grain day_and_next as fct_msu_lpar_interval's, by CPC: a
-- touched system's day rebuilds its CPC's day and the day after (meta touched_via). The grid is on UTC time:
-- a fall-back day's repeated hour is two hours of segments (keyed by interval_start_utc), each with its local
-- times.
{{ config(materialized='incremental', unique_key=['cpc_serial', 'interval_start'],
          meta={'touched_grain': 'day_and_next',
                'touched_via': {'model': 'fct_msu_lpar_interval', 'system': 'system_id', 'group': 'cpc_serial'}}) }}
with {{ msu_image_segments(['cpc_serial'], 'cpc_serial is not null') }}

select
    cpc_serial,
    interval_start,
    interval_end,
    interval_start_utc,
    interval_end_utc,
    {{ msu_group_sums() }},
    sum(is_capped) as capped_lpar_count
from image_segments
group by cpc_serial, interval_start, interval_end, interval_start_utc, interval_end_utc
