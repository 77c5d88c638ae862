-- King 1986, Fig. 2, the CPU trend report: for each system and day, the hour with the largest
-- maximum CPU queue length, with the spreads between the busiest and the least busy processor in
-- that hour. CPU NUM is the processor with that queue. Ties, and sources that measure no queue
-- (SMF), go to the highest busy, then the earliest hour. A record without a LOADID (text reports
-- carry none) shows the DT<day of year><hour> LOADID the article's conversion step would have set.
{{ config(materialized='incremental', unique_key=['system_name', 'trend_date']) }}
with hours as (
    select
        *,
        cast(hour_start as date) as trend_date
    from {{ ref('int_cpu__hourly_spread') }}
    where {{ touched('system_name', 'hour_start', 'day') }}
),

ranked as (
    select
        *,
        row_number() over (
            partition by system_name, trend_date
            order by qlen_max desc nulls last, busy_pct_max desc nulls last, hour_start
        ) as hour_rank
    from hours
)

select
    system_name,
    trend_date,
    hour_start,
    coalesce(
        loadid,
        'DT'
        || lpad(cast(extract(doy from hour_start) as string), 3, '0')
        || lpad(cast(extract(hour from hour_start) as string), 2, '0')
    ) as loadid,
    max_qlen_cpu_num as cpu_num,
    max_qlen_cpu_type as cpu_type,
    max_qlen_os_version as os_version,
    qlen_max,
    qlen_spread_across_cpus,
    swaps_per_s_max,
    busy_pct_max,
    busy_pct_spread_across_cpus,
    cpu_count
from ranked
where hour_rank = 1
