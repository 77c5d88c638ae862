-- The shift rows of an ISO week (Monday to Sunday, keyed by its Monday) condensed per USERDEF entity and
-- shift as fct_userdef_monthly condenses a month's: a grain between shift and month.
{{ config(materialized='incremental', unique_key=['system_name', 'week'], meta={'touched_grain': 'week'}) }}
{{ condense_shift_fact('userdef', 'week') }}
