-- Process shift rows condensed per calendar year (King 1986: "do the same for the process, disk,
-- line, and USERDEF reports"): AVG of averages, MAX of maxima, MIN of minima, SUM of totals.
{{ config(materialized='incremental', unique_key=['system_name', 'year'], meta={'touched_grain': 'year'}) }}
{{ condense_shift_fact('process', 'year') }}
