{#- The join condition `left.c = right.c and ...` over the key columns two relations share: a process-day is
    (system, day, cpu, pin, program) in several marts, and writing the five equalities out each time let them
    drift apart. -#}
{% macro same_values(left, right, columns) -%}
    {%- for column in columns %}{% if not loop.first %}
        and {% endif %}{{ left }}.{{ column }} = {{ right }}.{{ column }}{% endfor -%}
{%- endmacro %}
