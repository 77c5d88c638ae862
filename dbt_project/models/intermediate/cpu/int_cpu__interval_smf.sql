-- SMF 70.1 as rows of the conformed processor interval (int_cpu__interval unions it in), so the hourly,
-- shift, month, year, threshold and trend models serve z/OS without a second implementation.
-- busy_pct is RMF's MVS busy of the logical CPU. SMF has no interrupt or send busy, no ready-queue
-- length, no swaps and no LOADID: NULL. Dispatches are SMF70TCB + SMF70SRB per second.
-- A view: a projection of an incremental model, read by int_cpu__interval for the touched days only.
{{ config(materialized='view') }}
select
    'smf70' as source,
    system_id as system_name,
    cpu_id as cpu_num,
    cpu_type,
    zos_level as os_version,
    interval_start,
    interval_start_utc,
    interval_end,
    interval_s,
    mvs_busy_pct as busy_pct,
    cast(null as double) as ibusy_pct,
    cast(null as double) as sbusy_pct,
    cast(null as double) as qlen,
    cast(null as double) as mqlen,
    cast(null as double) as swaps_per_s,
    dispatches_per_s,
    cast(null as string) as loadid
from {{ ref('int_zos_cpu__logical_interval') }}
