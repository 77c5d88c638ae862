-- Line shift rows condensed per calendar year: AVG of averages, MAX of maxima, MIN of minima.
{{ condense_shift_fact(
    ref('fct_line_shift'),
    keys=['system_name', 'device_name', 'shift'],
    columns=condensed_columns(line_hourly_measures()),
    period='year',
    latest=['shift_name'],
) }}
