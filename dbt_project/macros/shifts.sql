{#-
    Shift assignment for hourly models. int_shift__hour_map says which shift each clock hour of a
    system belongs to. A system with rows of its own in the shifts seed uses only those rows;
    every other system uses the `*` rows. Hours outside every shift get a NULL shift.
-#}

{% macro join_shift(hour_start, system_name) %}
left join (
    select distinct system_name as own_system_name
    from {{ ref('int_shift__hour_map') }}
    where system_name <> '*'
) as own_shifts
    on own_shifts.own_system_name = {{ system_name }}
left join {{ ref('int_shift__hour_map') }} as shift_map
    on shift_map.system_name = coalesce(own_shifts.own_system_name, '*')
    and shift_map.hour_of_day = extract(hour from {{ hour_start }})
{% endmacro %}

{% macro shift_columns(hour_start) -%}
    shift_map.shift,
    shift_map.shift_name,
    cast({{ dbt.dateadd('day', 'shift_map.shift_day_offset', hour_start) }} as date) as shift_date
{%- endmacro %}

{#- Every row of `relation` (one per clock hour, in hour_start) with the shift its hour belongs to. -#}
{% macro with_shift(relation, system_name='system_name') %}
select
    {{ relation }}.*,
    {{ shift_columns(relation ~ '.hour_start') }}
from {{ relation }}
{{ join_shift(relation ~ '.hour_start', relation ~ '.' ~ system_name) }}
{% endmacro %}
