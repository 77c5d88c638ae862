{#-
    The raw SMF tables as docs/smf_raw_contract.md defines them (written by the smf.binary parser,
    ingest/formats/smf/). tests/test_smf_contract.py checks this list against what the parser writes.

    ensure_raw_smf_tables() runs as an on-run-start hook. It creates every SMF table that no ingest
    has created yet, so the SMF staging views compile on a warehouse that never saw an SMF dump, and
    adds any contract column a table lacks. The statements are idempotent and only add things.
-#}

{% macro raw_smf_columns() %}
    {{ return({
        'smf70_cpu_control': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('subsystem_id', 'varchar'),
            ('interval_start', 'timestamp'), ('interval_us', 'bigint'), ('cycle_us', 'bigint'),
            ('utc_offset_us', 'bigint'), ('rmf_version', 'bigint'), ('product_name', 'varchar'),
            ('sample_count', 'bigint'), ('rmf_flags', 'bigint'), ('zos_level', 'varchar'),
            ('processor_complex_type', 'bigint'), ('processor_flags', 'bigint'),
            ('partition_number', 'bigint'), ('smf_record_level', 'bigint'),
            ('reassembly_area_count', 'bigint'), ('sync_s', 'bigint'), ('sysplex_name', 'varchar'),
            ('system_name', 'varchar'), ('machine_type', 'varchar'), ('cpu_version', 'bigint'),
            ('physical_cpus', 'bigint'), ('prsm_flags', 'bigint'), ('cpu_flags', 'bigint'),
            ('dispatch_interval_ms', 'bigint'), ('model_capacity_id', 'varchar'),
            ('diagnose_samples', 'bigint'), ('zaaps_online', 'bigint'), ('cpu_adjustment_factor', 'bigint'),
            ('capacity_msu_per_h', 'bigint'), ('long_term_avg_msu_per_h', 'bigint'),
            ('hardware_model', 'varchar'), ('ziips_online', 'bigint'), ('cpc_serial', 'varchar'),
            ('hiperdispatch_flags', 'bigint'), ('cpu_section_count', 'bigint'),
            ('partition_section_count', 'bigint'), ('lp_section_count', 'bigint'),
        ],
        'smf70_cpu': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('interval_start', 'timestamp'),
            ('section_index', 'bigint'), ('cpu_wait_us', 'bigint'), ('cpu_id', 'bigint'),
            ('config_flags', 'bigint'), ('cpu_serial', 'varchar'), ('cpu_type_code', 'bigint'),
            ('io_slih_count', 'bigint'), ('io_tpi_count', 'bigint'), ('cpu_parked_us', 'bigint'),
            ('tcb_dispatch_count', 'bigint'), ('srb_dispatch_count', 'bigint'), ('io_count', 'bigint'),
            ('sigp_count', 'bigint'), ('wait_dispatch_count', 'bigint'),
            ('warning_track_issued_count', 'bigint'), ('warning_track_used_count', 'bigint'),
            ('warning_track_yield_ms', 'bigint'),
        ],
        'smf70_partition': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('interval_start', 'timestamp'),
            ('section_index', 'bigint'), ('partition_name', 'varchar'), ('partition_number', 'bigint'),
            ('partition_flags', 'bigint'), ('logical_cpu_count', 'bigint'), ('first_lp_index', 'bigint'),
            ('active_lp_accum', 'bigint'), ('cluster_name', 'varchar'), ('system_name', 'varchar'),
            ('central_storage_mb', 'bigint'), ('expanded_storage_mb', 'bigint'),
            ('defined_capacity_msu_per_h', 'bigint'), ('partition_flags2', 'bigint'),
            ('user_partition_id', 'bigint'), ('max_thread_id', 'bigint'), ('capacity_group_name', 'varchar'),
            ('group_max_msu_per_h', 'bigint'), ('hardware_group_name', 'varchar'), ('boost_flags', 'bigint'),
        ],
        'smf70_logical_processor': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('interval_start', 'timestamp'),
            ('section_index', 'bigint'), ('dispatch_us', 'bigint'), ('lp_address', 'bigint'),
            ('weight', 'bigint'), ('lp_flags', 'bigint'), ('polarization_flags', 'bigint'),
            ('cpu_type_index', 'bigint'), ('effective_dispatch_us', 'bigint'),
            ('actual_share_accum', 'bigint'), ('min_share', 'bigint'), ('max_share', 'bigint'),
            ('samples_near_min', 'bigint'), ('samples_near_max', 'bigint'), ('online_us', 'bigint'),
            ('wait_state_us', 'bigint'), ('pricing_weight_adjustment', 'bigint'),
            ('capping_considered_samples', 'bigint'), ('polarization_weight', 'bigint'),
            ('capped_samples', 'bigint'), ('hw_cap_limit', 'bigint'), ('hw_group_cap_limit', 'bigint'),
            ('mt_idle_us', 'bigint'), ('partition_name', 'varchar'), ('partition_number', 'bigint'),
            ('cpu_type_name', 'varchar'), ('cpu_type_physical_count', 'bigint'),
        ],
        'smf30_work': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('work_type', 'varchar'),
            ('record_subtype', 'bigint'), ('record_version', 'varchar'), ('product_name', 'varchar'),
            ('os_level', 'varchar'), ('system_name', 'varchar'), ('sysplex_name', 'varchar'),
            ('job_name', 'varchar'), ('program_name', 'varchar'), ('step_name', 'varchar'),
            ('user_identification', 'varchar'), ('job_id', 'varchar'), ('step_number', 'bigint'),
            ('job_class', 'varchar'), ('job_flags', 'bigint'), ('job_priority', 'bigint'),
            ('programmer_name', 'varchar'), ('racf_group', 'varchar'), ('racf_user_id', 'varchar'),
            ('terminal_id', 'varchar'), ('proc_step_name', 'varchar'), ('job_class_long', 'varchar'),
            ('step_start', 'timestamp'), ('reader_start', 'timestamp'), ('reader_end', 'timestamp'),
            ('interval_start', 'timestamp'), ('timer_flags', 'bigint'), ('cpu_tcb_us', 'bigint'),
            ('cpu_srb_us', 'bigint'), ('initiator_tcb_us', 'bigint'), ('initiator_srb_us', 'bigint'),
            ('io_interrupt_us', 'bigint'), ('region_control_us', 'bigint'), ('hiperspace_us', 'bigint'),
            ('crypto_count', 'bigint'), ('preemptable_srb_us', 'bigint'),
            ('independent_enclave_us', 'bigint'), ('dependent_enclave_us', 'bigint'),
            ('enqueue_promotion_us', 'bigint'), ('zaap_us', 'bigint'), ('ziip_us', 'bigint'),
            ('ziip_on_cp_us', 'bigint'), ('card_records', 'bigint'), ('excp_count', 'bigint'),
            ('tput_count', 'bigint'), ('tget_count', 'bigint'), ('device_connect_us', 'bigint'),
            ('io_flags', 'bigint'), ('dasd_connect_us', 'bigint'), ('dasd_disconnect_us', 'bigint'),
            ('dasd_pending_us', 'bigint'), ('dasd_ssch_count', 'bigint'), ('excp_count_64', 'bigint'),
            ('completion_code', 'bigint'), ('termination_flags', 'bigint'), ('abend_reason', 'bigint'),
            ('service_units', 'bigint'), ('cpu_service_units', 'bigint'), ('srb_service_units', 'bigint'),
            ('io_service_units', 'bigint'), ('mso_service_units', 'bigint'),
            ('transaction_active_us', 'bigint'), ('transaction_residency_us', 'bigint'),
            ('transaction_count', 'bigint'), ('workload_name', 'varchar'), ('service_class', 'varchar'),
            ('resource_group', 'varchar'), ('report_class', 'varchar'), ('excp_section_count', 'bigint'),
        ],
        'smf119_tcp_connection': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('subsystem_id', 'varchar'),
            ('tcpip_system_name', 'varchar'), ('sysplex_name', 'varchar'), ('stack_name', 'varchar'),
            ('release_id', 'varchar'), ('component', 'varchar'), ('as_name', 'varchar'),
            ('as_user_id', 'varchar'), ('asid', 'bigint'), ('record_reason', 'bigint'),
            ('start_time', 'timestamp'), ('end_time', 'timestamp'), ('resource_name', 'varchar'),
            ('connection_id', 'bigint'), ('tls_connection_status', 'bigint'), ('termination_code', 'bigint'),
            ('remote_ip', 'varchar'), ('local_ip', 'varchar'), ('remote_port', 'bigint'),
            ('local_port', 'bigint'), ('in_bytes', 'bigint'), ('out_bytes', 'bigint'),
            ('send_window_bytes', 'bigint'), ('max_send_window_bytes', 'bigint'),
            ('congestion_window_bytes', 'bigint'), ('send_segment_bytes', 'bigint'),
            ('round_trip_ms', 'bigint'), ('round_trip_variance_ms', 'bigint'), ('open_type', 'bigint'),
            ('type_of_service', 'bigint'), ('retransmit_count', 'bigint'), ('service_profile', 'varchar'),
            ('service_policy', 'varchar'), ('in_segments', 'bigint'), ('out_segments', 'bigint'),
            ('start_tod', 'timestamp'), ('end_tod', 'timestamp'), ('dup_acks_received', 'bigint'),
        ],
        'smf119_interface': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('subsystem_id', 'varchar'),
            ('tcpip_system_name', 'varchar'), ('sysplex_name', 'varchar'), ('stack_name', 'varchar'),
            ('release_id', 'varchar'), ('component', 'varchar'), ('as_name', 'varchar'),
            ('as_user_id', 'varchar'), ('asid', 'bigint'), ('record_reason', 'bigint'),
            ('section_index', 'bigint'), ('interval_us', 'bigint'), ('home_ip', 'varchar'),
            ('interface_name', 'varchar'), ('device_name', 'varchar'), ('interface_type', 'varchar'),
            ('mtu_bytes', 'bigint'), ('speed', 'bigint'), ('high_speed', 'bigint'), ('in_bytes', 'bigint'),
            ('in_unicast_packets', 'bigint'), ('in_broadcast_packets', 'bigint'),
            ('in_multicast_packets', 'bigint'), ('in_discards', 'bigint'), ('in_errors', 'bigint'),
            ('in_unknown_protocol', 'bigint'), ('out_bytes', 'bigint'), ('out_unicast_packets', 'bigint'),
            ('out_broadcast_packets', 'bigint'), ('out_multicast_packets', 'bigint'),
            ('out_discards', 'bigint'), ('out_errors', 'bigint'), ('out_queue_length', 'bigint'),
            ('physical_network_id', 'varchar'),
        ],
        'smf119_ftp_transfer': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('subsystem_id', 'varchar'),
            ('tcpip_system_name', 'varchar'), ('sysplex_name', 'varchar'), ('stack_name', 'varchar'),
            ('release_id', 'varchar'), ('component', 'varchar'), ('as_name', 'varchar'),
            ('as_user_id', 'varchar'), ('asid', 'bigint'), ('record_reason', 'bigint'),
            ('start_time', 'timestamp'), ('end_time', 'timestamp'), ('operation_code', 'bigint'),
            ('command', 'varchar'), ('file_type', 'varchar'), ('data_remote_ip', 'varchar'),
            ('data_local_ip', 'varchar'), ('data_remote_port', 'bigint'), ('data_local_port', 'bigint'),
            ('client_ip', 'varchar'), ('server_ip', 'varchar'), ('client_port', 'bigint'),
            ('server_port', 'bigint'), ('user_id', 'varchar'), ('data_type', 'varchar'),
            ('transfer_mode', 'varchar'), ('structure', 'varchar'), ('dataset_type', 'varchar'),
            ('duration_us', 'bigint'), ('transfer_bytes', 'bigint'), ('last_reply', 'varchar'),
            ('member_name', 'varchar'), ('member_name2', 'varchar'), ('transfer_bytes_float', 'double'),
            ('control_connection_id', 'bigint'), ('data_connection_id', 'bigint'), ('session_id', 'varchar'),
            ('host_name', 'varchar'), ('file_name', 'varchar'), ('file_name2', 'varchar'),
            ('security_mechanism', 'varchar'), ('control_protection', 'varchar'),
            ('data_protection', 'varchar'), ('login_method', 'varchar'), ('protocol_level', 'varchar'),
            ('cipher_spec', 'varchar'),
        ],
        'smf119_tn3270_session': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('subsystem_id', 'varchar'),
            ('tcpip_system_name', 'varchar'), ('sysplex_name', 'varchar'), ('stack_name', 'varchar'),
            ('release_id', 'varchar'), ('component', 'varchar'), ('as_name', 'varchar'),
            ('as_user_id', 'varchar'), ('asid', 'bigint'), ('record_reason', 'bigint'),
            ('record_subtype', 'bigint'), ('start_time', 'timestamp'), ('end_time', 'timestamp'),
            ('lu_name', 'varchar'), ('application', 'varchar'), ('logical_device', 'bigint'),
            ('remote_ip', 'varchar'), ('local_ip', 'varchar'), ('remote_port', 'bigint'),
            ('local_port', 'bigint'), ('in_bytes', 'bigint'), ('out_bytes', 'bigint'),
            ('duration_us', 'bigint'), ('session_type', 'bigint'), ('ssl_status', 'bigint'),
            ('termination_reason', 'varchar'), ('logmode', 'varchar'), ('device_type', 'varchar'),
        ],
        'smf_unparsed': [
            ('source_file_id', 'bigint'), ('record_ordinal', 'bigint'), ('byte_offset', 'bigint'),
            ('system_id', 'varchar'), ('record_time', 'timestamp'), ('record_type', 'bigint'),
            ('record_subtype', 'bigint'), ('subsystem_id', 'varchar'), ('extended_record_type', 'bigint'),
            ('record_length', 'bigint'), ('record_bytes', 'blob'),
        ],
    }) }}
{% endmacro %}

{% macro ensure_raw_smf_tables() %}
    {%- set statements = ['create schema if not exists raw'] -%}
    {%- for table, columns in raw_smf_columns().items() -%}
        {%- set column_ddl = [] -%}
        {%- for name, type in columns -%}
            {%- do column_ddl.append('"' ~ name ~ '" ' ~ type) -%}
        {%- endfor -%}
        {%- do statements.append('create table if not exists raw.' ~ table ~ ' (' ~ column_ddl | join(', ') ~ ')') -%}
        {%- for name, type in columns -%}
            {%- do statements.append('alter table raw.' ~ table ~ ' add column if not exists "' ~ name ~ '" ' ~ type) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(statements | join(';\n') ~ ';') }}
{% endmacro %}
