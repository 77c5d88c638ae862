-- A threshold on a metric that no model measures would never fire: every rule must name a column
-- its entity's model compares (rpt_busy_process for `busy_process`, rpt_process_activity's
-- io_per_trans for `process_activity`, rpt_app_diagnostics's app_diagnostic_metrics(), rpt_benchmark_vs_reference's
-- throughput_ratio for `benchmark_run`, rpt_session_pacing's send_window for `session_pacing`,
-- rpt_release_regression's cpu_change and throughput_change for `release_pair`, rpt_channel_utilization's
-- channel_util_pct for `channel_path`, the shift facts of
-- shift_rule_targets() and the network marts of network_rule_targets()).
select
    rule_id,
    system_name,
    entity,
    metric
from {{ ref('thresholds') }}
where not (
    (entity = 'busy_process' and metric in ('{{ busy_process_metrics() | join("', '") }}'))
    or (entity = 'process_activity' and metric = 'io_per_trans')
    or (entity = 'benchmark_run' and metric = 'throughput_ratio')
    or (entity = 'session_pacing' and metric = 'send_window')
    or (entity = 'release_pair' and metric in ('cpu_change', 'throughput_change'))
    or (entity = 'channel_path' and metric = 'channel_util_pct')
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
