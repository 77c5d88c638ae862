{#-
    The raw MEASURE tables as docs/measure_raw_contract.md defines them.

    ensure_raw_measure_tables() runs as an on-run-start hook. It creates every MEASURE table that no
    ingest has created yet, so staging views compile on a fresh warehouse. It also adds any contract
    column that a table lacks: a table is created from the first file's columns, and a form that
    carries fewer items must not break the views. The statements are idempotent and only add things.
-#}

{% macro raw_measure_header_columns() %}
    {{ return([
        ('source_file_id', 'bigint'),
        ('record_ordinal', 'bigint'),
        ('source_form', 'varchar'),
        ('system_name', 'varchar'),
        ('cpu_num', 'integer'),
        ('loadid', 'varchar'),
        ('from_timestamp', 'timestamp'),
        ('to_timestamp', 'timestamp'),
        ('delta_time', 'bigint'),
        ('error', 'integer'),
        ('os_version', 'varchar'),
    ]) }}
{% endmacro %}

{% macro raw_measure_entity_columns() %}
    {%- set counters = {
        'measure_cpu': ['cpu_busy_time', 'cpu_qtime', 'cpu_qlen_max', 'mem_qtime', 'mem_qlen_max',
                        'dispatches', 'swaps', 'intr_busy_time', 'process_ovhd', 'send_busy_time',
                        'disc_ios', 'cache_hits', 'page_requests', 'page_scans', 'transactions',
                        'response_time', 'ending_free_mem'],
        'measure_process': ['cpu_busy_time', 'ready_time', 'mem_qtime', 'dispatches', 'page_faults',
                            'vsems', 'recv_qtime', 'recv_qlen_max', 'messages_sent', 'messages_received',
                            'sent_bytes', 'received_bytes', 'checkpoints', 'file_open_calls'],
        'measure_disc': ['request_qtime', 'requests', 'reads', 'writes', 'input_bytes', 'output_bytes',
                         'swaps', 'requests_blocked', 'read_busy_time', 'write_busy_time',
                         'seek_busy_time', 'device_qbusy_time', 'cache_hits', 'cache_misses'],
        'measure_line': ['read_busy_time', 'write_busy_time', 'requests', 'input_bytes', 'output_bytes',
                         'input_data_bytes', 'output_data_bytes', 'reads', 'writes', 'retries',
                         'transactions', 'response_time'],
        'measure_userdef': ['max_value', 'counter_value'],
        'measure_file': ['file_busy_time', 'reads', 'writes', 'updates_or_replies',
                         'deletes_or_writereads', 'info_calls', 'messages', 'message_bytes'],
        'measure_discopen': ['driver_input_calls', 'driver_output_calls', 'cache_hits',
                             'cache_write_hits', 'block_splits', 'requests', 'requests_blocked',
                             'lockwait_time'],
    } -%}
    {%- set ids = {
        'measure_cpu': [('cpu_type', 'integer'), ('memory_pages', 'integer'), ('pcbs', 'integer')],
        'measure_process': [('pin', 'integer'), ('process_name', 'varchar'), ('priority', 'integer'),
                            ('program_file_name', 'varchar'), ('userid', 'varchar')],
        'measure_disc': [('device_name', 'varchar'), ('pin', 'integer'), ('logical_device', 'integer'),
                         ('device_type', 'integer'), ('device_subtype', 'integer')],
        'measure_line': [('device_name', 'varchar'), ('pin', 'integer'), ('logical_device', 'integer'),
                         ('device_type', 'integer'), ('device_subtype', 'integer')],
        'measure_userdef': [('pin', 'integer'), ('process_name', 'varchar'), ('program_file_name', 'varchar'),
                            ('priority', 'integer'), ('name', 'varchar'), ('type', 'integer'),
                            ('index', 'integer')],
        'measure_file': [('opener_cpu', 'integer'), ('opener_pin', 'integer'), ('file_name', 'varchar'),
                         ('device_type', 'integer')],
        'measure_discopen': [('opener_cpu', 'integer'), ('opener_pin', 'integer'), ('file_name', 'varchar')],
    } -%}
    {%- set tables = {} -%}
    {%- for table, id_columns in ids.items() -%}
        {%- set columns = id_columns + [] -%}
        {%- for counter in counters[table] -%}
            {%- do columns.append((counter, 'bigint')) -%}
        {%- endfor -%}
        {%- do tables.update({table: columns}) -%}
    {%- endfor -%}
    {{ return(tables) }}
{% endmacro %}

{% macro ensure_raw_measure_tables() %}
    {%- set tables = {} -%}
    {%- for table, entity_columns in raw_measure_entity_columns().items() -%}
        {%- do tables.update({table: raw_measure_header_columns() + entity_columns}) -%}
    {%- endfor -%}
    {#- MEASCOM text perfdb keeps verbatim (SYSTEM blocks, listings of other entities) -#}
    {%- do tables.update({'measure_unparsed': [
        ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('source_form', 'varchar'),
        ('entity', 'varchar'), ('line_number', 'bigint'), ('raw_text', 'varchar'),
    ]}) -%}
    {{ return(create_raw_tables(tables)) }}
{% endmacro %}
