-- The shift rows of an ISO week (Monday to Sunday, keyed by its Monday) condensed per USERDEF entity and
-- shift as fct_userdef_monthly condenses a month's: a grain between shift and month.
{{ condense_shift_fact('userdef', 'week') }}
