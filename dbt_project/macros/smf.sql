{#- True when `lp`, a PR/SM logical processor section of SMF 70.1, is the image's own view of `cpu`,
    one of its CPU data sections: the logical processor whose SMF70VPA is the CPU's SMF70CID inside
    the partition whose number SMF70PTN of the record (`control`) names (type70_1.md §8). -#}
{% macro is_own_logical_processor(lp, cpu, control) -%}
    {{ lp }}.system_id = {{ cpu }}.system_id
    and {{ lp }}.interval_start = {{ cpu }}.interval_start
    and {{ lp }}.partition_number = {{ control }}.partition_number
    and {{ lp }}.lp_address = {{ cpu }}.cpu_id
{%- endmacro %}

{#- The columns every RMF staging model starts with: where the row came from, the system, and the RMF
    interval of its record's product section (start, end, length in seconds). -#}
{% macro rmf_interval_columns() -%}
    source_file_id,
    record_ordinal,
    system_id,
    system_name as sysname,
    sysplex_name,
    interval_start,
    {{ add_millis('cast(interval_us / 1000 as integer)', 'interval_start') }} as interval_end,
    cast(interval_us as double) / 1e6 as interval_s
{%- endmacro %}
