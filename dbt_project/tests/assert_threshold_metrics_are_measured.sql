-- A threshold on a metric that no model measures would never fire: every rule must name a column
-- its entity's model compares (rpt_busy_process for `busy_process`, rpt_process_activity's
-- io_per_trans and io_per_trans_outside_oltp_band for `process_activity`, rpt_cpu_balance's for `system_cpu`,
-- rpt_workload_concentration's for `workload_mix`, rpt_app_diagnostics's app_diagnostic_metrics(), rpt_benchmark_vs_reference's
-- throughput_ratio for `benchmark_run`, rpt_session_pacing's send_window for `session_pacing`,
-- rpt_release_regression's cpu_change and throughput_change for `release_pair`, rpt_vse_benchmark_pairs's
-- departure for `benchmark_pair`, rpt_vse_ftp_rates's two ratios for `benchmark_run`, rpt_channel_utilization's
-- channel_util_pct for `channel_path`, rpt_line_terminals's terminal_count for `line_terminals`, rpt_forecast_history's
-- history_days for `forecast_history`, rpt_measure_overhead's measure_cpu_pct for `measure_overhead`, the shift facts of
-- shift_rule_targets() and the network marts of network_rule_targets()).
select
    rule_id,
    system_name,
    entity,
    metric
from {{ ref('thresholds') }}
where not (
    (entity = 'busy_process' and metric in ('{{ busy_process_metrics() | join("', '") }}'))
    or (entity = 'process_activity' and metric in ('io_per_trans', 'io_per_trans_outside_oltp_band'))
    or (entity = 'system_cpu' and metric in ('busy_pct_avg', 'busy_pct_spread_across_cpus'))
    or (entity = 'workload_mix' and metric = 'top_4_cpu_share_pct')
    or (entity = 'benchmark_run' and metric in ('throughput_ratio', 'file_io_over_transfer', 'edr_over_baseline_low'))
    or (entity = 'benchmark_pair' and metric = 'departure')
    or (entity = 'session_pacing' and metric = 'send_window')
    or (entity = 'release_pair' and metric in ('cpu_change', 'throughput_change'))
    or (entity = 'channel_path' and metric = 'channel_util_pct')
    or (entity = 'line_terminals' and metric = 'terminal_count')
    or (entity = 'forecast_history' and metric = 'history_days')
    or (entity = 'measure_overhead' and metric = 'measure_cpu_pct')
    {%- for entity, metric, _ in app_diagnostic_metrics() %}
    or (entity = '{{ entity }}' and metric = '{{ metric }}')
    {%- endfor %}
    {%- for entity, target in shift_rule_targets().items() %}
    or (entity = '{{ entity }}' and metric in ('{{ target.metrics | join("', '") }}'))
    {%- endfor %}
    {%- for entity, target in network_rule_targets().items() %}
    or (entity = '{{ entity }}' and metric in ('{{ (target.metrics + target.flags.keys() | list) | join("', '") }}'))
    {%- endfor %}
)
