-- SMF 30 carries no offset from UTC: its times are local (int_zos_work__piece gives them the offset of the
-- system's RMF intervals). In the hour a fall-back day repeats, a step writes two interval records of the same
-- local start and write time: local_pass (2 for a record that follows, in its file, an interval record of the
-- same step starting at or after its own start: the clock went back between them; 1 otherwise) tells them
-- apart, so they are not taken for copies, and says which of the two instants the local start is.
{%- set step_keys = ['system_id', 'job_id', 'job_name', 'reader_start', 'step_number'] %}
{%- set with_pass -%}
    (select
        passes.*,
        case when passes.latest_earlier_start >= passes.interval_start then 2 else 1 end as local_pass
    from (
        select
            records.*,
            max(case when records.record_subtype in (2, 3) then records.interval_start end) over (
                partition by records.source_file_id, records.{{ step_keys | join(', records.') }}
                order by records.record_ordinal
                rows between unbounded preceding and 1 preceding
            ) as latest_earlier_start
        from {{ source('smf', 'smf30_work') }} as records
    ) as passes) as with_pass
{%- endset %}
with source as (
    {{ first_copy(with_pass, [
        'system_id', 'record_subtype', 'job_id', 'job_name', 'step_number', 'reader_start',
        'interval_start', 'record_time', 'local_pass'
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
    -- 2 for a record written in the second pass of a fall-back day's repeated hour (see above)
    cast(local_pass as integer) as local_pass,
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
