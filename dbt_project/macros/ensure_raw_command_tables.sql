{#-
    The raw command-output tables as docs/commands_raw_contract.md defines them: a capture once
    (command_captures), each counter once per file (command_counter_labels) and one narrow row per
    printed value (command_values).

    ensure_raw_command_tables() runs as an on-run-start hook. It creates the tables when no command
    capture has been ingested yet, so the staging views compile on a fresh warehouse, and adds any
    contract column an older table lacks. The statements are idempotent and only add things.
-#}

{% macro raw_command_table_columns() %}
    {{ return({
        'command_captures': [
            ('source_file_id', 'bigint'),
            ('record_ordinal', 'bigint'),
            ('line_number', 'bigint'),
            ('host', 'varchar'),
            ('command', 'varchar'),
            ('source_format', 'varchar'),
            ('captured_at', 'timestamp'),
            ('utc_offset_s', 'integer'),
            ('counter_count', 'bigint'),
        ],
        'command_counter_labels': [
            ('source_file_id', 'bigint'),
            ('record_ordinal', 'bigint'),
            ('label_id', 'integer'),
            ('section', 'varchar'),
            ('entity', 'varchar'),
            ('counter', 'varchar'),
            ('counter_name', 'varchar'),
            ('unit', 'varchar'),
            ('kind', 'varchar'),
        ],
        'command_values': [
            ('source_file_id', 'bigint'),
            ('record_ordinal', 'bigint'),
            ('line_number', 'bigint'),
            ('label_id', 'integer'),
            ('value', 'double'),
            ('text_value', 'varchar'),
        ],
    }) }}
{% endmacro %}

{% macro ensure_raw_command_tables() %}
    {{ return(create_raw_tables(raw_command_table_columns())) }}
{% endmacro %}
