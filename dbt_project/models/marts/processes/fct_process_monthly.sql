-- Process shift rows condensed per calendar month (King 1986: "do the same for the process, disk,
-- line, and USERDEF reports"): AVG of averages, MAX of maxima, MIN of minima, SUM of totals.
{{ config(materialized='incremental', unique_key=['system_name', 'month'], meta={'touched_grain': 'month'}) }}
{{ condense_shift_fact('process', 'month') }}
