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

{#- The families condensed hour -> shift (fct_<family>_shift) -> month -> year: the entity `keys`; for
    a shift fact that condense_hours_fact builds, the `hourly` model, its `measures` and the
    `described` columns it keeps (MAX over the hours); the shift `columns` months and years condense
    (by default AVG/MAX/MIN of the measures) and the `latest` descriptions they carry (by default the
    shift's name). -#}
{% macro condensed_families() %}
    {%- set families = {
        'cpu': {'keys': ['system_name', 'cpu_num'], 'hourly': 'int_cpu__hourly', 'columns': cpu_shift_columns(),
                'latest': ['shift_name', 'cpu_type', 'os_version']},
        'process': {'keys': ['system_name', 'process_key'], 'columns': process_shift_columns(),
                    'latest': ['shift_name', 'process_name', 'program_file_name']},
        'disc': {'keys': ['system_name', 'device_name'], 'hourly': 'int_disc__hourly',
                 'measures': disc_hourly_measures()},
        'line': {'keys': ['system_name', 'device_name'], 'hourly': 'int_line__hourly',
                 'measures': line_hourly_measures()},
        'userdef': {'keys': ['system_name', 'process_key', 'counter_name', 'counter_index'],
                    'hourly': 'int_userdef__hourly', 'measures': ['counter_rate'],
                    'described': ['counter_type_name', 'counter_rate_unit'],
                    'latest': ['shift_name', 'counter_type_name', 'counter_rate_unit']},
    } %}
    {%- for spec in families.values() %}
        {%- do spec.setdefault('described', []) %}
        {%- do spec.setdefault('columns', condensed_columns(spec.get('measures', []))) %}
        {%- do spec.setdefault('latest', ['shift_name']) %}
    {%- endfor %}
    {{ return(families) }}
{% endmacro %}

{#- What a `busy_process` rule may compare in rpt_busy_process. -#}
{% macro busy_process_metrics() %}
    {{ return(['cpu_busy_s', 'priority', 'run_time_s', 'cpu_busy_pct', 'io_per_s']) }}
{% endmacro %}

{#- The process runs of a day with every column a `busy_process` rule may compare (busy_process_metrics);
    `touched_only` keeps the days a day model rebuilds. -#}
{% macro busy_process_runs(touched_only) %}
select
    *,
    100 * cpu_busy_s / run_time_s as cpu_busy_pct,
    messages_sent_count / run_time_s as io_per_s
from {{ ref('int_process__daily') }}
{%- if touched_only %}
where {{ touched('system_name', 'report_date', 'day') }}
{%- endif %}
{% endmacro %}

{#- ENFORM condenses processes OVER PROCESS-NAME; an unnamed process is its program in its CPU and PIN.
    `process_name` is the expression of the name (an aggregate in an hourly select). -#}
{% macro process_key(process_name='process_name') -%}
    coalesce(
        {{ process_name }},
        program_file_name || ' (' || cast(cpu_num as {{ dbt.type_string() }}) || ','
            || cast(pin as {{ dbt.type_string() }}) || ')'
    )
{%- endmacro %}
