{#-
    Workload assignment (seed workload_definitions). A glob pattern becomes a LIKE pattern with `!` as
    the escape character, so that `_` and `%` in names match themselves and `*`, `?` are the only
    wildcards (`!` because a backslash means different things in DuckDB and Spark string literals).
-#}

{% macro glob_matches(name, pattern) -%}
    {{ name }} like replace(replace(replace(replace(replace({{ pattern }}, '!', '!!'), '%', '!%'), '_', '!_'), '*', '%'), '?', '_') escape '!'
{%- endmacro %}
