-- Glasstone 1986's ATM benchmark (seed 001 L3400-L3402): "more than 13 ATMs per line" delays responses. One
-- row per line and day with the terminals MEASURE measured on it that day (its TERMINAL entities,
-- fct_terminal_daily), compared with the `line_terminals` rules of the catalogue (001-b6.4-17), fired or not.
with lines as (
    select
        system_name,
        line_name,
        report_date,
        count(*) as terminal_count,
        sum(transaction_count) as transaction_count
    from {{ ref('fct_terminal_daily') }}
    group by system_name, line_name, report_date
),

measured as (
    {{ unpivot_metrics('lines', ['system_name', 'line_name', 'report_date', 'transaction_count'], ['terminal_count']) }}
)

{{ rule_evaluations('measured', 'line_terminals') }}
