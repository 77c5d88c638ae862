-- USERDEF shift rows condensed per calendar month: AVG of averages, MAX of maxima, MIN of minima.
{{ condense_shift_fact('userdef', 'month') }}
