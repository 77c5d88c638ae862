-- Per CPC (SMF70CSC) and RMF interval: the sum over its z/OS images that write SMF 70 of the MSU they
-- consumed and of their 4HRA (the CPC's 4HRA, what sub-capacity pricing adds up), valid when every
-- image's is. A CPC is not a system of the touched days, so this is a table over the LPAR intervals.
select
    cpc_serial,
    -- by the UTC start: a fall-back day repeats an hour of local starts
    interval_start_utc,
    min(interval_start) as interval_start,
    max(interval_end) as interval_end,
    count(*) as lpar_count,
    sum(msu_per_h) as msu_per_h,
    sum(rolling_4h_msu_per_h) as rolling_4h_msu_per_h,
    bool_and(is_4hra_valid) as is_4hra_valid,
    sum(wlm_4hra_msu_per_h) as wlm_4hra_msu_per_h,
    sum(case when is_capped then 1 else 0 end) as capped_lpar_count
from {{ ref('fct_msu_lpar_interval') }}
where cpc_serial is not null
group by cpc_serial, interval_start_utc
