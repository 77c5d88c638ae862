-- Line shift rows condensed per calendar month: AVG of averages, MAX of maxima, MIN of minima.
{{ condense_shift_fact(
    ref('fct_line_shift'),
    keys=['system_name', 'device_name', 'shift'],
    columns=condensed_columns(line_hourly_measures()),
    period='month',
    latest=['shift_name'],
) }}
