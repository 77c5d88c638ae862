{#- The models that compute a formula of the rules catalogue (a formula row's evaluated_by):
    rpt_rule_status counts their rows as the formula's evaluations; rpt_formula_results (the documents'
    worked examples, formula_definitions()) only the rows of the rule's own formulas. -#}
{% macro formula_models() %}
    {{ return(['fct_cpu_shift', 'fct_cpu_monthly', 'fct_process_shift', 'rpt_process_activity', 'fct_benchmark_run',
               'fct_vse_connection_performance', 'rpt_formula_results']) }}
{% endmacro %}

{#- The models that evaluate a rule of the catalogue on every program, process or file it applies to, one row
    per evaluation with its rule_id and whether it fired (a diagnostic row's evaluated_by, or a threshold's
    whose limit such a model compares): rpt_rule_status counts their rows as the rule's evaluations and
    findings. -#}
{% macro diagnostic_models() %}
    {{ return(['rpt_app_diagnostics']) }}
{% endmacro %}

{#- What rpt_app_diagnostics compares (Glasstone 1986, Table 1), as (entity, metric, the model's CTE that
    carries the metric): the rules of the model thresholds with that entity and metric apply. -#}
{% macro app_diagnostic_metrics() %}
    {{ return([
        ('app_program', 'process_count', 'programs'),
        ('process_activity', 'io_per_trans', 'activity'),
        ('app_process', 'cpu_per_io_s', 'activity'),
        ('app_process', 'priority', 'busy_applications'),
        ('app_process', 'file_open_call_count', 'process_days'),
        ('app_process', 'min_interval_io_per_s', 'process_days'),
        ('app_file', 'writes_per_block_split', 'files'),
    ]) }}
{% endmacro %}

{#- What may evaluate a rule of the catalogue: the threshold marts, ingest.capacity.config_checks, and
    the models of formula_models() and diagnostic_models(). -#}
{% macro rule_evaluators() %}
    {{ return(['rpt_threshold_exceptions', 'rpt_busy_process', 'rpt_process_activity', 'config_checks']
              + formula_models() + diagnostic_models()) }}
{% endmacro %}
