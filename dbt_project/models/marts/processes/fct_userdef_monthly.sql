-- USERDEF shift rows condensed per calendar month: AVG of averages, MAX of maxima, MIN of minima.
{{ config(materialized='incremental', unique_key=['system_name', 'month'], meta={'touched_grain': 'month'}) }}
{{ condense_shift_fact('userdef', 'month') }}
