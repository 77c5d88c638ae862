{#- The configuration rules that relate several parameters of a listing, in SQL: the checks of
    ingest.capacity.config_checks (CHECKS) that rpt_config_findings evaluates on raw.parameter_listings, so the
    warehouse and `perfdb report capacity --config` find the same. Each rule: the canonical parameters it
    needs (all set on one node, or, for two, each set by only one node of the listing) and the others it
    reads, the value and the limit it shows, and when it fires; a parameter's number is its key, its text (lower case, blanks removed)
    <key>_text. -#}
{% macro config_relations() -%}
{#- the words config_checks.TRUE_WORDS reads as yes; seed 001's PEEK rules (001-aF12, 001-aF13) are explained at
    config_checks' _readlink_cache_short and _readlink_cache_override -#}
{%- set yes = "('yes', 'y', 'true', '1', 'on')" -%}
{#- RCVBUFC holds two frames and fits its TIC (L844-L851): rule 000-rcvbufc-two-frames and formula 000-F11 -#}
{%- set rcvbufc = {
    'needs': ['rcvbufc', 'maxtsl'], 'reads': ['tic'], 'value': 'rcvbufc', 'limit': '2 * maxtsl',
    'fired': "rcvbufc < 2 * maxtsl or (tic_text = 'tic1' and rcvbufc > 4095) or (tic_text = 'tic2' and rcvbufc > 32000)"} -%}
{#- an RU larger than its frame, a multiple of frame - header (L310-L312) -#}
{%- set ru_multiple = "ru_size > dlc_frame_size and dlc_frame_size - header_bytes > 0 "
    ~ "and ru_size % (dlc_frame_size - header_bytes) <> 0" -%}
{#- a mode's rules (config_checks: ARCHITECTED_MODES, INTERACTIVE_MODES): the RU rules skip the interactive modes -#}
{%- set bulk = "coalesce(mode_name_text, '') not in ('#inter', '#intersc')" -%}
{%- set rusizes = rusizes_bytes() -%}
{%- set rusizes_valid, ru_first, ru_second = rusizes.valid, rusizes.first, rusizes.second -%}
{#- seed 000's RU-in-a-frame rule is also seed 002's (Appendix A, L942-L946), there on CS/AIX nodes only
    (platform `csaix`: a rule of seed 002's link stations, judged on a node that names a parameter as CS/AIX does) -#}
{%- set ru_fits_frame = {
        'needs': ['ru_size', 'dlc_frame_size'], 'reads': ['network_type'], 'value': 'ru_size', 'limit': 'dlc_frame_size - header_bytes',
        'fired': 'dlc_frame_size - header_bytes <= 0 '
                 'or (ru_size <= dlc_frame_size and ru_size > dlc_frame_size - header_bytes) '
                 'or (ru_size > dlc_frame_size and ru_size % (dlc_frame_size - header_bytes) <> 0)'} -%}
{%- set csaix_ru_fits_frame = {'platform': 'csaix'} -%}
{%- do csaix_ru_fits_frame.update(ru_fits_frame) -%}
{#- seed 002's DLC timer rule, stated as R17 and again as F13 -#}
{%- set dlc_timers = {
        'needs': ['ack_timer', 'response_timer'], 'value': 'ack_timer', 'limit': 'response_timer',
        'fired': 'ack_timer >= response_timer or response_timer < 1 or response_timer > 2'} -%}
{#- seed 000's DLC windows (L456-L461, L614): 2 and 2 between CM/2 and NS/DOS (the partner is NS/DOS, or the node is
    and its partner CM/2), else at least config_checks' DLC_WINDOW_FLOOR -#}
{%- set cm2_nsdos = "coalesce(partner_text like '%dos%' or (nsdos_node = 1 and (partner_text like '%cm/2%' "
    ~ "or partner_text like '%os/2%')), false)" -%}
{#- NCP's T2TIMER = (T1, T2, W) (seed 000 L870-L876): W, its third value (null when T2TIMER is not coded) -#}
{%- set t2timer_window = "try_cast(split_part(replace(replace(t2timer_text, '(', ''), ')', ''), ',', 3) as double)" -%}
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
    '000-rcvbufc-two-frames': rcvbufc,
    '000-F11': rcvbufc,
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
    '000-R02': {
        'needs': ['mode_name', 'cos_name'], 'value': 'null', 'limit': 'null',
        'fired': "mode_name_text like '#batch%' and cos_name_text in ('#inter', '#intersc')"},
    '000-R03': {
        'needs': ['ru_size', 'dlc_frame_size'], 'value': 'ru_size', 'limit': 'dlc_frame_size',
        'fired': 'ru_size > dlc_frame_size and dlc_frame_size > 0 and ru_size % dlc_frame_size <> 0'},
    '000-R05': {
        'needs': ['ru_size', 'dlc_frame_size', 'network_type'], 'value': 'ru_size', 'limit': 'dlc_frame_size - header_bytes',
        'fired': 'header_bytes = 29 and ' ~ ru_multiple},
    '000-R06': {
        'needs': ['ru_size', 'dlc_frame_size'], 'reads': ['network_type'], 'value': 'ru_size',
        'limit': 'dlc_frame_size - header_bytes', 'fired': 'header_bytes = 9 and ' ~ ru_multiple},
    '000-R07': {
        'needs': ['ru_size'], 'reads': ['mode_name'], 'value': 'ru_size', 'limit': '2048',
        'fired': 'ru_size < 2048 and ' ~ bulk},
    '000-R15': {
        'needs': ['mode_name'], 'value': 'null', 'limit': 'null',
        'fired': "mode_name_text not in ('blank', '#batch', '#batchsc', '#inter', '#intersc')"},
    '000-R20': {
        'needs': ['max_ru_size_upper_bound'], 'reads': ['mode_name'], 'value': 'max_ru_size_upper_bound', 'limit': '16384',
        'fired': 'max_ru_size_upper_bound < 16384 and ' ~ bulk},
    '000-R21': {
        'needs': ['ru_size', 'dlc_frame_size'], 'reads': ['network_type'], 'value': 'dlc_frame_size',
        'limit': 'ru_size + header_bytes', 'fired': 'ru_size >= 16384 and dlc_frame_size < ru_size + header_bytes'},
    '000-R22': {
        'needs': ['pacing_window', 'max_ru_size_upper_bound'], 'value': 'pacing_window', 'limit': '63',
        'fired': 'pacing_window < 63'},
    '000-R25': {
        'needs': ['dlc_maxin', 'dlc_maxout'], 'reads': ['partner'], 'value': 'dlc_maxin', 'limit': 'dlc_maxout',
        'fired': "dlc_maxin is not null and dlc_maxout is not null and case "
                 "when partner_text like '%cm/2%' or partner_text like '%os/2%' then dlc_maxin <> 2 or dlc_maxout <> 2 "
                 "else dlc_maxin < 8 or dlc_maxout < 8 end"},
    '000-R34': {
        'needs': ['maxlenru'], 'value': 'maxlenru', 'limit': 'null', 'fired': "maxlenru_text <> '*calc'"},
    '000-R35': {
        'needs': ['inpacing', 'outpacing'], 'value': 'inpacing', 'limit': '7',
        'fired': 'inpacing <> 7 or outpacing <> 7'},
    '000-R39': {
        'needs': ['lind_maxframe', 'ctld_maxframe'], 'value': 'lind_maxframe', 'limit': 'ctld_maxframe',
        'fired': 'lind_maxframe_text <> ctld_maxframe_text'},
    '000-R40': {
        'needs': ['lanmaxout', 'lanackfrq'], 'value': 'lanmaxout', 'limit': 'lanackfrq',
        'fired': "not ((lanmaxout_text in ('*calc', '2') and lanackfrq_text in ('*calc', '1')) "
                 "or (lanmaxout_text = '4' and lanackfrq_text = '2'))"},
    '000-R53': {
        'needs': ['rusizes'], 'reads': ['mode_name'], 'value': ru_first, 'limit': '65536',
        'fired': rusizes_valid ~ ' and ' ~ bulk ~ " and substr(rusizes_text, 3, 4) <> '8d8d'"},
    '000-rusizes-symmetric': {
        'needs': ['rusizes'], 'value': ru_first, 'limit': ru_second,
        'fired': 'not ' ~ rusizes_valid ~ ' or substr(rusizes_text, 3, 2) <> substr(rusizes_text, 5, 2)'},
    '003-VT-TP-05': {
        'needs': ['rusizes'], 'reads': ['mode_name'], 'value': 'least(' ~ ru_first ~ ', ' ~ ru_second ~ ')', 'limit': '4096',
        'fired': rusizes_valid ~ ' and ' ~ bulk ~ ' and least(' ~ ru_first ~ ', ' ~ ru_second ~ ') <= 4096'},
    '002-R17': dlc_timers,
    '002-R15': {
        'needs': ['receive_window_count', 'transmit_window_count'], 'platform': 'csaix',
        'value': 'receive_window_count', 'limit': 'transmit_window_count / 2',
        'fired': 'receive_window_count > transmit_window_count / 2'},
    '002-F14': {
        'needs': ['receive_window_count', 'transmit_window_count'], 'platform': 'csaix',
        'value': 'least(receive_window_count, transmit_window_count)', 'limit': '1',
        'fired': 'least(receive_window_count, transmit_window_count) < 1 '
                 'or greatest(receive_window_count, transmit_window_count) > 127'},
    '002-R16': {
        'needs': ['receive_window_count', 'transmit_window_count'], 'platform': 'csaix',
        'value': 'transmit_window_count', 'limit': '16',
        'fired': 'transmit_window_count < 16 or receive_window_count < 8'},
    '002-R26': csaix_ru_fits_frame,
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
    '000-R13': {
        'needs': ['transmit_window_count', 'receive_window_count'], 'value': 'transmit_window_count',
        'limit': 'receive_window_count', 'fired': 'csaix_node = 0 and transmit_window_count <> receive_window_count'},
    '000-R17': {
        'needs': ['transmit_window_count', 'receive_window_count'], 'reads': ['partner'],
        'value': 'least(transmit_window_count, receive_window_count)', 'limit': 'case when ' ~ cm2_nsdos ~ ' then 2 else 8 end',
        'fired': 'case when ' ~ cm2_nsdos ~ ' then transmit_window_count <> 2 or receive_window_count <> 2 '
                 'else least(transmit_window_count, receive_window_count) < 8 end'},
    '000-R23': {
        'needs': ['ru_size'], 'platform': 'nsdos', 'value': 'ru_size', 'limit': 'null',
        'fired': "substr(coalesce(ru_size_text, ''), 1, 1) <> '*'"},
    '000-R26': {
        'needs': ['dlc_window_count', 'partner'], 'value': 'dlc_window_count', 'limit': '2',
        'fired': "partner_text like '%dos%' and dlc_window_count <> 2"},
    '000-R27': {
        'needs': ['transmit_window_count', 'receive_window_count'], 'platform': 'sna6000',
        'value': 'least(transmit_window_count, receive_window_count)', 'limit': '127',
        'fired': 'least(transmit_window_count, receive_window_count) < 127'},
    '000-R30': {
        'needs': ['ru_size'], 'platform': 'sna6000', 'value': 'ru_size', 'limit': '3840', 'fired': 'ru_size < 3840'},
    '000-R51': {
        'needs': ['t2timer', 'network_type'], 'value': t2timer_window, 'limit': '16',
        'fired': "network_type_text like '%subarea%' and " ~ t2timer_window ~ ' < 16'},
    '000-R59': {
        'needs': ['appl_modetab', 'pu_modetab'], 'value': 'null', 'limit': 'null',
        'fired': 'appl_modetab_text <> pu_modetab_text'},
    '000-F12': {
        'needs': ['iobuf', 'unitsz'], 'reads': ['maxdata', 'maxtsl'], 'value': 'iobuf', 'limit': 'unitsz',
        'fired': 'iobuf is not null and unitsz is not null and (iobuf <> unitsz or unitsz <> 4000 '
                 'or coalesce(maxdata < maxtsl, false))'},
    '002-R29': {
        'needs': ['cuaddr'], 'reads': ['delay', 'maxbfru', 'pacing', 'vpacing'], 'value': 'coalesce(maxbfru, 1)', 'limit': '1',
        'fired': 'coalesce(delay, 0) > 0 or coalesce(maxbfru, 1) = 1 or coalesce(pacing, 1) = 1 or coalesce(vpacing, 1) = 1'},
    '000-R61': {
        'needs': ['dlc_frame_size', 'partner'], 'platform': 'nsdos', 'value': 'dlc_frame_size', 'limit': '16393',
        'fired': "(partner_text like '%os/2%' or partner_text like '%cm/2%') and dlc_frame_size < 16393"},
    '004-aR9': {
        'needs': ['max_segment', 'link_mtu'], 'value': 'max_segment', 'limit': 'link_mtu - 40',
        'fired': 'max_segment > link_mtu - 40'},
    '004-aR12': {
        'needs': ['debug'], 'reads': ['diagnose', 'record'], 'value': 'null', 'limit': 'null',
        'fired': debug_on ~ " or coalesce(diagnose_text, 'off') <> 'off' or " ~ record_on},
    '004-aR13': {
        'needs': ['telnetd_buffers'], 'reads': ['telnetd_pool'], 'value': 'telnetd_buffers', 'limit': '0',
        'fired': 'telnetd_buffers > 0 and coalesce(telnetd_pool_text, \'\') not in ' ~ yes},
    '004-aR14': {
        'needs': ['telnetd_buffers', 'telnetd_count'], 'reads': ['telnetd_pool'], 'value': 'telnetd_buffers',
        'limit': 'telnetd_count', 'fired': 'coalesce(telnetd_pool_text, \'\') in ' ~ yes ~ ' and telnetd_buffers > telnetd_count'},
    '004-aR19': {
        'needs': ['exec_ipnet'], 'reads': ['exec_ipnet_dspace'], 'value': 'null', 'limit': 'null',
        'fired': 'exec_ipnet_dspace_text is null'},
    '004-bR4': {'needs': ['debug'], 'value': 'null', 'limit': 'null', 'fired': debug_on},
    '004-bR6': {'needs': ['record'], 'value': 'null', 'limit': 'null', 'fired': record_on},
    '001-aF12': {'needs': ['discarded_before_use', 'too_late'], 'value': 'too_late', 'limit': '0',
                 'fired': 'discarded_before_use > 0 and too_late > 0'},
    '001-aF13': {'needs': ['expedited_request_buffers', 'buffers_used'], 'value': 'buffers_used', 'limit': '20',
                 'fired': 'expedited_request_buffers > 20 and buffers_used <= 20'},
}) }}
{%- endmacro %}

{#- The rules reading a node's parameters against the other nodes' of its listing: config_checks' PEER_CHECKS. Each
    rule: the keys its node needs set, the keys it reads on the listing's other nodes (`peers`), the value and the
    limit it shows and when it fires; peer_max is the largest number another node sets for a peer key (each node's
    first setting). It applies when the node sets its needs and another node a number for a peer key. -#}
{% macro config_peer_rules() -%}
{#- NCP's T2TIMER = (T1, T2, W) coded with T1 = T2 = 1 (seed 000 L886); W is not compared: toward a peripheral
    station NCP uses 2 whatever W is coded (L883) -#}
{%- set t2timer = "replace(replace(t2timer_text, '(', ''), ')', '')" -%}
{%- set t2timer_1_1 = "coalesce(try_cast(split_part(" ~ t2timer ~ ", ',', 1) as double) = 1 and try_cast(split_part("
    ~ t2timer ~ ", ',', 2) as double) = 1 and split_part(" ~ t2timer ~ ", ',', 3) <> '' and split_part(" ~ t2timer
    ~ ", ',', 4) = '', false)" -%}
{#- a peripheral station's DLC send window: config_checks.PERIPHERAL_SEND_WINDOWS -#}
{%- set send_windows = ['transmit_window_count', 'dlc_maxout', 'dlc_window_count'] -%}
{{ return({
    '000-R49': {
        'needs': ['t2timer'], 'peers': send_windows,
        'value': 'peer_max', 'limit': '1', 'fired': 'peer_max > 1 and not ' ~ t2timer_1_1},
}) }}
{%- endmacro %}

{#- A rule's value and limit as rpt_config_findings shows them and whether it fired, from its `value`, `limit` and
    `fired` expressions. -#}
{%- macro config_rule_verdict(rule) -%}
cast({{ rule.value }} as double) as value,
        cast({{ rule.limit }} as double) as limit_value,
        coalesce({{ rule.fired }}, false) as fired
{%- endmacro %}

{#- The rules on each setting of a parameter rather than on a node's parameters: every pacing window
    (000-pacing-window-8) and each adapter queue (002-adapter-queues-150, 002-F20). -#}
{% macro config_setting_rules() -%}
{#- seed 002's adapter queues, stated as a rule (R19) and again as F20 -#}
{%- set adapter_queues = {'keys': ['adapter_transmit_queue', 'adapter_receive_queue'], 'every': false,
                          'limit': '150', 'fired': 'value < 150'} -%}
{{ return({
    '000-pacing-window-8': {'keys': ['pacing_window', 'mode_send_pacing'], 'every': true, 'limit': '8',
                            'fired': 'value > 0 and value < 8'},
    '002-adapter-queues-150': adapter_queues,
    '002-F20': adapter_queues,
}) }}
{%- endmacro %}

{#- A platform's own names for its parameters: config_checks' PLATFORM_PARAMETERS (ingest/formats/listings/
    settings.py; tests/listings/test_rules_004_002.py keeps the two alike). A node that spells one of them so runs
    that platform, the only one a rule with that `platform` judges. -#}
{% macro platform_parameters() -%}
    {{ return({
        'csaix': ['max_ifrm_rcvd', 'target_pacing_count', 'max_ifield', 'max_ru_size', 'max_rcv_pac_win',
                  'max_send_pac_win', 'ack_timeout', 't1_timeout'],
        'sna6000': ['dlc transmit count', 'dlc receive count', 'mode send pacing', 'mode receive pacing'],
        'nsdos': ['dlc maxin', 'dlc maxout', 'ru receive pacing', 'session receive pacing window'],
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

{#- RUSIZES X'mEmE' in a column rusizes_text (lower case, blanks removed): valid when each byte's mantissa is 8-F
    and exponent 0-F (sizing.decode_rusizes); a byte's RU = mantissa x 2**exponent (seed 000 L904-L906). -#}
{% macro rusizes_bytes() -%}
{%- set hex = "'0123456789abcdef'" -%}
{{ return({
    'valid': "(length(rusizes_text) = 7 and substr(rusizes_text, 1, 1) = 'x' "
        ~ "and instr('89abcdef', substr(rusizes_text, 3, 1)) > 0 and instr(" ~ hex ~ ", substr(rusizes_text, 4, 1)) > 0 "
        ~ "and instr('89abcdef', substr(rusizes_text, 5, 1)) > 0 and instr(" ~ hex ~ ", substr(rusizes_text, 6, 1)) > 0)",
    'first': "(instr(" ~ hex ~ ", substr(rusizes_text, 3, 1)) - 1) * power(2, instr(" ~ hex ~ ", substr(rusizes_text, 4, 1)) - 1)",
    'second': "(instr(" ~ hex ~ ", substr(rusizes_text, 5, 1)) - 1) * power(2, instr(" ~ hex ~ ", substr(rusizes_text, 6, 1)) - 1)",
}) }}
{%- endmacro %}

{#- Every setting of the listings loaded, its value's text in lower case without blanks and its rank among its
    node's settings of the same parameter (nth = 1: the one the rules read), for the rules judged across listings
    (rpt_mode_consistency, rpt_link_stations). -#}
{% macro ranked_listing_settings() -%}
    select
        source_file_id,
        node,
        parameter_key,
        value,
        replace(lower(trim(value_text)), ' ', '') as value_text,
        row_number() over (partition by source_file_id, node, parameter_key order by line_number) as nth
    from {{ ref('stg_listings__parameters') }}
{%- endmacro %}
