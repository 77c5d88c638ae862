{#- The declaration of the raw table `table` of source `source_name` (generated from the parsers by
    ingest.formats.contract): its natural key (meta) and its columns' data types. None while dbt parses
    (the graph is not built yet; the SQL rendered then is not run). -#}
{% macro declared_source(source_name, table) %}
    {%- for node in graph.sources.values() if node.source_name == source_name and node.name == table %}
        {{- return(node) }}
    {%- endfor %}
    {{- return(none) }}
{% endmacro %}

{#- A MEASURE staging model of the raw table `table`: its first copy of each record by the natural key the
    source declares (with interval_start_utc when `zoned`, measure_first_copy; told by the local timestamps
    otherwise), the record columns, the entity's columns (`entity`, SQL), the header items, and `columns`:
    raw column -> staging name (units spelled out), each cast to the type the source declares, in order. -#}
{% macro measure_staging(table, entity, columns, zoned=true) %}
    {%- set raw = source('measure', table) %}
    {%- set declared = declared_source('measure', table) if execute else none %}
    {%- set natural_key = declared.config.meta.natural_key if declared else [] %}
with source as (
    {%- if zoned %}
    {{ measure_first_copy(raw, natural_key | reject('in', ['system_name', 'from_timestamp', 'to_timestamp']) | list) }}
    {%- else %}
    {{ first_copy(raw, natural_key) }}
    {%- endif %}
)

select
    {{ measure_record_columns() }}
    {{ entity }}
    {{ measure_interval_columns() }}
    {%- if zoned %}
    interval_start_utc,
    {%- endif %}
    {%- for column, name in columns.items() %}
    cast({{ column }} as {{ declared.columns[column].data_type if declared else 'bigint' }}) as {{ name }}
        {{- ',' if not loop.last }}
    {%- endfor %}
from source
{% endmacro %}
