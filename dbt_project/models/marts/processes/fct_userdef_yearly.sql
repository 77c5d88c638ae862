-- USERDEF shift rows condensed per calendar year: AVG of averages, MAX of maxima, MIN of minima.
{{ condense_shift_fact(
    ref('fct_userdef_shift'),
    keys=['system_name', 'process_key', 'counter_name', 'counter_index', 'shift'],
    columns=condensed_columns(['counter_rate']),
    period='year',
    latest=['shift_name', 'counter_type_name', 'counter_rate_unit'],
) }}
