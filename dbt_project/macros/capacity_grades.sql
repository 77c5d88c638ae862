{#-
    The grade of a utilization against a resource's available capacity, written once: the bands of
    capacity_grade_bands() below. Evans (seed 001 L1733): available capacity, before queuing delays
    inhibit processing and throughput, is usually 70-80 % of a CPU; the bounds are per resource and
    processor type in reference_capacity_thresholds (capacity_lower_pct, capacity_upper_pct). Every
    what-if grades through capacity_grade(); rpt_capacity_grade_band writes the same bands as rows, per
    seed row, for `perfdb report capacity --growth`, which grades any growth against them.
-#}

{#- The grades in order, each up to (not including) its bound: `lower` and `upper` stand for the
    resource's capacity_lower_pct and capacity_upper_pct; the last grade has no bound. A band whose
    bounds are equal (a document giving one figure) is empty. -#}
{% macro capacity_grade_bands() %}
    {{ return([
        {'grade': 'within capacity', 'below': 'lower'},
        {'grade': 'warning', 'below': 'upper'},
        {'grade': 'critical', 'below': '100'},
        {'grade': 'saturated', 'below': none},
    ]) }}
{% endmacro %}

{#- The grade of `utilization_pct` (percent busy) between `lower_pct` and `upper_pct`; NULL when the
    utilization or the resource's bounds are unknown. -#}
{% macro capacity_grade(utilization_pct, lower_pct, upper_pct) -%}
    {%- set bounds = {'lower': lower_pct, 'upper': upper_pct} %}
    case
        when ({{ utilization_pct }}) is null or {{ lower_pct }} is null or {{ upper_pct }} is null then null
        {%- for band in capacity_grade_bands() %}
        {%- if band.below is not none %}
        when ({{ utilization_pct }}) < {{ bounds.get(band.below, band.below) }} then '{{ band.grade }}'
        {%- else %}
        else '{{ band.grade }}'
        {%- endif %}
        {%- endfor %}
    end
{%- endmacro %}

{#- The seed rows of reference_capacity_thresholds that may apply to each row of `relation_alias`
    (columns resource_type and cpu_type), joined as thresholds_own (its processor type's row) and
    thresholds_any (its resource type's `*` row); capacity_threshold() picks the one that applies. -#}
{% macro capacity_threshold_join(relation_alias) -%}
    left join {{ ref('reference_capacity_thresholds') }} as thresholds_own
        on thresholds_own.resource_type = {{ relation_alias }}.resource_type
        and thresholds_own.cpu_type = {{ relation_alias }}.cpu_type
    left join {{ ref('reference_capacity_thresholds') }} as thresholds_any
        on thresholds_any.resource_type = {{ relation_alias }}.resource_type
        and thresholds_any.cpu_type = '*'
{%- endmacro %}

{#- `column` of the seed row that applies after capacity_threshold_join: the processor type's own row,
    else the `*` row. -#}
{% macro capacity_threshold(column) -%}
    case when thresholds_own.resource_type is not null then thresholds_own.{{ column }} else thresholds_any.{{ column }} end
{%- endmacro %}
