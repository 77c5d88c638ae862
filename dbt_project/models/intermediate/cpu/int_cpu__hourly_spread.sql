-- One row per system and clock hour, across its processors: the reading of DELT in the caption of
-- King 1986, Fig. 2, "between the busiest processor and the least busy processor". (The other
-- reading, one processor's spread across the hours of a shift, is in fct_cpu_shift.)
-- The processor with the longest ready queue is named, as the CPU NUM column of Fig. 2. A fall-back day's
-- repeated clock hour is two rows (hour_start_utc).
{{ config(materialized='incremental', unique_key=['system_name', 'hour_start']) }}
with hourly as (
    {{ touched_rows(ref('int_cpu__hourly'), 'system_name', 'hour_start') }}
),

ranked as (
    select
        *,
        row_number() over (
            partition by system_name, hour_start_utc
            order by qlen desc nulls last, busy_pct desc nulls last, cpu_num
        ) as qlen_rank
    from hourly
)

select
    system_name,
    hour_start,
    hour_start_utc,
    max(shift) as shift,
    max(shift_date) as shift_date,
    min(loadid) as loadid,
    count(*) as cpu_count,
    max(case when qlen_rank = 1 then cpu_num end) as max_qlen_cpu_num,
    max(case when qlen_rank = 1 then cpu_type end) as max_qlen_cpu_type,
    max(case when qlen_rank = 1 then os_version end) as max_qlen_os_version,
    max(qlen) as qlen_max,
    min(qlen) as qlen_min,
    avg(qlen) as qlen_avg,
    max(qlen) - min(qlen) as qlen_spread_across_cpus,
    max(busy_pct) as busy_pct_max,
    min(busy_pct) as busy_pct_min,
    avg(busy_pct) as busy_pct_avg,
    max(busy_pct) - min(busy_pct) as busy_pct_spread_across_cpus,
    max(ibusy_pct) as ibusy_pct_max,
    max(swaps_per_s) as swaps_per_s_max
from ranked
group by system_name, hour_start, hour_start_utc
