{#- A MEASURE staging model of the raw table `table`: its first copy of each record (`zoned`: the system's
    records of one interval by `key` and their UTC start, measure_first_copy; otherwise first_copy by `key`,
    the whole natural key), the record columns, the entity's columns (`entity`, SQL), the interval columns
    and `columns`: raw counter -> staging name (its unit spelled out), cast to bigint, or -> [name, type].
    The key is written here, not read from the source's declaration: a dbt unit test compiles the model
    without the graph that holds it. -#}
{% macro measure_staging(table, key, entity, columns, zoned=true) %}
with source as (
    {%- if zoned %}
    {{ measure_first_copy(source('measure', table), key) }}
    {%- else %}
    {{ first_copy(source('measure', table), key) }}
    {%- endif %}
)

select
    {{ measure_record_columns() }}
    {{ entity }}
    {{ measure_interval_columns() }}
    {%- if zoned %}
    interval_start_utc,
    {%- endif %}
    {%- for column, target in columns.items() %}
    {%- set name, type = (target, 'bigint') if target is string else target %}
    cast({{ column }} as {{ type }}) as {{ name }}{{ ',' if not loop.last }}
    {%- endfor %}
from source
{% endmacro %}
