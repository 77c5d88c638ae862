-- Per capacity group (SMF70GNM on its CPC) and segment of time: its members' 4HRA together against the group
-- limit (SMF70GMU), which WLM caps the group by. Summed as the CPC's (fct_msu_cpc_interval, macros/msu.sql):
-- on the common grid of the members' interval ends, so members whose RMF intervals are not synchronised count
-- at the same points in time, on UTC time. Grain day_and_next by CPC, as the CPC's.
{{ config(materialized='incremental', unique_key=['cpc_serial', 'interval_start'],
          meta={'touched_grain': 'day_and_next',
                'touched_via': {'model': 'fct_msu_lpar_interval', 'system': 'system_id', 'group': 'cpc_serial'}}) }}
{#- a group's segment of time: the grain of the sums and of the model's rows #}
{%- set grain = ['cpc_serial', 'capacity_group_name', 'interval_start', 'interval_end', 'interval_start_utc',
                'interval_end_utc'] %}
with {{ msu_image_segments(['cpc_serial', 'capacity_group_name'], 'cpc_serial is not null and capacity_group_name is not null') }},

sums as (
    select
        {{ grain | join(', ') }},
        {{ msu_group_sums() }},
        max(group_max_msu_per_h) as group_max_msu_per_h
    from image_segments
    group by {{ grain | join(', ') }}
)

select
    {{ grain | join(', ') }},
    lpar_count as member_count,
    msu_per_h,
    rolling_4h_msu_per_h,
    is_4hra_valid,
    wlm_4hra_msu_per_h,
    group_max_msu_per_h,
    coalesce(is_4hra_valid and rolling_4h_msu_per_h >= group_max_msu_per_h, false) as is_capped
from sums
