{#- The models that compute a formula of the rules catalogue (a formula row's evaluated_by):
    rpt_rule_status counts their rows as the formula's evaluations; rpt_formula_results (the documents'
    worked examples, formula_definitions()) only the rows of the rule's own formulas. -#}
{% macro formula_models() %}
    {{ return(['fct_cpu_shift', 'fct_cpu_monthly', 'fct_process_shift', 'rpt_process_activity', 'fct_benchmark_run',
               'rpt_capacity_whatif', 'fct_vse_connection_performance', 'fct_csaix_memory_snapshot',
               'fct_terminal_daily', 'rpt_formula_results']) }}
{% endmacro %}

{#- The models that evaluate a rule of the catalogue on every program, process or file it applies to, one row
    per evaluation with its rule_id and whether it fired (a diagnostic row's evaluated_by, or a threshold's
    whose limit such a model compares): rpt_rule_status counts their rows as the rule's evaluations and
    findings. -#}
{% macro diagnostic_models() %}
    {{ return(limit_diagnostic_models() + ['rpt_capacity_baseline_summary', 'rpt_mode_consistency', 'rpt_link_stations',
                                           'rpt_aix_host_memory', 'rpt_paging_space', 'rpt_adapter_queue_full',
                                           'rpt_vse_stack_repeats', 'rpt_benchmark_single_session',
                                           'rpt_process_minimum_activity', 'rpt_session_ru_sizes', 'rpt_measure_intervals',
                                           'rpt_fastsort_passes']) }}
{% endmacro %}

{#- The diagnostic models that compare a rule's metric with its limit from the rules catalogue (the model
    thresholds); the others decide their finding themselves (rpt_capacity_baseline_summary: the baseline
    model off by more than 5 %; rpt_vse_stack_repeats: the limit of the rule a repeat restates;
    rpt_process_minimum_activity: the hours King's filters select; rpt_measure_intervals: a day not measured
    INTERVAL 1 HOURS around the clock; rpt_fastsort_passes: a sort that wrote runs for a file within its memory
    or under 100 Kbytes) and their rules name no metric. -#}
{% macro limit_diagnostic_models() %}
    {{ return(['rpt_app_diagnostics', 'rpt_benchmark_vs_reference', 'rpt_session_pacing', 'rpt_release_regression',
               'rpt_vse_benchmark_pairs', 'rpt_vse_ftp_rates', 'rpt_cpu_balance', 'rpt_workload_concentration',
               'rpt_channel_utilization', 'rpt_line_terminals', 'rpt_forecast_history', 'rpt_measure_overhead']) }}
{% endmacro %}

{#- What rpt_app_diagnostics compares (Glasstone 1986, Table 1), as (entity, metric, the model's CTE that
    carries the metric): the rules of the model thresholds with that entity and metric apply. -#}
{% macro app_diagnostic_metrics() %}
    {{ return([
        ('app_program', 'process_count', 'programs'),
        ('process_activity', 'io_per_trans', 'oltp_servers'),
        ('app_process', 'cpu_per_io_s', 'activity'),
        ('app_process', 'priority', 'busy_applications'),
        ('app_process', 'file_open_call_count', 'process_days'),
        ('app_process', 'min_interval_io_per_s', 'process_days'),
        ('app_file', 'writes_per_block_split', 'files'),
        ('app_process', 'pathmon_busy_pct', 'pathmons'),
    ]) }}
{% endmacro %}

{#- The models that compare a threshold rule whose bound is a row of a reference seed, not the rule's limit
    in the catalogue: fct_capacity_forecast grades each resource against reference_capacity_thresholds
    (its rule_id column names the rule a row states); rpt_rule_status compares each resource's current
    peak with that bound. -#}
{% macro band_rule_models() %}
    {{ return(['fct_capacity_forecast']) }}
{% endmacro %}

{#- What may evaluate a rule of the catalogue: the threshold marts, ingest.capacity.config_checks, and
    the models of formula_models(), diagnostic_models() and band_rule_models(). -#}
{% macro rule_evaluators() %}
    {{ return(['rpt_threshold_exceptions', 'rpt_busy_process', 'rpt_process_activity', 'config_checks']
              + formula_models() + diagnostic_models() + band_rule_models()) }}
{% endmacro %}

{#- True for a catalogue row that names its own comparison (system, entity, command, metric, operator and
    limit): a threshold or selection rule, or a rule a limit diagnostic model compares; not a rule of
    band_rule_models() (its bound is a reference row), nor a threshold a diagnostic model evaluates with
    another rule's limit (rpt_vse_stack_repeats). -#}
{% macro compares_its_own_limit() -%}
    (kind in ('threshold', 'selection') or evaluated_by in ('{{ limit_diagnostic_models() | join("', '") }}'))
    and evaluated_by is not null
    and evaluated_by not in ('{{ band_rule_models() | join("', '") }}')
    and (evaluated_by in ('{{ limit_diagnostic_models() | join("', '") }}')
        or evaluated_by not in ('{{ diagnostic_models() | join("', '") }}'))
{%- endmacro %}

{#- Every row of `measured` (system_name, metric, metric_value and its keys) compared with the rules of
    `entity` on that metric, fired or not: the rows of a diagnostic model of limit_diagnostic_models()
    whose rules name no more than a metric (rpt_cpu_balance, rpt_workload_concentration). -#}
{% macro rule_evaluations(measured, entity) %}
select
    measured.*,
    rules.rule_id,
    rules.rule,
    rules.operator,
    rules.limit_value,
    coalesce({{ crosses('measured.metric_value', 'rules.operator', 'rules.limit_value') }}, false) as fired
from {{ measured }} as measured
inner join ({{ effective_thresholds(entity, measured) }}) as rules
    on rules.system_name = measured.system_name
    and rules.metric = measured.metric
{% endmacro %}
