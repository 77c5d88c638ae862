-- Disc shift rows condensed per calendar year: AVG of averages, MAX of maxima, MIN of minima.
{{ condense_shift_fact(
    ref('fct_disc_shift'),
    keys=['system_name', 'device_name', 'shift'],
    columns=condensed_columns(disc_hourly_measures()),
    period='year',
    latest=['shift_name'],
) }}
