{#- The models that compute a formula of the rules catalogue (a formula row's evaluated_by):
    rpt_rule_status counts their rows as the formula's evaluations; rpt_formula_results (the documents'
    worked examples, formula_definitions()) only the rows of the rule's own formulas. -#}
{% macro formula_models() %}
    {{ return(['fct_cpu_shift', 'fct_cpu_monthly', 'fct_process_shift', 'rpt_process_activity', 'fct_benchmark_run',
               'rpt_formula_results']) }}
{% endmacro %}

{#- What may evaluate a rule of the catalogue: the threshold marts, ingest.capacity.config_checks, and
    the models of formula_models(). -#}
{% macro rule_evaluators() %}
    {{ return(['rpt_threshold_exceptions', 'rpt_busy_process', 'rpt_process_activity', 'config_checks']
              + formula_models()) }}
{% endmacro %}
