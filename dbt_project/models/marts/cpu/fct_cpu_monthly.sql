-- King 1986, Fig. 8: the shift rows of a calendar month condensed per processor and shift: AVG of
-- the shift averages, MAX of the maxima and of the spreads, MIN of the minima.
{{ config(materialized='incremental', unique_key=['system_name', 'month'], meta={'touched_grain': 'month'}) }}
{{ condense_shift_fact('cpu', 'month') }}
