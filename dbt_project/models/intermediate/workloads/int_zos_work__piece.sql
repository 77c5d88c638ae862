-- SMF 30 work as non-overlapping pieces, one per record that must be counted. Subtypes 2 and 3 cover
-- a step's consumption interval by interval; subtype 4 covers the same consumption as a step total.
-- Adding both would count a step twice (type30.md §0), so a step that wrote interval records is
-- counted through them and every other step through its subtype 4. A step without interval records
-- ran inside one SMF interval, so its piece never straddles an hour. Job totals (subtype 5) repeat
-- their steps and are left out.
with work as (
    select * from {{ ref('stg_smf__work') }}
),

interval_steps as (
    select distinct system_id, job_id, job_name, reader_start, step_number, true as wrote_intervals
    from work
    where record_subtype in (2, 3)
)

select
    work.system_id,
    work.record_subtype,
    work.work_type,
    work.job_name,
    work.job_id,
    work.step_name,
    work.step_number,
    work.program_name,
    work.workload_name,
    work.service_class,
    work.report_class,
    coalesce(work.period_start, work.period_end) as period_start,
    work.period_end,
    {{ micros_between('coalesce(work.period_start, work.period_end)', 'work.period_end') }} / 1e6 as elapsed_s,
    work.cpu_tcb_us / 1e6 as cpu_tcb_s,
    work.cpu_srb_us / 1e6 as cpu_srb_s,
    work.cp_cpu_us / 1e6 as cpu_s,
    work.ziip_us / 1e6 as ziip_s,
    work.excp_count,
    work.service_units,
    work.abended
from work
left join interval_steps using (system_id, job_id, job_name, reader_start, step_number)
where work.record_subtype in (2, 3)
    or (work.record_subtype = 4 and interval_steps.wrote_intervals is null)
