-- One row per program in a CPU and PIN and clock hour, with the rates of King 1986, Fig. 7.
-- process_runs counts the processes (runs) whose first record of the day falls in the hour. A record
-- that begins where the previous record of that CPU and PIN ended, for the same program, continues a
-- run; any other record starts a new one. PINs are reused, so a program created again and again in
-- one PIN shows as many runs: the COUNT of the Process Summary report. Hours are keyed by their UTC
-- instant (hour_start_utc): a fall-back day's repeated clock hour is two rows, and records follow one another
-- in UTC order.
{{ config(materialized='incremental',
          unique_key=['system_name', 'hour_start'], meta={'retention': 'hourly'}) }}
{%- set program_keys = ['system_name', 'cpu_num', 'pin', 'program_file_name'] %}
with records as (
    {{ measured_touched_records(ref('stg_measure__process')) }}
),

runs as (
    {{ with_run_flags('records', ['system_name', 'cpu_num', 'pin'], ['program_file_name'], 'interval_start_utc') }}
),

hourly as (
    select
        {{ program_keys | join(', ') }},
        {{ measure_clock_hour() }},
        sum(starts_run_day) as process_runs,
        max(process_name) as process_name,
        max(priority) as priority,
        cast(sum(delta_time_us) as double) / 1e6 as measured_s,
        cast(sum(cpu_busy_us) as double) / 1e6 as cpu_busy_s,
        {{ busy_pct('sum(cpu_busy_us)') }} as cpu_busy_pct,
        -- READY-TIME / CPU-BUSY-TIME: time on the ready list per unit of running, "so that the
        -- effect of priority queuing can be analyzed"
        cast(sum(ready_us) as double) / nullif(sum(cpu_busy_us), 0) as ready_busy_ratio,
        -- PQLEN := RECV-QTIME / DELTA-TIME, the average $RECEIVE queue length
        {{ queue_length('sum(recv_qtime_us)') }} as pqlen,
        {{ per_s('sum(vsem_count)') }} as vsems_per_s,
        {{ per_s('sum(dispatch_count)') }} as dispatches_per_s,
        {{ per_s('sum(page_fault_count)') }} as page_faults_per_s,
        sum(messages_sent_count) as messages_sent_count,
        sum(messages_received_count) as messages_received_count,
        {{ process_key('max(process_name)') }} as process_key
    from runs
    group by {{ program_keys | join(', ') }}, {{ measure_clock_hour(named=false) }}
)

{{ with_shift('hourly') }}
