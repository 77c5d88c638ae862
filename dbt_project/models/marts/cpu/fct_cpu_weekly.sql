-- The shift rows of an ISO week (Monday to Sunday, keyed by its Monday) condensed per processor and
-- shift as fct_cpu_monthly condenses a month's: a grain between shift and month.
{{ condense_shift_fact('cpu', 'week') }}
