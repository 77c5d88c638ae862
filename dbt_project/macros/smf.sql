{#- True when `lp`, a PR/SM logical processor section of SMF 70.1, is the image's own view of `cpu`,
    one of its CPU data sections: the logical processor whose SMF70VPA is the CPU's SMF70CID inside
    the partition whose number SMF70PTN of the record (`control`) names (type70_1.md §8). -#}
{% macro is_own_logical_processor(lp, cpu, control) -%}
    {{ lp }}.system_id = {{ cpu }}.system_id
    and {{ lp }}.interval_start_utc = {{ cpu }}.interval_start_utc
    and {{ lp }}.partition_number = {{ control }}.partition_number
    and {{ lp }}.lp_address = {{ cpu }}.cpu_id
{%- endmacro %}

{#- The first copy of every row of the SMF 70.1 raw table `relation` (a record, or one of its sections named
    by the `key` columns), with interval_start_utc: the header's local interval start less SMF70LGO of the
    record the row came in (smf70_cpu_control holds one row per record). Copies are told by the UTC start: a
    fall-back day's repeated local hour holds two RMF intervals of each local start, not a record and its copy. -#}
{#- The UTC instant of an RMF record's local time `local_ts`: SMF7xLGO (`utc_offset_us`, the product section's) is
    local minus GMT, so UTC = local - offset; a record without it is taken to keep UTC, as a MEASURE system
    without a zone is. -#}
{% macro rmf_utc(local_ts, utc_offset_us) -%}
    {{ add_millis('-coalesce(cast(' ~ utc_offset_us ~ ' / 1000 as bigint), 0)', local_ts) }}
{%- endmacro %}

{#- The first copy of every row of the RMF raw table `table` (72.3, 73.1, 74.1: the product section's SMFxxLGO on
    each row), told by system, UTC interval start and the `key` columns of its section. -#}
{% macro rmf_first_copy(table, key) %}
    {%- set with_utc -%}
        (select sections.*, {{ rmf_utc('sections.interval_start', 'sections.utc_offset_us') }} as interval_start_utc
        from {{ source('smf', table) }} as sections) as with_utc
    {%- endset %}
    {{ first_copy(with_utc, ['system_id', 'interval_start_utc'] + key) }}
{% endmacro %}

{% macro smf70_first_copy(relation, key=[]) %}
    {%- set with_utc -%}
        (select
            sections.*,
            {{ rmf_utc('sections.interval_start', 'records.utc_offset_us') }} as interval_start_utc
        from {{ relation }} as sections
        inner join {{ source('smf', 'smf70_cpu_control') }} as records
            on records.source_file_id = sections.source_file_id
            and records.record_ordinal = sections.record_ordinal) as with_utc
    {%- endset -%}
    {{ first_copy(with_utc, ['system_id', 'interval_start_utc'] + key) }}
{% endmacro %}

{#- The columns every staging model of an SMF 70.1 section (CPU, partition, logical processor) starts with:
    where the row came from, the system, and its RMF interval's local and UTC start (smf70_first_copy). -#}
{% macro smf70_section_columns() -%}
    source_file_id,
    record_ordinal,
    system_id,
    interval_start,
    interval_start_utc,
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
