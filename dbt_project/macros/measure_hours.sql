{#- The MEASURE records an hourly model condenses: the measured ones (measured_records) of the days a night
    rebuilds. -#}
{% macro measured_touched_records(relation) %}
    {{ measured_records(relation) }}
        and {{ touched('system_name', 'interval_start', 'day') }}
{% endmacro %}

{#- The clock hour of an interval: its local start truncated, and that hour's UTC instant, the key that tells
    a fall-back day's repeated clock hour apart. `named`: as the columns hour_start and hour_start_utc (a
    select list), else the bare expressions (a group by). -#}
{% macro measure_clock_hour(named=true) -%}
    {{ dbt.date_trunc('hour', 'interval_start') }}{{ ' as hour_start' if named }},
    {{ hour_start_utc('interval_start', 'interval_start_utc') }}{{ ' as hour_start_utc' if named }}
{%- endmacro %}
