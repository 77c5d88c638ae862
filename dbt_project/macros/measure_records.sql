{#- The MEASURE record header: the interval and identification items every record carries, and which
    records carry counters at all. -#}

{#- The columns every MEASURE staging model starts with: where the record came from (the file, the record's
    ordinal in it, the form it was read in) and the system it measured. -#}
{% macro measure_record_columns() -%}
    source_file_id,
    record_ordinal,
    source_form,
    system_name,
{%- endmacro %}

{#- The entity of a device record (DISC, LINE): the device, and the I/O process (processor, PIN) that drives it. -#}
{% macro measure_device_columns() -%}
    device_name,
    {%- for item in ['cpu_num', 'pin', 'logical_device', 'device_type', 'device_subtype'] %}
    cast({{ item }} as integer) as {{ item }},
    {%- endfor %}
{%- endmacro %}

{#- The entity of a process record (PROCESS, USERDEF): the process by processor and PIN, its name (NULL when
    blank), program file and priority. -#}
{% macro measure_process_columns() -%}
    cast(cpu_num as integer) as cpu_num,
    cast(pin as integer) as pin,
    nullif(trim(process_name), '') as process_name,
    program_file_name,
    cast(priority as integer) as priority,
{%- endmacro %}

{#- The entity of a record of one open of a file (FILE, DISCOPEN): the processor it was measured on, the
    opener (processor, PIN) and the file. -#}
{% macro measure_open_columns() -%}
    cast(cpu_num as integer) as cpu_num,
    cast(opener_cpu as integer) as opener_cpu,
    cast(opener_pin as integer) as opener_pin,
    file_name,
{%- endmacro %}

{#- The header items, renamed with units (staging). -#}
{% macro measure_interval_columns() -%}
    nullif(trim(loadid), '') as loadid,
    from_timestamp as interval_start,
    to_timestamp as interval_end,
    cast(delta_time as bigint) as delta_time_us,
    cast(error as integer) as error_code,
    os_version,
{%- endmacro %}

{#- The records of a staging relation that rates can be computed from: ERROR above 0 means MEASURE
    collected no counters for the record (-1 only flags a 32-bit overflow whose 64-bit value the
    parser kept), and without a duration there is no rate. -#}
{% macro measured_records(relation) %}
    select * from {{ relation }}
    where delta_time_us > 0
        and coalesce(error_code, 0) <= 0
{% endmacro %}

{#- The measured records of the days a day model rebuilds, with the calendar day each begins in. -#}
{% macro measured_day_records(relation) %}
    select *, cast(interval_start as date) as report_date
    from ({{ measured_records(relation) }}) as measured
    where {{ touched('system_name', 'interval_start', 'day') }}
{% endmacro %}

{#- King 1986, Fig. 5: what a MEASURE counter means over the measured time `over` (microseconds; by
    default the DELTA-TIME summed over the rows aggregated). Busy counters hold microseconds busy
    (BUSY := CPU-BUSY-TIME / (DELTA-TIME / 100)), queue counters queue length x microseconds
    (QLEN := CPU-QTIME / DELTA-TIME), event counters counts (per second). -#}
{% macro busy_pct(counter, over='sum(delta_time_us)') -%}
    100 * cast({{ counter }} as double) / {{ over }}
{%- endmacro %}

{% macro queue_length(counter, over='sum(delta_time_us)') -%}
    cast({{ counter }} as double) / {{ over }}
{%- endmacro %}

{% macro per_s(counter, over='sum(delta_time_us)') -%}
    cast({{ counter }} as double) / ({{ over }} / 1e6)
{%- endmacro %}

{#- The first copy of every record of the MEASURE raw table `relation`, whose entity is system_name and the
    columns `key`, with interval_start_utc. FROM-TIMESTAMP is local civil time without an offset: the zone is
    the system's in the seed system_time_zones. A file passes the hour a fall-back day repeats twice, in
    order, so local_pass numbers a file's records of one entity and local start (macro with_utc_start). Copies
    are told by the UTC start: the two passes are two intervals, not a record and its copy. A file that starts
    inside the second pass reads it as the first (nothing in a record tells the passes apart). -#}
{% macro measure_first_copy(relation, key) %}
    {%- set passes -%}
        (select
            records.*,
            zones.time_zone,
            row_number() over (
                partition by records.source_file_id, records.system_name,
                    {%- for column in key %} records.{{ column }},{% endfor %} records.from_timestamp
                order by records.record_ordinal
            ) as local_pass
        from {{ relation }} as records
        left join {{ ref('system_time_zones') }} as zones
            on zones.system_name = records.system_name)
    {%- endset -%}
    {%- set zoned -%}
        {{ with_utc_start(passes, 'from_timestamp', 'time_zone', 'local_pass') }} as zoned
    {%- endset -%}
    {{ first_copy(zoned, ['system_name'] + key + ['interval_start_utc', 'to_timestamp']) }}
{% endmacro %}
