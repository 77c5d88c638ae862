{#- The MSU interval rows of `relation` in the months a night rebuilds (grain day_and_next_month by the
    `key` column: a touched day changes the 4HRA of the day after, which may start the next month), each
    with the month it starts in. -#}
{% macro msu_touched_month_intervals(relation, key) %}
    {%- set month_start = 'cast(' ~ dbt.date_trunc('month', 'interval_start') ~ ' as date)' %}
    select *, {{ month_start }} as month_start
    from {{ relation }}
    where {{ touched(key, month_start, 'day_and_next_month') }}
{% endmacro %}

{#- The peak of a month's valid 4HRA (what sub-capacity pricing charges for) and the interval it ended. -#}
{% macro msu_peak_4hra_columns() -%}
    max(case when is_4hra_valid then rolling_4h_msu_per_h end) as peak_4hra_msu_per_h,
    max_by(interval_start, case when is_4hra_valid then rolling_4h_msu_per_h end) as peak_interval_start
{%- endmacro %}
