-- Line shift rows condensed per calendar year: AVG of averages, MAX of maxima, MIN of minima.
{{ config(materialized='incremental', unique_key=['system_name', 'year'], meta={'touched_grain': 'year'}) }}
{{ condense_shift_fact('line', 'year') }}
