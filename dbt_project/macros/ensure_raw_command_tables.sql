{#-
    The raw command-output table as docs/commands_raw_contract.md defines it.

    ensure_raw_command_tables() runs as an on-run-start hook. It creates raw.command_counters when no
    command capture has been ingested yet, so the staging view compiles on a fresh warehouse, and adds
    any contract column an older table lacks. The statements are idempotent and only add things.
-#}

{% macro raw_command_counter_columns() %}
    {{ return([
        ('source_file_id', 'bigint'),
        ('record_ordinal', 'bigint'),
        ('line_number', 'bigint'),
        ('host', 'varchar'),
        ('command', 'varchar'),
        ('source_format', 'varchar'),
        ('section', 'varchar'),
        ('entity', 'varchar'),
        ('counter', 'varchar'),
        ('counter_name', 'varchar'),
        ('value', 'double'),
        ('text_value', 'varchar'),
        ('unit', 'varchar'),
        ('kind', 'varchar'),
        ('captured_at', 'timestamp'),
        ('utc_offset_s', 'integer'),
    ]) }}
{% endmacro %}

{% macro ensure_raw_command_tables() %}
    {%- set columns = raw_command_counter_columns() %}
create schema if not exists raw;
create table if not exists raw.command_counters (
    {%- for name, type in columns %}
    "{{ name }}" {{ type }},
    {%- endfor %}
);
    {%- for name, type in columns %}
alter table raw.command_counters add column if not exists "{{ name }}" {{ type }};
    {%- endfor %}
{% endmacro %}
