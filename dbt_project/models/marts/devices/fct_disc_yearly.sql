-- Disc shift rows condensed per calendar year: AVG of averages, MAX of maxima, MIN of minima.
{{ condense_shift_fact('disc', 'year') }}
