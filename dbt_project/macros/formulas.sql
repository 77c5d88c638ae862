{#-
    The documents' formulas that rpt_formula_results computes, one entry per formula: its name (the
    seed reference_formula_inputs' formula), the rows of the rules catalogue it evaluates (variants of
    one computation share a row: the 3172 VTAM cycles' U_o, U_i, U_r and their sums are 003-F4.1), its
    words, its result's unit, its inputs and its expression over them (the inputs are columns of that
    name, doubles). Every number of a worked example is an input row of the seed; a number written here
    is part of the formula as the document prints it (the 3172 formula's instruction counts, the 40
    bytes of headers are an input). The Python twins in ingest/capacity/sizing.py are compared with
    these on the seed's inputs by tests/warehouse/test_formulas.py.
-#}
{% macro formula_definitions() %}
    {%- set u_o = "l_o * (1706 + 1585 + 26 * n_o) / m * 100" %}
    {%- set u_i = "l_i * (2116 + 763 + 7 * n_i) / m * 100" %}
    {%- set u_r = "l_r * (2116 + 1706 + 5800 + 26 * n_ro + 7 * n_ri) / m * 100" %}
    {%- set overhead_mips = "transactions_per_s * overhead_ki / 1000.0 * tv_ratio" %}
    {%- set vtam = ['l_o', 'n_o', 'l_i', 'n_i', 'm'] %}
    {%- set routed = ['l_r', 'n_ro', 'n_ri'] %}
    {%- set tn3270 = ['transactions_per_s', 'overhead_ki', 'tv_ratio'] %}
    {#- seed 000's APPC sizing, seed 003's IOBUF packing and the other formulas of one rule each (seeds 001, 002,
        004): (formula, rule, unit, words, inputs, expression) -#}
    {%- set one_rule_formulas = [] %}
    {%- for name, rule_id, unit, words, inputs, expression in [
        ('effective_throughput_mbit_s', '000-F4', 'Mbit/s', 'effective throughput = transactions/s x bytes per '
         'transaction x 8 / 10**6 (Appendix B)', 'transactions_per_s bytes_per_transaction',
         'transactions_per_s * bytes_per_transaction * 8 / 1000000.0'),
        ('receiver_buffer_bytes', '000-F5', 'bytes', 'a data receiver holds a whole pacing window: RU size x receive '
         'pacing window (L326)', 'ru_size receive_window', 'ru_size * receive_window'),
        ('ru_in_one_frame', '000-F6', 'bytes', 'the RU that fits in one DLC frame = frame size - link header and '
         'trailer (L306, L450)', 'frame_bytes header_bytes', 'frame_bytes - header_bytes'),
        ('frame_for_ru', '000-F7', 'bytes', 'the DLC frame one RU needs unsegmented = RU + SNA header (9 bytes APPN, '
         '29 subarea; L310-L312, L496)', 'ru_size header_bytes', 'ru_size + header_bytes'),
        ('ncp_maxbfru', '000-F9', 'buffers', 'MAXBFRU = largest PIU / UNITSZ rounded up, + 1 if sessions fail '
         '(L789-L794)', 'piu_bytes unitsz extra_buffers', 'ceil(piu_bytes / unitsz) + extra_buffers'),
        ('ncp_buffer_chain_bytes', '000-F10', 'bytes', 'the middle of MAXDATA > UNITSZ x MAXBFRU > PIU size: the NCP '
         'buffers one RU takes (L798)', 'unitsz maxbfru', 'unitsz * maxbfru'),
        ('aix_buffer_kb', '000-F16', 'KB', 'SNA Services/6000 buffer memory = count x size (clusters of 4 KB, mbufs of '
         '256 bytes; thewall in KB; L679-L693)', 'buffers buffer_bytes', 'buffers * buffer_bytes / 1024.0'),
        ('ncp_ack_window', '000-F14', 'frames', 'the window NCP acknowledges by: W of T2TIMER = (T1, T2, W) on a subarea '
         'link; on a peripheral link 2 when T2TIMER is coded, else 1 (L877-L882)', 'subarea w t2timer_coded',
         'subarea * w + (1 - subarea) * (1 + t2timer_coded)'),
        ('ncp_slowdown', '000-F13', 'flag', 'NCP enters slow down (1) when the share of its memory free for new data is '
         'at or below SLODOWN % (L817)', 'slodown free_pct', 'case when free_pct <= slodown then 1 else 0 end'),
        ('pacing_responses', '000-F15', 'pacing responses', 'fixed pacing: one pacing response per window of RUs, so '
         'RUs / window whole windows; a sender stops at its send window until the response comes (L361-L364)',
         'rus window_rus', 'floor(rus / window_rus)'),
        ('iobuf_nlp_room_bytes', '003-F4.5', 'bytes', 'room left for the HPR header when two IOBUFs share one NLP = '
         'NLP size - 2 x IOBUF (L632-L637)', 'nlp_bytes iobuf_bytes', 'nlp_bytes - 2 * iobuf_bytes'),
        ('tcp_payload_bytes', '004-aF3', 'bytes', 'largest unfragmented TCP payload = MSS + 40 - (size of TCP + IP headers)',
         'mss header_bytes', 'mss + 40 - header_bytes'),
        ('effective_mss_bytes', '004-aF4', 'bytes', 'MSS per direction = MIN(the MSS of the other system, the MTU of the route - 40)',
         'partner_mss route_mtu', 'least(partner_mss, route_mtu - 40)'),
        ('fragment_offset_bytes', '004-aF6', 'bytes', "a fragment carries MTU - 20 bytes of IP header: the next fragment's offset",
         'mtu ip_header_bytes', 'mtu - ip_header_bytes'),
        ('window_throughput_kb_s', '004-aF8', 'KB/s', 'throughput <= window size of the receiver / round trip time (KB = 1000 bytes)',
         'window_bytes rtt_ms', 'window_bytes / rtt_ms'),
        ('ibblock_bytes', '004-aF9', 'bytes', 'IBBLOCK (inbound buffer block) = 256 + IP datagram size; WINDOW_DEPTH of them queue inbound',
         'ip_datagram_bytes window_depth', 'window_depth * (256 + ip_datagram_bytes)'),
        ('slow_start_segments', '004-aF11', 'segments', 'clean outbound segments until s segments go before an ACK: SLOW_START x (s - 2) / SLOW_INCREMENT (a connection starts with 2)',
         'slow_start slow_increment segments_per_ack', 'slow_start * (segments_per_ack - 2) / slow_increment'),
        ('sws_restart_bytes', '004-aF12', 'bytes', 'restart after a zero window when the advertised window > 80% of max_window + ADDTL_WINDOW',
         'max_window additional_window', '0.8 * max_window + additional_window'),
        ('ftp_buffer_kb', '004-aF14', 'KB', "FTP transfer buffers of 32K: the pool = TRANSFER_BUFFERS x 32K, a daemon's limit = MAX_BUFFERS x 32K",
         'buffers buffer_kb', 'buffers * buffer_kb'),
        ('depth_mode_hysteresis_segments', '004-aF10', 'segments', 'DEPTH MODE is entered when the data segments '
         'queued inbound exceed WINDOW_DEPTH and left when fewer than WINDOW_RESTART: the segments the queue drains by '
         'before the window reopens', 'window_depth window_restart', 'window_depth - window_restart'),
        ('vse_partition_mb', '004-aF15', 'MB', 'TCP/IP partition from Service Pack J: start with 20M, add 3M on top for NFS',
         'base_mb nfs_mb nfs', 'base_mb + nfs_mb * nfs'),
        ('cics_transactions_observed', '004-aF16', 'transactions', 'CICS transactions with TELNET = business transactions + 2 per message pair (1 CICS-txn in, 1 out)',
         'business_transactions message_pairs', 'business_transactions + 2 * message_pairs'),
        ('offload_cpu_pct', '004-aF17', '%', 'S/390 CPU with 3172 Offload = CPU without x (1 - reduction)',
         'cpu_pct reduction', 'cpu_pct * (1 - reduction)'),
        ('edr_bottleneck_ratio', '004-bF4.6', 'ratio', 'EDR of the file I/O / EDR of the transfer (KB/sec as the FTP display prints them): about 1 disk-bound, far above 1 network- or CPU-bound',
         'file_io_kb_s transfer_kb_s', 'file_io_kb_s / transfer_kb_s'),
        ('power_dblk_bytes', '004-bR35', 'bytes', 'POWER DBLK size of about tracksize / 2',
         'track_bytes', 'track_bytes / 2'),
        ('nfs_request_blocks_bytes', '004-bR36', 'bytes', 'NFS request blocks = MAXREQUESTS x about 160 bytes',
         'max_requests block_bytes', 'max_requests * block_bytes'),
        ('paging_space_kb', '002-F2', 'KB', 'paging space = memory x 2',
         'memory_kb factor', 'memory_kb * factor'),
        ('tp_allowance_kb', '002-F3', 'KB', 'TP memory (and paging space) = 100 KB x TPs when their sizes are unknown',
         'tps per_tp_kb', 'tps * per_tp_kb'),
        ('appn_isr_memory_kb', '002-F4', 'KB', 'APPN network node ISR memory = 4 MB x adapters + 1 KB x ISR sessions + 4 KB x end nodes served',
         'adapters adapter_kb sessions session_kb end_nodes end_node_kb', 'adapters * adapter_kb + sessions * session_kb + end_nodes * end_node_kb'),
        ('segment_ru_bytes', '002-F16', 'bytes', 'a good RU size = I x (FRAME size - LT - LH - TH - RH), I an integer (I = 1: no segmenting)',
         'i frame_bytes header_bytes', 'i * (frame_bytes - header_bytes)'),
        ('coattail_multiple', '002-F21', 'ratio', "IOBUF x MAXBFRU over the RS/6000's maximum RU: to be 1 or a whole multiple",
         'iobuf maxbfru ru_bytes', 'iobuf * maxbfru / ru_bytes'),
        ('writes_per_block_split', '001-bF21', 'ratio', 'block-split health = WRITES (FILE) / BLOCK SPLITS (DISCOPEN), the higher the better',
         'writes block_splits', 'writes / block_splits'),
        ('pool_yes_overhead_ms', '004-bR14', 'ms', 'TN3270 overhead with POOL=YES = overhead with POOL=NO x (1 + 5 to 7 %)',
         'overhead_ms increase', 'overhead_ms * (1 + increase)'),
        ('terminal_sva_kb', '004-bR22', 'KB', 'SVA-31 per terminal with VTAM EAS=1 = 3.0K (EAS default) - the 2.4K EAS=1 saves',
         'default_kb saved_kb', 'default_kb - saved_kb'),
        ('dfw_edr_kb_s', '004-bR27', 'KB/s', 'FTP EDR with DASD fast write = EDR on a non-write-cached 9345 x 1.30',
         'edr_kb_s increase', 'edr_kb_s * (1 + increase)'),
        ('ftpbatch_edr_kb_s', '004-bR29', 'KB/s', 'single FTPBatch EDR = Batch FTP EDR x (1 - 15 %)',
         'edr_kb_s reduction', 'edr_kb_s * (1 - reduction)'),
        ('many_members_cpu_s', '004-bR32', 's', 'CPU time for 10 x 1M members instead of 1 x 10M = CPU time x (1 + up to 5 %)',
         'cpu_s increase', 'cpu_s * (1 + increase)'),
        ('cycles_per_instruction', '001-aF31', 'cycles', 'total cycles per instruction = cycles with 100 % hits + '
         'cache-miss penalty + PTC-miss penalty + pauses (Table 2)', 'base_cpi cache_miss_penalty ptc_miss_penalty pauses',
         'base_cpi + cache_miss_penalty + ptc_miss_penalty + pauses'),
        ('cache_miss_penalty_cycles', '001-aF31', 'cycles', 'cache-miss penalty per instruction = (data reads x data '
         'miss rate + code reads x code miss rate) x cache miss time (Table 2)',
         'data_reads data_hit_pct code_reads code_hit_pct miss_cycles',
         '(data_reads * (100 - data_hit_pct) + code_reads * (100 - code_hit_pct)) / 100 * miss_cycles'),
        ('first_merge_runs', '001-aF23', 'runs', 'runs the first merge takes so that one more merge of a full '
         'tournament finishes = runs - tournament + 1', 'runs tournament', 'runs - tournament + 1'),
        ('tandem_timestamp_48', '001-bF9', 'TIMESTAMP-TIME units', 'Julian microseconds to the 48-bit timestamp '
         'TIMESTAMP-TIME reads: ((JTS - 211024440000000000) / 10000) x 65536', 'jts',
         '(jts - 211024440000000000) / 10000 * 65536'),
    ] %}
    {%- do one_rule_formulas.append({'formula': name, 'rule_ids': [rule_id], 'unit': unit, 'words': words,
                               'inputs': inputs.split(' '), 'expression': expression}) %}
    {%- endfor %}
    {{ return([
        {'formula': 'vtam_3172_outbound_bnn', 'rule_ids': ['003-F4.1'], 'unit': '%',
         'words': 'U_o = L_o x (1706 + 1585 + 26 x N_o) / M x 100 % (BNN outbound)',
         'inputs': ['l_o', 'n_o', 'm'], 'expression': u_o},
        {'formula': 'vtam_3172_inbound_bnn', 'rule_ids': ['003-F4.1'], 'unit': '%',
         'words': 'U_i = L_i x (2116 + 763 + 7 x N_i) / M x 100 % (BNN inbound)',
         'inputs': ['l_i', 'n_i', 'm'], 'expression': u_i},
        {'formula': 'vtam_3172_bnn', 'rule_ids': ['003-F4.1'], 'unit': '%',
         'words': 'U_o + U_i: the increase in processor utilization for VTAM cycles (BNN)',
         'inputs': vtam, 'expression': u_o ~ ' + ' ~ u_i},
        {'formula': 'vtam_3172_routed_appn', 'rule_ids': ['003-F4.1'], 'unit': '%',
         'words': 'U_r = L_r x (2116 + 1706 + 5800 + 26 x n_o + 7 x N_i) / M x 100 % (APPN routed)',
         'inputs': routed + ['m'], 'expression': u_r},
        {'formula': 'vtam_3172_total', 'rule_ids': ['003-F4.1'], 'unit': '%',
         'words': 'U_o + U_i + U_r: the total increase in CPU utilization for VTAM cycles',
         'inputs': vtam + routed, 'expression': u_o ~ ' + ' ~ u_i ~ ' + ' ~ u_r},
        {'formula': 'vtam_3172_projected', 'rule_ids': ['003-F4.1'], 'unit': '%',
         'words': 'busy % with the 3172 = busy % before + U_o + U_i + U_r',
         'inputs': ['base_pct'] + vtam + routed, 'expression': 'base_pct + ' ~ u_o ~ ' + ' ~ u_i ~ ' + ' ~ u_r},
        {'formula': 'ecsa_v4r4_kb', 'rule_ids': ['003-F4.6', '003-VT-ST-03'], 'unit': 'KB',
         'words': 'ECSA = 1.6 MB of modules + per-session K x MNPS sessions + 3K default buffers + 120K TIBUF if MPC+',
         'inputs': ['modules_kb', 'per_session_kb', 'sessions', 'default_buffers_kb', 'tibuf_kb', 'mpc_plus'],
         'expression': 'modules_kb + per_session_kb * sessions + default_buffers_kb + tibuf_kb * mpc_plus'},
        {'formula': 'tn3270_pathlength_ki', 'rule_ids': ['004-bF4.2'], 'unit': 'KI',
         'words': 'pathlength = utilization x MIPS / txn per s (KI per transaction)',
         'inputs': ['utilization', 'mips', 'transactions_per_s'],
         'expression': 'utilization * mips * 1000.0 / transactions_per_s'},
        {'formula': 'tn3270_overhead_mips', 'rule_ids': ['004-bF4.4', '004-bR12'], 'unit': 'MIPS',
         'words': 'TCP/IP overhead = txn per s x KI per txn / 1000 x T/V ratio',
         'inputs': tn3270, 'expression': overhead_mips},
        {'formula': 'tn3270_overhead_pct', 'rule_ids': ['004-bF4.4'], 'unit': '%',
         'words': 'overhead utilization = overhead MIPS / processor MIPS',
         'inputs': tn3270 + ['mips'], 'expression': '(' ~ overhead_mips ~ ') / mips * 100'},
        {'formula': 'tn3270_online_pct', 'rule_ids': ['004-bF4.4'], 'unit': '%',
         'words': 'online utilization with TN3270 = online % + overhead MIPS / processor MIPS',
         'inputs': ['online_pct'] + tn3270 + ['mips'], 'expression': 'online_pct + (' ~ overhead_mips ~ ') / mips * 100'},
        {'formula': 'itrr_by_pathlength', 'rule_ids': ['004-bF4.3'], 'unit': 'ratio',
         'words': 'ITRR = P / (P + O), O = TCP/IP overhead KI per txn',
         'inputs': ['pathlength_ki', 'overhead_ki'], 'expression': 'pathlength_ki / (pathlength_ki + overhead_ki)'},
        {'formula': 'rel_cput_by_pathlength', 'rule_ids': ['004-bF4.3'], 'unit': 'ratio',
         'words': 'relative CPU time with TCP/IP = (P + O) / P',
         'inputs': ['pathlength_ki', 'overhead_ki'], 'expression': '(pathlength_ki + overhead_ki) / pathlength_ki'},
        {'formula': 'tn3270_delta_ms', 'rule_ids': ['004-bF4.1'], 'unit': 'ms',
         'words': 'Delta/txn = msec/txn (TCP/IP) - msec/txn (VTAM)',
         'inputs': ['tcpip_ms_per_txn', 'vtam_ms_per_txn'], 'expression': 'tcpip_ms_per_txn - vtam_ms_per_txn'},
        {'formula': 'itrr_by_cpu_time', 'rule_ids': ['004-bF4.1'], 'unit': 'ratio',
         'words': 'ITRR = msec/txn (VTAM) / msec/txn (TCP/IP)',
         'inputs': ['tcpip_ms_per_txn', 'vtam_ms_per_txn'], 'expression': 'vtam_ms_per_txn / tcpip_ms_per_txn'},
        {'formula': 'ftp_cpu_utilization', 'rule_ids': ['004-bF4.5', '004-bR23'], 'unit': 'fraction',
         'words': "CPU utiliz. = 'KI per KB' x EDR / KIPS of 1 engine",
         'inputs': ['ki_per_kb', 'kb_per_s', 'kips'], 'expression': 'ki_per_kb * kb_per_s / kips'},
        {'formula': 'ftp_mips_per_100_kb_s', 'rule_ids': ['004-bR24'], 'unit': 'MIPS',
         'words': 'MIPS per 100 KB/s = KI per KB x 100 / 1000',
         'inputs': ['ki_per_kb'], 'expression': 'ki_per_kb * 100 / 1000.0'},
        {'formula': 'telnetd_buffers', 'rule_ids': ['004-bR18'], 'unit': 'buffers',
         'words': 'TELNETD_BUFFERS = 1.5 x txn per s',
         'inputs': ['buffer_factor', 'transactions_per_s'], 'expression': 'buffer_factor * transactions_per_s'},
        {'formula': 'telnet_getvis_per_100_terminals_kb', 'rule_ids': ['004-bF4.7', '004-bR20'], 'unit': 'KB',
         'words': 'GD + GS = terminals x daemon K + txn per s x 1.5 x 2 x 8K + 1K per terminal',
         'inputs': ['terminals', 'daemon_kb', 'transactions_per_s', 'buffer_factor', 'buffer_kb', 'shared_kb'],
         'expression': 'terminals * daemon_kb + transactions_per_s * buffer_factor * buffer_kb + shared_kb'},
        {'formula': 'telnet_hundreds_of_terminals', 'rule_ids': ['004-bF4.7'], 'unit': 'hundreds of terminals',
         'words': 'terminals / 100 = available GD + GS / (GD + GS per 100 terminals)',
         'inputs': ['available_kb', 'per_100_terminals_kb'], 'expression': 'available_kb / per_100_terminals_kb'},
        {'formula': 'max_tn_daemons', 'rule_ids': ['004-bF4.7', '004-bR19'], 'unit': 'daemons',
         'words': 'max TN daemons = remaining GETVIS-24 / 4K',
         'inputs': ['remaining_kb', 'daemon_kb'], 'expression': 'floor(remaining_kb / daemon_kb)'},
        {'formula': 'telnet_buffer_kb', 'rule_ids': ['004-aF13'], 'unit': 'KB',
         'words': 'Telnet buffer GETVIS = buffers (POOL=NO: daemons; POOL=YES: TELNETD_BUFFERS) x 2 x 8K',
         'inputs': ['buffers', 'directions', 'buffer_kb'], 'expression': 'buffers * directions * buffer_kb'},
        {'formula': 'frame_from_max_segment', 'rule_ids': ['004-aF5', '004-aF2'], 'unit': 'bytes',
         'words': 'frame = MAX_SEGMENT + 40 (MSS = MTU - 40: 20 bytes of IP and 20 of TCP header)',
         'inputs': ['max_segment', 'header_bytes'], 'expression': 'max_segment + header_bytes'},
        {'formula': 'bdp_window_kb', 'rule_ids': ['004-aF7'], 'unit': 'KB',
         'words': 'window >= bandwidth x RTT: KB = MB/s (Mbit/s / 8) x PING ms',
         'inputs': ['link_mbit_per_s', 'rtt_ms'], 'expression': 'link_mbit_per_s / 8.0 * rtt_ms'},
        {'formula': 'vse_timer_s', 'rule_ids': ['004-aF1'], 'unit': 's',
         'words': 'TCP/IP for VSE timer values are in multiples of 1/300 sec: seconds = value / 300',
         'inputs': ['ticks', 'ticks_per_s'], 'expression': 'ticks / ticks_per_s'},
        {'formula': 'vse_task_dispatches', 'rule_ids': ['004-aF18'], 'unit': 'dispatches',
         'words': 'SET RECORD=ON task line: Di = Ac + Fx + Qu + Pr + Co + Pa (scans of each queue, complete scans, '
                  'control passed)',
         'inputs': ['ac', 'fx', 'qu', 'pr', 'co', 'pa'], 'expression': 'ac + fx + qu + pr + co + pa'},
        {'formula': 'best_receive_window', 'rule_ids': ['002-F12'], 'unit': 'frames',
         'words': 'Receive window count = Transmit window count / 2',
         'inputs': ['transmit_window'], 'expression': 'transmit_window / 2.0'},
        {'formula': 'repoll_timer_s', 'rule_ids': ['002-F15'], 'unit': 's',
         'words': 'primary repoll / inactivity time-out > 2 x Y / X (Y frame bits, X link bit/s)',
         'inputs': ['frame_bytes', 'link_bits_per_s'], 'expression': '2 * frame_bytes * 8 / link_bits_per_s'},
        {'formula': 'data_rate_kb_s', 'rule_ids': ['002-F18'], 'unit': 'KB/s',
         'words': 'data rate = file KB / elapsed s (1 MB = 1024 KB)',
         'inputs': ['file_kb', 'elapsed_s'], 'expression': 'file_kb / elapsed_s'},
        {'formula': 'csaix_control_block_limit_mb', 'rule_ids': ['002-F5'], 'unit': 'MB',
         'words': 'CS/AIX kernel control blocks at most 50 % of RAM',
         'inputs': ['ram_mb', 'control_block_share'], 'expression': 'ram_mb * control_block_share'},
        {'formula': 'csaix_streams_limit_mb', 'rule_ids': ['002-F5'], 'unit': 'MB',
         'words': 'CS/AIX STREAMS buffers at most 25 % of RAM',
         'inputs': ['ram_mb', 'streams_share'], 'expression': 'ram_mb * streams_share'},
        {'formula': 'thewall_mb', 'rule_ids': ['002-F6'], 'unit': 'MB',
         'words': 'thewall = 25 % of memory (channel attachment)',
         'inputs': ['ram_mb', 'thewall_share'], 'expression': 'ram_mb * thewall_share'},
        {'formula': 'cpu_power_ratio', 'rule_ids': ['001-aF6'], 'unit': 'ratio',
         'words': 'CPU power ratio = instruction speed-up x software path factor',
         'inputs': ['instruction_speedup', 'software_path_factor'], 'expression': 'instruction_speedup * software_path_factor'},
        {'formula': 'message_system_gain_pct', 'rule_ids': ['001-aF7'], 'unit': '%',
         'words': 'system gain = Message System speed-up gain x its share of the CPU',
         'inputs': ['message_system_gain', 'message_system_share'],
         'expression': 'message_system_gain * message_system_share * 100'},
        {'formula': 'queue_allowance', 'rule_ids': ['001-aF5'], 'unit': 'transactions',
         'words': 'allowed queue ahead = (R - S) / S, S = service ms / speed-up',
         'inputs': ['response_ms', 'service_ms', 'speedup'],
         'expression': '(response_ms - service_ms / speedup) / (service_ms / speedup)'},
        {'formula': 'tps_per_cpu', 'rule_ids': ['001-bF11'], 'unit': 'tx/s',
         'words': 'throughput per CPU at utilization U = U x 1000 ms / CPU ms per transaction',
         'inputs': ['utilization', 'cpu_ms_per_transaction'], 'expression': 'utilization * 1000.0 / cpu_ms_per_transaction'},
        {'formula': 'tps_per_cpu_of_test', 'rule_ids': ['001-bF12'], 'unit': 'tx/s',
         'words': 'throughput per CPU = transactions / period / CPUs',
         'inputs': ['transactions', 'period_s', 'cpus'], 'expression': 'transactions / period_s / cpus'},
        {'formula': 'component_saving_pct', 'rule_ids': ['001-bF13'], 'unit': '%',
         'words': "a component's saving as a share of the transaction = (before - after) / total",
         'inputs': ['component_before', 'component_after', 'total'],
         'expression': '(component_before - component_after) / total * 100'},
        {'formula': 'relative_change_pct', 'rule_ids': ['000-F2', '001-bF14', '001-bF15', '001-bF16'], 'unit': '%',
         'words': 'change = (new - old) / old (a reduction is negative)',
         'inputs': ['old_value', 'new_value'], 'expression': '(new_value - old_value) / old_value * 100'},
        {'formula': 'cost_ratio', 'rule_ids': ['001-bF17'], 'unit': 'ratio',
         'words': 'cost ratio = CPU ms of one transaction / CPU ms of the other',
         'inputs': ['numerator', 'denominator'], 'expression': 'numerator / denominator'},
        {'formula': 'comm_transaction_rate', 'rule_ids': ['001-aF27'], 'unit': 'tx/s',
         'words': 'transaction rate = terminals x transactions per terminal / elapsed s',
         'inputs': ['terminals', 'transactions_per_terminal', 'elapsed_s'],
         'expression': 'terminals * transactions_per_terminal / elapsed_s'},
        {'formula': 'line_handler_cpu_ms_per_transaction', 'rule_ids': ['001-aF28'], 'unit': 'ms',
         'words': 'CPU ms per transaction = line-handler CPU BUSY (ms per s) / transactions per s',
         'inputs': ['cpu_busy_ms_per_s', 'transactions_per_s'], 'expression': 'cpu_busy_ms_per_s / transactions_per_s'},
        {'formula': 'elapsed_s', 'rule_ids': ['001-aF29'], 'unit': 's',
         'words': 'elapsed = time last terminal stopped - time first terminal started',
         'inputs': ['first_started_s', 'last_stopped_s'], 'expression': 'last_stopped_s - first_started_s'},
        {'formula': 'improvement_factor_product', 'rule_ids': ['001-aF1'], 'unit': 'factor', 'words': 'total improvement = the product of the improvement factors (one not given is 1)', 'inputs': ['factor_1', 'factor_2', 'factor_3', 'factor_4', 'factor_5'], 'expression': 'factor_1 * factor_2 * coalesce(factor_3, 1) * coalesce(factor_4, 1) * coalesce(factor_5, 1)'},
        {'formula': 'bottleneck_tps', 'rule_ids': ['001-aF3'], 'unit': 'tx/s', 'words': 'maximum throughput = 1000 ms / the ms per transaction of the busiest resource', 'inputs': ['cpu_ms', 'disc_ms'], 'expression': '1000.0 / greatest(cpu_ms, disc_ms)'},
        {'formula': 'double_multiplier', 'rule_ids': ['001-aF4'], 'unit': 'ratio', 'words': 'VLX / TXP throughput = (1 - VLX idle) / (1 - TXP idle) x VLX performance', 'inputs': ['vlx_busy_pct', 'txp_busy_pct', 'vlx_performance'], 'expression': 'vlx_busy_pct / txp_busy_pct * vlx_performance'},
        {'formula': 'serial_sort_time_s', 'rule_ids': ['001-aF20'], 'unit': 's', 'words': 'sort time = N records / the sorting rate (Fig. 5)', 'inputs': ['records', 'records_per_s'], 'expression': 'records / records_per_s'},
        {'formula': 'two_pass_sort_memory_mb', 'rule_ids': ['001-aF18'], 'unit': 'MB', 'words': 'memory for a two-pass sort = sqrt(file size x block size / 2)', 'inputs': ['file_bytes', 'block_bytes'], 'expression': 'sqrt(file_bytes * block_bytes / 2) / 1000000'},
        {'formula': 'rate_improvement_pct', 'rule_ids': ['001-aF32'], 'unit': '%', 'words': 'improvement = new rate / old rate - 1', 'inputs': ['old_rate', 'new_rate'], 'expression': '(new_rate / old_rate - 1) * 100'},
        {'formula': 'elapsed_improvement_pct', 'rule_ids': ['001-aF32'], 'unit': '%', 'words': 'improvement = old elapsed time / new elapsed time - 1', 'inputs': ['old_s', 'new_s'], 'expression': '(old_s / new_s - 1) * 100'},
        {'formula': 'readlink_cache_bytes', 'rule_ids': ['001-aF11'], 'unit': 'bytes', 'words': 'READLINK cache memory = buffers x buffer length (at most 131,072 bytes)', 'inputs': ['buffers', 'buffer_bytes'], 'expression': 'buffers * buffer_bytes'},
        {'formula': 'averaged_message_cpu_ms', 'rule_ids': ['001-aF9', '001-aF10'], 'unit': 'ms', 'words': 'averaged CPU cost per message = (C0 + C64 + C128 + C256 + C512) / 5, C(X) = a X + b of Table 1', 'inputs': ['slope_ms_per_byte', 'intercept_ms'], 'expression': '(5 * intercept_ms + slope_ms_per_byte * (0 + 64 + 128 + 256 + 512)) / 5'},
        {'formula': 'tournament_records', 'rule_ids': ['001-aF25'], 'unit': 'records',
         'words': 'a tournament tree of height h holds 2**h + 1 records',
         'inputs': ['height'], 'expression': 'power(2, height) + 1'},
        {'formula': 'tape_throughput_kb_s', 'rule_ids': ['001-bF18'], 'unit': 'KB/s',
         'words': 'tape throughput = record size / time of steps 1-4',
         'inputs': ['record_kb', 'record_ms'], 'expression': 'record_kb / record_ms * 1000'},
        {'formula': 'tape_write_ms_per_kb', 'rule_ids': ['001-bF19'], 'unit': 'ms/KB',
         'words': 'tape write time per KB = record write time / record size',
         'inputs': ['record_ms', 'record_kb'], 'expression': 'record_ms / record_kb'},
        {'formula': 'ru_bytes', 'rule_ids': ['000-F8'], 'unit': 'bytes',
         'words': "RUSIZES byte X'me' = m x 2**e bytes",
         'inputs': ['mantissa', 'exponent'], 'expression': 'mantissa * power(2, exponent)'},
    ] + one_rule_formulas) }}
{% endmacro %}

{#- A formula input as rpt_formula_results shows it: a whole number without a fraction (400, not 400.0 nor
    Spark's 4.0E2; a 48-bit Julian timestamp in µs, 211696834500000000, not 2.116968345e+17 nor Spark's
    2.116968345E17: any whole number a bigint holds), any other to 6 places. -#}
{% macro formula_number_text(x) -%}
    coalesce(case
        when ({{ x }}) = floor({{ x }}) and abs({{ x }}) < 9e18
            then cast(cast({{ x }} as bigint) as {{ dbt.type_string() }})
        else cast(round({{ x }}, 6) as {{ dbt.type_string() }})
    end, 'missing')
{%- endmacro %}

{#- The catalogue rows a case of formula f evaluates, `;`-separated: those of the case's document (a rule_id
    starts with its document's number), for a formula that serves rules of several documents
    (relative_change_pct: 000-F2 and three of 001). -#}
{% macro formula_rule_ids(f, document) -%}
    {%- set by_document = {} %}
    {%- for rule_id in f.rule_ids %}{% do by_document.setdefault(rule_id[:3], []).append(rule_id) %}{% endfor %}
    {%- if by_document | length == 1 -%}
        '{{ f.rule_ids | join(";") }}'
    {%- else -%}
        case {{ document }}
        {%- for doc, rule_ids in by_document.items() %} when '{{ doc }}' then '{{ rule_ids | join(";") }}'{% endfor %} end
    {%- endif %}
{%- endmacro %}
