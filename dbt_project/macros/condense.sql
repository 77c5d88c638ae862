{#-
    The condensation steps of the MEASURE + ENFORM performance data base (King 1986):
    hours -> shift (Fig. 6: AVG, MAX, MIN per entity over the hours of a shift) and
    shifts -> week, month or year (Fig. 8: AVG of the shift averages, MAX of the maxima and of the
    spreads, MIN of the minima). Totals (`_s`, `_count`, n_hours) are summed.
-#}

{% macro condensed_columns(measures) %}
    {%- set columns = [] -%}
    {%- for measure in measures -%}
        {%- do columns.extend([measure ~ '_avg', measure ~ '_max', measure ~ '_min']) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}

{% macro condense_hours(measures) -%}
    {%- for measure in measures %}
    avg({{ measure }}) as {{ measure }}_avg,
    max({{ measure }}) as {{ measure }}_max,
    min({{ measure }}) as {{ measure }}_min{% if not loop.last %},{% endif %}
    {%- endfor %}
{%- endmacro %}

{% macro shift_aggregate(column) -%}
    {%- if column.endswith('_avg') -%} avg({{ column }})
    {%- elif column.endswith('_max') or '_spread_' in column -%} max({{ column }})
    {%- elif column.endswith('_min') -%} min({{ column }})
    {%- elif column.endswith('_s') or column.endswith('_count') or column == 'n_hours' -%} sum({{ column }})
    {%- else -%} {{ exceptions.raise_compiler_error("condense: no aggregation rule for column " ~ column) }}
    {%- endif -%}
{%- endmacro %}

{#- Fig. 6 for a family of condensed_families(): one row per entity, shift date and shift of its hourly
    model, only hours inside a shift counting. Entities whose hours need more than AVG/MAX/MIN
    (processors' spreads, processes' activity filters) write their shift fact out instead. -#}
{% macro condense_hours_fact(family) %}
    {%- set spec = condensed_families()[family] %}
select
    {{ spec['keys'] | join(', ') }}, shift_date, shift,
    max(shift_name) as shift_name,
    {%- for column in spec['described'] %}
    max({{ column }}) as {{ column }},
    {%- endfor %}
    -- the hours that occurred (hour_start_utc: a fall-back day's repeated clock hour is two of them)
    count(distinct hour_start_utc) as n_hours,
    {{ condense_hours(spec['measures']) }}
from {{ ref(spec['hourly']) }}
where shift is not null
    and {{ touched('system_name', 'shift_date', 'shift_date') }}
group by {{ spec['keys'] | join(', ') }}, shift_date, shift
{% endmacro %}

{#- Fig. 8 for a family of condensed_families(): one row per entity, shift and ISO week (its Monday),
    calendar month or year of its shift fact's shift_date. `latest` columns (descriptions such as os_version) take the value
    of the most recent shift. All are day models (macros/incremental.sql): keyed by system_name and
    shift_date, week, month or year. -#}
{% macro condense_shift_fact(family, period) %}
    {%- set spec = condensed_families()[family] %}
    {%- set keys = spec['keys'] + ['shift'] %}
    {%- if period == 'month' -%}
        {%- set period_expression = 'cast(' ~ dbt.date_trunc('month', 'shift_date') ~ ' as date)' -%}
    {%- elif period == 'week' -%}
        {#- ISO weeks start on Monday and are keyed by it, as IZPCA keys its weeks -#}
        {%- set period_expression = 'cast(' ~ dbt.date_trunc('week', 'shift_date') ~ ' as date)' -%}
    {%- elif period == 'year' -%}
        {%- set period_expression = 'cast(extract(year from shift_date) as integer)' -%}
    {%- else -%}
        {{ exceptions.raise_compiler_error("condense_shift_fact: period must be week, month or year, not " ~ period) }}
    {%- endif %}
select
    {%- for key in keys %}
    {{ key }},
    {%- endfor %}
    {{ period_expression }} as {{ period }},
    {%- for column in spec['latest'] %}
    max_by({{ column }}, shift_date) as {{ column }},
    {%- endfor %}
    count(*) as n_shifts,
    {%- for column in ['n_hours'] + spec['columns'] %}
    {{ shift_aggregate(column) }} as {{ column }}{% if not loop.last %},{% endif %}
    {%- endfor %}
from {{ ref('fct_' ~ family ~ '_shift') }}
where {{ touched('system_name', period_expression, period) }}
group by {{ keys | join(', ') }}, {{ period_expression }}
{% endmacro %}
