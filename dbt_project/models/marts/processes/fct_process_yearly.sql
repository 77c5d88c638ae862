-- Process shift rows condensed per calendar year (King 1986: "do the same for the process, disk,
-- line, and USERDEF reports"): AVG of averages, MAX of maxima, MIN of minima, SUM of totals.
{{ condense_shift_fact(
    ref('fct_process_shift'),
    keys=['system_name', 'process_key', 'shift'],
    columns=process_shift_columns(),
    period='year',
    latest=['shift_name', 'process_name', 'program_file_name'],
) }}
