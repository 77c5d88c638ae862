-- Communication lines condensed into shifts: AVG, MAX and MIN of the hourly values.
{{ condense_hours_fact('line') }}
