-- SMF 30 subtypes 2, 3 (interval pieces), 4 (step totals) and 5 (job totals), one row per record.
-- CPU times are microseconds; a timer that SMF30TFL flagged invalid is already NULL.
with source as (
    {{ first_copy(source('smf', 'smf30_work'), [
        'system_id', 'record_subtype', 'job_id', 'job_name', 'step_number', 'reader_start',
        'interval_start', 'record_time'
    ]) }}
)

select
    source_file_id,
    record_ordinal,
    system_id,
    cast(record_subtype as integer) as record_subtype,
    case cast(record_subtype as integer)
        when 2 then 'interval'
        when 3 then 'step last interval'
        when 4 then 'step end'
        when 5 then 'job end'
    end as record_kind,
    work_type,
    job_name,
    job_id,
    step_name,
    cast(step_number as integer) as step_number,
    program_name,
    job_class,
    racf_user_id,
    workload_name,
    service_class,
    report_class,
    reader_start,
    step_start,
    -- subtypes 2 and 3 cover SMF30IST..record time; 4 and 5 cover the step or job up to its end
    case when record_subtype in (2, 3) then interval_start else step_start end as period_start,
    record_time as period_end,
    cpu_tcb_us,
    cpu_srb_us,
    cpu_tcb_us + cpu_srb_us as cp_cpu_us,
    initiator_tcb_us + initiator_srb_us as initiator_cpu_us,
    ziip_us,
    -- the 8-byte EXCP count stays valid after the 4-byte one wraps
    coalesce(excp_count_64, excp_count) as excp_count,
    dasd_connect_us,
    service_units,
    transaction_count,
    cast(completion_code as integer) as completion_code,
    -- SMF30STI bit 6 (X'0200'): the step abended
    termination_flags % 1024 >= 512 as abended
from source
