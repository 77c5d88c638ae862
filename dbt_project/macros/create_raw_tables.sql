{#- Creates each raw table (name -> [(column, type), ...]) if it does not exist, and adds any column an
    existing table lacks (a table the loader created from the first file has only that file's columns).
    Idempotent: it only adds. Every family's ensure_raw_<family>_tables() hook calls it. -#}
{% macro create_raw_tables(tables) %}
    {%- set statements = ['create schema if not exists raw'] -%}
    {%- for table, columns in tables.items() -%}
        {%- set column_ddl = [] -%}
        {%- for name, type in columns -%}
            {%- do column_ddl.append('"' ~ name ~ '" ' ~ type) -%}
        {%- endfor -%}
        {%- do statements.append('create table if not exists raw.' ~ table ~ ' (' ~ column_ddl | join(', ') ~ ')') -%}
        {%- for name, type in columns -%}
            {%- do statements.append('alter table raw.' ~ table ~ ' add column if not exists "' ~ name ~ '" ' ~ type) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(statements | join(';\n') ~ ';') }}
{% endmacro %}
