-- The year's summary per processor and shift, condensed from the shift rows the same way as
-- fct_cpu_monthly (every shift weighs the same, whatever month it falls in).
{{ condense_shift_fact(
    ref('fct_cpu_shift'),
    keys=['system_name', 'cpu_num', 'shift'],
    columns=cpu_shift_columns(),
    period='year',
    latest=['shift_name', 'cpu_type', 'os_version'],
) }}
