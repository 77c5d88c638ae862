{#- Schemas are named exactly as configured (staging, intermediate, marts, seeds), not prefixed with
    the target schema, so ad-hoc SQL reads `marts.fct_cpu_shift`. -#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {{ custom_schema_name if custom_schema_name is not none else target.schema }}
{%- endmacro %}
