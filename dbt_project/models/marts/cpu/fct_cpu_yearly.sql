-- The year's summary per processor and shift, condensed from the shift rows the same way as
-- fct_cpu_monthly (every shift weighs the same, whatever month it falls in).
{{ config(materialized='incremental', unique_key=['system_name', 'year'], meta={'touched_grain': 'year'}) }}
{{ condense_shift_fact('cpu', 'year') }}
