-- Per capacity group (SMF70GNM on its CPC) and RMF interval: its members' 4HRA together against the
-- group limit (SMF70GMU), which WLM caps the group by. A table over the LPAR intervals, like the CPC's.
select
    cpc_serial,
    capacity_group_name,
    -- by the UTC start: a fall-back day repeats an hour of local starts
    interval_start_utc,
    min(interval_start) as interval_start,
    count(*) as member_count,
    sum(msu_per_h) as msu_per_h,
    sum(rolling_4h_msu_per_h) as rolling_4h_msu_per_h,
    bool_and(is_4hra_valid) as is_4hra_valid,
    max(group_max_msu_per_h) as group_max_msu_per_h,
    bool_and(is_4hra_valid) and coalesce(sum(rolling_4h_msu_per_h) >= max(group_max_msu_per_h), false) as is_capped
from {{ ref('fct_msu_lpar_interval') }}
where capacity_group_name is not null
group by cpc_serial, capacity_group_name, interval_start_utc
