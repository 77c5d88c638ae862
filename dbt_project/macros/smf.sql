{#- True when `lp`, a PR/SM logical processor section of SMF 70.1, is the image's own view of `cpu`,
    one of its CPU data sections: the logical processor whose SMF70VPA is the CPU's SMF70CID inside
    the partition whose number SMF70PTN of the record (`control`) names (type70_1.md §8). -#}
{% macro is_own_logical_processor(lp, cpu, control) -%}
    {{ lp }}.system_id = {{ cpu }}.system_id
    and {{ lp }}.interval_start = {{ cpu }}.interval_start
    and {{ lp }}.partition_number = {{ control }}.partition_number
    and {{ lp }}.lp_address = {{ cpu }}.cpu_id
{%- endmacro %}
