{#- Each resource's busiest hour per day (per shift and day when by_shift) from hourly rows of
    (resource_type, system_name, resource_name, servers, hour_start, shift, shift_date, busy_pct,
    cpu_type), the processor type that of the day's last hour (NULL for other resources): the
    rows of fct_capacity_daily_peak, built from the device hours (int_capacity__device_daily_peak) and
    from the interface hours (fct_capacity_daily_peak). -#}
{% macro daily_peaks(hours, by_shift) %}
    {%- set period = 'shift_date' if by_shift else 'cast(hour_start as date)' %}
select
    resource_type,
    system_name,
    resource_name,
    {{ 'shift' if by_shift else 'cast(null as integer)' }} as shift,
    {{ period }} as peak_date,
    max(servers) as servers,
    max(busy_pct) as peak_pct,
    max_by(hour_start, busy_pct) as peak_hour_start,
    count(*) as measured_hours,
    max_by(cpu_type, hour_start) as cpu_type
from {{ hours }}
{%- if by_shift %}
where shift is not null
{%- endif %}
group by resource_type, system_name, resource_name, {{ 'shift, ' if by_shift }}{{ period }}
{% endmacro %}
