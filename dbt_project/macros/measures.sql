{#- The hourly measures each family condenses into shifts, months and years. -#}

{% macro cpu_hourly_measures() %}
    {{ return(['busy_pct', 'ibusy_pct', 'sbusy_pct', 'qlen', 'mqlen', 'swaps_per_s', 'dispatches_per_s']) }}
{% endmacro %}

{#- fct_cpu_shift's measure columns: AVG/MAX/MIN of every hourly measure, and the spread of QLEN and
    BUSY across the shift's hours (the DELT of King 1986, Fig. 9). -#}
{% macro cpu_shift_columns() %}
    {{ return(condensed_columns(cpu_hourly_measures()) + ['qlen_spread_across_hours', 'busy_pct_spread_across_hours']) }}
{% endmacro %}

{% macro disc_hourly_measures() %}
    {{ return(['busy_pct', 'write_busy_pct', 'seek_busy_pct', 'device_qbusy_pct', 'request_qlen',
               'cache_hit_ratio', 'bytes_per_s', 'requests_per_s']) }}
{% endmacro %}

{% macro line_hourly_measures() %}
    {{ return(['busy_pct', 'read_busy_pct', 'write_busy_pct', 'requests_per_s', 'bytes_per_s',
               'data_bytes_per_s', 'retries_per_s', 'transactions_per_s', 'response_ms']) }}
{% endmacro %}

{% macro process_shift_columns() %}
    {{ return(['cpu_busy_s', 'messages_sent_count', 'messages_received_count', 'cpu_busy_pct_avg',
               'cpu_busy_pct_max', 'cpu_busy_pct_min', 'pqlen_avg', 'pqlen_max', 'vsems_per_s_max',
               'ready_busy_ratio_avg']) }}
{% endmacro %}

{#- The families condensed hour -> shift (fct_<family>_shift) -> month -> year, one entry each: the
    entity `keys`; for the shift fact built by condense_hours_fact, the `hourly` model, its `measures`
    and the `described` columns it keeps (MAX over the hours); for months and years, the shift
    `columns` they condense and the `latest` descriptions (the value of the most recent shift). -#}
{% macro condensed_families() %}
    {{ return({
        'cpu': {
            'keys': ['system_name', 'cpu_num'],
            'columns': cpu_shift_columns(),
            'latest': ['shift_name', 'cpu_type', 'os_version'],
        },
        'process': {
            'keys': ['system_name', 'process_key'],
            'columns': process_shift_columns(),
            'latest': ['shift_name', 'process_name', 'program_file_name'],
        },
        'disc': {
            'keys': ['system_name', 'device_name'],
            'hourly': 'int_disc__hourly',
            'measures': disc_hourly_measures(),
            'described': [],
            'columns': condensed_columns(disc_hourly_measures()),
            'latest': ['shift_name'],
        },
        'line': {
            'keys': ['system_name', 'device_name'],
            'hourly': 'int_line__hourly',
            'measures': line_hourly_measures(),
            'described': [],
            'columns': condensed_columns(line_hourly_measures()),
            'latest': ['shift_name'],
        },
        'userdef': {
            'keys': ['system_name', 'process_key', 'counter_name', 'counter_index'],
            'hourly': 'int_userdef__hourly',
            'measures': ['counter_rate'],
            'described': ['counter_type_name', 'counter_rate_unit'],
            'columns': condensed_columns(['counter_rate']),
            'latest': ['shift_name', 'counter_type_name', 'counter_rate_unit'],
        },
    }) }}
{% endmacro %}

{#- What a `busy_process` rule may compare in rpt_busy_process. -#}
{% macro busy_process_metrics() %}
    {{ return(['cpu_busy_s', 'priority', 'run_time_s', 'cpu_busy_pct', 'io_per_s']) }}
{% endmacro %}

{#- ENFORM condenses processes OVER PROCESS-NAME; an unnamed process is its program in its CPU and PIN. -#}
{% macro process_key() -%}
    coalesce(
        process_name,
        program_file_name || ' (' || cast(cpu_num as {{ dbt.type_string() }}) || ','
            || cast(pin as {{ dbt.type_string() }}) || ')'
    )
{%- endmacro %}
