{#- The interval and identification items every MEASURE record header carries, renamed with units. -#}
{% macro measure_interval_columns() -%}
    nullif(trim(loadid), '') as loadid,
    from_timestamp as interval_start,
    to_timestamp as interval_end,
    cast(delta_time as bigint) as delta_time_us,
    cast(error as integer) as error_code,
    os_version,
{%- endmacro %}
