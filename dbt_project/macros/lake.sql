{#- The raw layer as each target reads it, registered before every run (on-run-start).

    DuckDB: the raw tables are perfdb's own (created from their declarations when the warehouse opens):
    nothing to do. Spark: every source of schema raw is an external Parquet table over its folder of the
    lake, `<lake>/raw/<table>/system=<system>/day=<yyyy-mm-dd>/`, declared with the columns of its source
    (generated from the parsers' declarations) plus the two partition columns. Dropped and created
    again (`create if not exists` would keep a stale location; dropping an external table leaves its
    files), then `msck repair`: partitions that landed since the last run are invisible until then. -#}
{% macro register_lake_sources() %}
    {{ return(adapter.dispatch('register_lake_sources')()) }}
{% endmacro %}

{% macro default__register_lake_sources() %}
    select 1
{% endmacro %}

{% macro spark__register_lake_sources() %}
    {#- `dbt compile` needs no data: it skips the registration (and so starts no Spark job) -#}
    {%- if execute and flags.WHICH != 'compile' %}
        {%- set lake = env_var('PERFDB_LAKE') %}
        {%- do run_query('create schema if not exists raw') %}
        {%- for node in graph.sources.values() if node.schema == 'raw' %}
            {%- set relation = 'raw.' ~ node.name %}
            {%- set columns = [] %}
            {%- for column in node.columns.values() %}
                {%- do columns.append(column.name ~ ' ' ~ lake_column_type(column.data_type)) %}
            {%- endfor %}
            {%- do run_query('drop table if exists ' ~ relation) %}
            {%- do run_query(
                'create table ' ~ relation ~ ' (' ~ columns | join(', ') ~ ', system string, day date)'
                ~ ' using parquet partitioned by (system, day)'
                ~ " location '" ~ lake ~ '/raw/' ~ node.name ~ "'") %}
            {%- do run_query('msck repair table ' ~ relation) %}
        {%- endfor %}
    {%- endif %}
    select 1
{% endmacro %}

{#- A raw column's type (as the sources declare it, in DuckDB's names) in Spark's names: the Parquet files
    hold naive microsecond timestamps, which Spark reads as timestamp_ntz. -#}
{% macro lake_column_type(data_type) %}
    {%- set spark_types = {'varchar': 'string', 'blob': 'binary', 'timestamp': 'timestamp_ntz', 'integer': 'int'} %}
    {{- return(spark_types.get(data_type | lower, data_type | lower)) }}
{%- endmacro %}
