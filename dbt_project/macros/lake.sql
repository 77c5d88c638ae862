{#- The raw layer as each target reads it, registered before every run (on-run-start).

    DuckDB: the raw tables are perfdb's own (created from their declarations when the warehouse opens):
    nothing to do. Spark: every source of schema raw is an external Parquet table over its folder of the
    lake, `<lake>/raw/<table>/system=<system>/day=<yyyy-mm-dd>/`, declared with the columns of its source
    (generated from the parsers' declarations) plus the two partition columns; the manifest tables
    (sources without declared columns) take their columns from their files. The session does not keep
    partitions in the catalog (spark.sql.hive.manageFilesourcePartitions false, profiles.yml): Spark finds
    a table's partition folders when a query reads it, so partitions that landed since the last run need
    no `msck repair`, and a table is registered again only when its statement changed (its fingerprint is
    a table property; one `show table extended` reads them all). Dropping an external table leaves its
    files. A source whose meta says `lake_empty` is an empty view of its declared columns: raw.removed_file_days
    (the lake removes no files); `lake_unpartitioned`, a table of its declared columns over its folder's
    files, none at first: raw.key_conflicts (ingest/lake/copies.py). -#}
{% macro register_lake_sources() %}
    {{ return(adapter.dispatch('register_lake_sources')()) }}
{% endmacro %}

{% macro default__register_lake_sources() %}
    select 1
{% endmacro %}

{% macro spark__register_lake_sources() %}
    {#- `dbt compile` needs no data: it skips the registration (and so starts no Spark job) -#}
    {%- if execute and flags.WHICH != 'compile' %}
        {%- do run_query('create schema if not exists raw') %}
        {%- set registered = {} %}
        {%- for row in run_query("show table extended in raw like '*'") %}
            {%- do registered.update({row['tableName']: row['information']}) %}
        {%- endfor %}
        {%- for node in graph.sources.values() if node.schema == 'raw' %}
            {%- set statement = lake_table_sql(node) %}
            {%- set fingerprint = local_md5(statement) %}
            {%- set found = registered.get(node.name) %}
            {%- if found is not none and fingerprint not in found %}
                {%- do run_query(('drop view raw.' if 'Type: VIEW' in found else 'drop table raw.') ~ node.name) %}
            {%- endif %}
            {%- if found is none or fingerprint not in found %}
                {%- do run_query(statement.replace('{fingerprint}', fingerprint)) %}
            {%- endif %}
        {%- endfor %}
    {%- endif %}
    select 1
{% endmacro %}

{#- The statement that registers a raw source on Spark, `{fingerprint}` standing for its fingerprint. -#}
{% macro lake_table_sql(node) %}
    {%- set relation = 'raw.' ~ node.name %}
    {%- set location = env_var('PERFDB_LAKE') ~ '/raw/' ~ node.name %}
    {%- set properties = " tblproperties ('perfdb.registered' = '{fingerprint}')" %}
    {%- if node.meta.get('lake_empty') %}
        {%- set nulls = [] %}
        {%- for column in node.columns.values() %}
            {%- do nulls.append('cast(null as ' ~ lake_column_type(column.data_type) ~ ') as ' ~ column.name) %}
        {%- endfor %}
        {{- return('create view ' ~ relation ~ properties ~ ' as select ' ~ nulls | join(', ') ~ ' where false') }}
    {%- elif not node.columns %}
        {{- return('create table ' ~ relation ~ " using parquet location '" ~ location ~ "'" ~ properties) }}
    {%- endif %}
    {%- set columns = [] %}
    {%- for column in node.columns.values() %}
        {%- do columns.append(column.name ~ ' ' ~ lake_column_type(column.data_type)) %}
    {%- endfor %}
    {%- if node.meta.get('lake_unpartitioned') %}
        {{- return('create table ' ~ relation ~ ' (' ~ columns | join(', ') ~ ")"
            ~ " using parquet location '" ~ location ~ "'" ~ properties) }}
    {%- endif %}
    {{- return('create table ' ~ relation ~ ' (' ~ columns | join(', ') ~ ', system string, day date)'
        ~ " using parquet partitioned by (system, day) location '" ~ location ~ "'" ~ properties) }}
{% endmacro %}

{#- A raw column's type (as the sources declare it, in DuckDB's names) in Spark's names: the Parquet files
    hold naive microsecond timestamps, which Spark reads as timestamp_ntz. -#}
{% macro lake_column_type(data_type) %}
    {%- set spark_types = {'varchar': 'string', 'blob': 'binary', 'timestamp': 'timestamp_ntz', 'integer': 'int'} %}
    {{- return(spark_types.get(data_type | lower, data_type | lower)) }}
{%- endmacro %}
