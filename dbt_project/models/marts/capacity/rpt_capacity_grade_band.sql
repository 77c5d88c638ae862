-- The grades of macros/capacity_grades.sql as rows, one per row of reference_capacity_thresholds and
-- grade: the utilization band [from_pct, to_pct) it covers (NULL: unbounded), so that a utilization
-- computed outside dbt (`perfdb report capacity --growth`) is graded by the same bands as the what-if
-- marts. Empty bands (equal bounds, where a document gives one figure) are left out.
{%- set bounds = {'lower': 'capacity_lower_pct', 'upper': 'capacity_upper_pct'} %}
{%- set bands = capacity_grade_bands() %}

with bands as (
    {%- for band in bands %}
    select
        resource_type,
        cpu_type,
        '{{ band.grade }}' as grade,
        {{ loop.index }} as grade_order,
        {% if loop.first %}cast(null as double){% else %}cast({{ bounds.get(bands[loop.index0 - 1].below, bands[loop.index0 - 1].below) }} as double){% endif %} as from_pct,
        {% if band.below is none %}cast(null as double){% else %}cast({{ bounds.get(band.below, band.below) }} as double){% endif %} as to_pct
    from {{ ref('reference_capacity_thresholds') }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select *
from bands
where from_pct is null or to_pct is null or from_pct < to_pct
