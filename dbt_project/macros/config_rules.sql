{#- The configuration rules that relate several parameters of a listing, in SQL: the checks of
    ingest.capacity.config_checks (CHECKS) that rpt_config_findings evaluates on raw.parameter_listings, so the
    warehouse and `perfdb report capacity --config` find the same. Each rule: the canonical parameters it
    needs (all set on one node, or, for two, each set by only one node of the listing) and the others it
    reads, the value and the limit it shows, and when it fires; a parameter's number is its key, its text (lower case, blanks removed)
    <key>_text. A rule config_checks codes that is not here (000-rusizes-symmetric decodes X'hhhh') is
    not evaluated in SQL. -#}
{% macro config_relations() -%}
{#- the words config_checks.TRUE_WORDS reads as yes -#}
{%- set yes = "('yes', 'y', 'true', '1', 'on')" -%}
{#- seed 000's RU-in-a-frame rule is also seed 002's (Appendix A, L942-L946) -#}
{%- set ru_fits_frame = {
        'needs': ['ru_size', 'dlc_frame_size'], 'reads': ['network_type'], 'value': 'ru_size', 'limit': 'dlc_frame_size - header_bytes',
        'fired': 'dlc_frame_size - header_bytes <= 0 '
                 'or (ru_size <= dlc_frame_size and ru_size > dlc_frame_size - header_bytes) '
                 'or (ru_size > dlc_frame_size and ru_size % (dlc_frame_size - header_bytes) <> 0)'} -%}
{#- seed 002's DLC timer rule, stated as R17 and again as F13 -#}
{%- set dlc_timers = {
        'needs': ['ack_timer', 'response_timer'], 'value': 'ack_timer', 'limit': 'response_timer',
        'fired': 'ack_timer >= response_timer or response_timer < 1 or response_timer > 2'} -%}
{#- a VSE SET value left at its default prints nothing: unset is off -#}
{%- set debug_on = "coalesce(debug_text, 'off') <> 'off'" -%}
{%- set record_on = "coalesce(record_text, 'off') = 'on'" -%}
{{ return({
    '000-iobuf-equals-unitsz': {
        'needs': ['iobuf', 'unitsz'], 'value': 'iobuf', 'limit': 'unitsz',
        'fired': 'case when iobuf is null and unitsz is null then false when iobuf is null or unitsz is null '
                 'then true else iobuf <> unitsz end'},
    '000-maxdata-ge-maxtsl': {
        'needs': ['maxdata', 'maxtsl'], 'value': 'maxdata', 'limit': 'maxtsl', 'fired': 'maxdata < maxtsl'},
    '000-rcvbufc-two-frames': {
        'needs': ['rcvbufc', 'maxtsl'], 'reads': ['tic'], 'value': 'rcvbufc', 'limit': '2 * maxtsl',
        'fired': "rcvbufc < 2 * maxtsl or (tic_text = 'tic1' and rcvbufc > 4095) "
                 "or (tic_text = 'tic2' and rcvbufc > 32000)"},
    '000-maxtsl-tic1': {
        'needs': ['maxtsl', 'tic'], 'value': 'maxtsl', 'limit': '1108', 'fired': "tic_text = 'tic1' and maxtsl > 1108"},
    '000-size-chain': {
        'needs': ['maxdata', 'unitsz', 'maxbfru'], 'reads': ['piu_size'], 'value': 'maxdata', 'limit': 'unitsz * maxbfru',
        'fired': 'not (maxdata > unitsz * maxbfru) or (piu_size is not null and not (unitsz * maxbfru > piu_size))'},
    '000-maxbfru-from-piu': {
        'needs': ['unitsz', 'maxbfru', 'piu_size'], 'value': 'maxbfru', 'limit': 'ceil(piu_size / nullif(unitsz, 0))',
        'fired': 'maxbfru not in (ceil(piu_size / nullif(unitsz, 0)), ceil(piu_size / nullif(unitsz, 0)) + 1)'},
    '000-ru-fits-frame': ru_fits_frame,
    '002-receive-window-ncp': {
        'needs': ['receive_window_count', 'partner'], 'value': 'receive_window_count', 'limit': '7',
        'fired': "partner_text like '%ncp%' and receive_window_count > 7"},
    '002-sdlc-timer': {
        'needs': ['repoll_timeout', 'link_speed', 'dlc_frame_size'], 'value': 'repoll_timeout',
        'limit': '2 * dlc_frame_size * 8 / link_speed', 'fired': 'repoll_timeout <= 2 * dlc_frame_size * 8 / link_speed'},
    '002-R17': dlc_timers,
    '002-R26': ru_fits_frame,
    '002-F13': dlc_timers,
    '003-iobuf-nlp-hpr': {
        'needs': ['iobuf', 'ru_size', 'hpr'], 'reads': ['mpc_plus', 'nlp_size'], 'value': 'iobuf', 'limit': '(coalesce(nullif(nlp_size, 0), 8000) - 200) / 2',
        'fired': 'hpr_text in ' ~ yes ~ ' and coalesce(mpc_plus_text, \'\') not in ' ~ yes ~ ' and ru_size >= 16384 '
                 'and coalesce(nullif(nlp_size, 0), 8000) - 2 * iobuf < 200'},
    '003-csm-dataspace': {
        'needs': ['csm_storage'], 'value': 'null', 'limit': 'null', 'fired': "csm_storage_text = 'ecsa'"},
    '003-tibuf-without-mpc': {
        'needs': ['tibuf'], 'reads': ['mpc_plus'], 'value': 'tibuf', 'limit': '0',
        'fired': 'tibuf > 0 and coalesce(mpc_plus_text, \'\') not in ' ~ yes},
    '004-aR9': {
        'needs': ['max_segment', 'link_mtu'], 'value': 'max_segment', 'limit': 'link_mtu - 40',
        'fired': 'max_segment > link_mtu - 40'},
    '004-aR12': {
        'needs': ['debug'], 'reads': ['diagnose', 'record'], 'value': 'null', 'limit': 'null',
        'fired': debug_on ~ " or coalesce(diagnose_text, 'off') <> 'off' or " ~ record_on},
    '004-aR13': {
        'needs': ['telnetd_buffers'], 'reads': ['telnetd_pool'], 'value': 'telnetd_buffers', 'limit': '0',
        'fired': 'telnetd_buffers > 0 and coalesce(telnetd_pool_text, \'\') not in ' ~ yes},
    '004-bR4': {'needs': ['debug'], 'value': 'null', 'limit': 'null', 'fired': debug_on},
    '004-bR6': {'needs': ['record'], 'value': 'null', 'limit': 'null', 'fired': record_on},
}) }}
{%- endmacro %}

{#- The rules on each setting of a parameter rather than on a node's parameters: every pacing window
    (000-pacing-window-8) and each adapter queue (002-adapter-queues-150, 002-F20). -#}
{% macro config_setting_rules() -%}
{#- seed 002's adapter queues, stated as a rule (R19) and again as F20 -#}
{%- set adapter_queues = {'keys': ['adapter_transmit_queue', 'adapter_receive_queue'], 'every': false,
                          'limit': '150', 'fired': 'value < 150'} -%}
{{ return({
    '000-pacing-window-8': {'keys': ['pacing_window'], 'every': true, 'limit': '8',
                            'fired': 'value > 0 and value < 8'},
    '002-adapter-queues-150': adapter_queues,
    '002-F20': adapter_queues,
}) }}
{%- endmacro %}

{#- Per key of `keys`, from the settings in `relation` (grouped by the caller): whether it is set (<key>_set), its
    number (<key>), its text in lower case without blanks (<key>_text) and the node that sets it (<key>_node). -#}
{%- macro config_wide(relation, keys) %}
        {%- for key in keys %}
        max(case when {{ relation }}.parameter_key = '{{ key }}' then 1 else 0 end) as {{ key }}_set,
        max(case when {{ relation }}.parameter_key = '{{ key }}' then {{ relation }}.value end) as {{ key }},
        max(case when {{ relation }}.parameter_key = '{{ key }}'
            then replace(lower(trim({{ relation }}.value_text)), ' ', '') end) as {{ key }}_text,
        max(case when {{ relation }}.parameter_key = '{{ key }}' then {{ relation }}.node end) as {{ key }}_node,
        {%- endfor %}
{%- endmacro %}
