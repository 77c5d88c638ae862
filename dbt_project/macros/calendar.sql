{#- ISO day of the week, 1 = Monday .. 7 = Sunday (DuckDB `isodow`, Spark `dayofweek_iso`). -#}
{% macro iso_weekday(day) -%}
    {{ return(adapter.dispatch('iso_weekday')(day)) }}
{%- endmacro %}

{% macro default__iso_weekday(day) -%}
    extract(isodow from {{ day }})
{%- endmacro %}

{% macro spark__iso_weekday(day) -%}
    extract(dayofweek_iso from {{ day }})
{%- endmacro %}
