-- The top five 4HRA peaks of each CPC and month, and the work running on the CPC's z/OS images in each
-- peak interval: the WLM service classes (SMF 72.3, report classes left out: they regroup the same work)
-- and the jobs (SMF 30 pieces overlapping the interval). A peak is a day's highest valid 4HRA, so the
-- five are five different days, not five neighbouring intervals of one climb. Work is matched to a peak by UTC
-- instants (SMF7xLGO; SMF 30 pieces by the offsets of their system's RMF intervals, int_zos_work__piece): in a
-- fall-back day's repeated hour the local times of two intervals are the same. Incremental by CPC and month
-- (grain day_and_next_month by CPC, as fct_msu_cpc_monthly).
{{ config(materialized='incremental', unique_key=['cpc_serial', 'month_start'],
          meta={'touched_grain': 'day_and_next_month',
                'touched_via': {'model': 'fct_msu_lpar_interval', 'system': 'system_id', 'group': 'cpc_serial'}}) }}
with daily_peaks as (
    select
        cpc_serial,
        cast({{ dbt.date_trunc('month', 'interval_start') }} as date) as month_start,
        interval_start,
        interval_start_utc,
        interval_end_utc,
        rolling_4h_msu_per_h,
        row_number() over (
            partition by cpc_serial, cast(interval_start as date)
            order by rolling_4h_msu_per_h desc, interval_start_utc
        ) as rank_in_day
    from {{ ref('fct_msu_cpc_interval') }}
    where is_4hra_valid
        and {{ touched('cpc_serial', 'cast(' ~ dbt.date_trunc('month', 'interval_start') ~ ' as date)', 'day_and_next_month') }}
),

peaks as (
    select
        cpc_serial,
        month_start,
        interval_start,
        interval_start_utc,
        interval_end_utc,
        rolling_4h_msu_per_h,
        row_number() over (partition by cpc_serial, month_start order by rolling_4h_msu_per_h desc, interval_start_utc) as peak_rank
    from daily_peaks
    where rank_in_day = 1
),

-- the CPC's images measured in the peak (its segment of time may be part of an image's RMF interval when
-- the images' intervals are not synchronised: fct_msu_cpc_interval)
top_peaks as (
    select distinct peaks.*, lpars.system_id
    from peaks
    inner join {{ ref('fct_msu_lpar_interval') }} as lpars
        on lpars.cpc_serial = peaks.cpc_serial
        and lpars.interval_start_utc < peaks.interval_end_utc
        and {{ add_millis('cast(1000 * lpars.interval_s as bigint)', 'lpars.interval_start_utc') }} > peaks.interval_start_utc
    where peaks.peak_rank <= 5
),

work as (
    select
        system_id, interval_start_utc as work_start, {{ add_millis('cast(1000 * interval_s as bigint)', 'interval_start_utc') }} as work_end,
        'service class' as work_kind,
        class_name as work_name, workload_name, cp_cpu_s
    from {{ ref('stg_smf__workload_period') }}
    where not is_report_class
    union all
    select
        system_id, period_start_utc as work_start, period_end_utc as work_end, 'job' as work_kind,
        job_name as work_name, workload_name, cpu_s as cp_cpu_s
    from {{ ref('int_zos_work__piece') }}
)

select
    top_peaks.cpc_serial,
    top_peaks.month_start,
    top_peaks.peak_rank,
    top_peaks.interval_start,
    top_peaks.interval_start_utc,
    top_peaks.rolling_4h_msu_per_h,
    top_peaks.system_id,
    work.work_kind,
    work.work_name,
    max(work.workload_name) as workload_name,
    sum(work.cp_cpu_s) as cp_cpu_s
from top_peaks
inner join work
    on work.system_id = top_peaks.system_id
    and work.work_start < top_peaks.interval_end_utc
    and work.work_end > top_peaks.interval_start_utc
group by top_peaks.cpc_serial, top_peaks.month_start, top_peaks.peak_rank, top_peaks.interval_start, top_peaks.interval_start_utc,
    top_peaks.rolling_4h_msu_per_h, top_peaks.system_id, work.work_kind, work.work_name
