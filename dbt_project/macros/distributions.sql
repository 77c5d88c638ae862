{#-
    Mergeable distributions of hourly measures (issue 28): a percentile of the hours of a month or a year
    needs the hours, which retention purges, but a count of hours per fixed bucket can be summed over days,
    weeks, months and years and still gives the percentile to within one bucket. The day fact
    fct_busy_distribution_day holds the counts; fct_busy_percentiles_{weekly,monthly,yearly} merge them.

    The scales (the one definition of the buckets):
    - `pct`: 0.5-point bins of a percentage, bucket i = [i/2, (i+1)/2) for i = 0..199; a value above 100
      (a busy rounded over an interval boundary) counts as 100 and falls in the last bin, [99.5, 100].
    - `log`: 20 bins a decade for rates and times, bucket i = [10^(i/20), 10^((i+1)/20)), each 12.2 %
      wider than the one before; everything below 10^-3 (zero too) falls in one first bin [0, 10^-3).
-#}

{% macro distribution_scales() %}
    {{ return({
        'pct': {'width': 0.5, 'top': 100},
        'log': {'per_decade': 20, 'floor_exponent': -3},
    }) }}
{% endmacro %}

{#- The measures with a distribution: resource -> the hourly model, its entity (as a string), the value, the
    value's unit and scale. Workload CPU is the workload's own CPU seconds in the hour (all its processors).
    DASD (SMF 74.1) per volume, labelled as its threshold exceptions are (dasd_volume_label()): a planner acts
    on a volume (moves its data sets, gives it PAV aliases), and a system's dozens of quiet volumes would hide
    the hot one in a system-wide figure. The hour's response time is its intervals' times summed over their
    I/Os (int_dasd__hourly, macros/dasd.sql), so a busy interval weighs by its I/Os; an hour without I/O has
    no response time and does not count. -#}
{% macro distribution_measures() %}
    {{ return({
        'cpu_busy': {'model': 'int_cpu__hourly', 'entity': dbt.cast('cpu_num', dbt.type_string()),
                     'value': 'busy_pct', 'unit': 'pct', 'scale': 'pct'},
        'disc_busy': {'model': 'int_disc__hourly', 'entity': 'device_name', 'value': 'busy_pct',
                      'unit': 'pct', 'scale': 'pct'},
        'line_busy': {'model': 'int_line__hourly', 'entity': 'device_name', 'value': 'busy_pct',
                      'unit': 'pct', 'scale': 'pct'},
        'line_response': {'model': 'int_line__hourly', 'entity': 'device_name', 'value': 'response_ms',
                          'unit': 'ms', 'scale': 'log'},
        'workload_cpu': {'model': 'int_workload__hourly', 'entity': 'workload', 'value': 'cpu_s',
                         'unit': 'cpu_s', 'scale': 'log'},
        'dasd_busy': {'model': 'int_dasd__hourly', 'entity': dasd_volume_label(), 'value': 'busy_pct',
                      'unit': 'pct', 'scale': 'pct'},
        'dasd_response': {'model': 'int_dasd__hourly', 'entity': dasd_volume_label(), 'value': 'response_ms',
                          'unit': 'ms', 'scale': 'log'},
    }) }}
{% endmacro %}

{#- The bucket index of a value on a scale (NULL for a NULL value). -#}
{% macro bucket_index(value, scale) -%}
    {%- set s = distribution_scales()[scale] -%}
    {%- if scale == 'pct' -%}
    cast(floor(least(greatest({{ value }}, 0), {{ s['top'] - s['width'] }}) / {{ s['width'] }}) as integer)
    {%- else -%}
    {%- set first = s['floor_exponent'] * s['per_decade'] -%}
    cast(case when {{ value }} < 1e{{ s['floor_exponent'] }} then {{ first - 1 }}
        else floor(log10({{ value }}) * {{ s['per_decade'] }}) end as integer)
    {%- endif -%}
{%- endmacro %}

{#- The lower and upper bounds of a bucket index on a scale, as doubles on both targets (Spark reads 0.5 as a decimal). -#}
{% macro bucket_lower(index, scale) -%}
    {%- set s = distribution_scales()[scale] -%}
    {%- if scale == 'pct' -%}
    cast({{ index }} * {{ s['width'] }} as double)
    {%- else -%}
    case when {{ index }} < {{ s['floor_exponent'] * s['per_decade'] }} then 0.0
        else power(10, cast({{ index }} as double) / {{ s['per_decade'] }}) end
    {%- endif -%}
{%- endmacro %}

{% macro bucket_upper(index, scale) -%}
    {%- set s = distribution_scales()[scale] -%}
    {%- if scale == 'pct' -%}
    cast(({{ index }} + 1) * {{ s['width'] }} as double)
    {%- else -%}
    power(10, cast({{ index }} + 1 as double) / {{ s['per_decade'] }})
    {%- endif -%}
{%- endmacro %}

{% macro distribution_percentiles() %}
    {{ return([50, 90, 95, 99]) }}
{% endmacro %}

{#- Percentiles of the distributions of `relation` (rows of fct_busy_distribution_day) merged per `keys`
    (the period expression among them, named `period`): the hours of each bucket summed, then for each p the
    upper bound of the first bucket (in value order) whose cumulative hours reach p % of all hours. That bucket
    holds the nearest-rank percentile of the hours (the hour ranked ceil(p n / 100)), so the exact value is at
    most one bucket width below the one reported: the bound errs high, as a capacity threshold wants.
    The comparison is made in integers (100 x cumulative >= p x total), so no rounding moves a percentile.
    avg and max are those of the hours themselves, merged from each bucket's sum and maximum. -#}
{% macro merged_percentiles(relation, period_expression, period) %}
with merged as (
    select
        system_name, resource, entity, unit, {{ period_expression }} as {{ period }},
        bucket_index,
        max(bucket_upper) as bucket_upper,
        sum(hours) as hours,
        sum(value_sum) as value_sum,
        max(value_max) as value_max
    from {{ relation }}
    group by system_name, resource, entity, unit, {{ period_expression }}, bucket_index
),

cumulative as (
    select
        merged.*,
        sum(hours) over (
            partition by system_name, resource, entity, {{ period }}
            order by bucket_index rows between unbounded preceding and current row
        ) as cumulative_hours,
        sum(hours) over (partition by system_name, resource, entity, {{ period }}) as total_hours
    from merged
)

select
    system_name, resource, entity, {{ period }},
    max(unit) as unit,
    cast(max(total_hours) as {{ dbt.type_bigint() }}) as n_hours,
    sum(value_sum) / max(total_hours) as value_avg,
    max(value_max) as value_max,
    {%- for p in distribution_percentiles() %}
    min(case when 100 * cumulative_hours >= {{ p }} * total_hours then bucket_upper end) as p{{ p }}{% if not loop.last %},{% endif %}
    {%- endfor %}
from cumulative
group by system_name, resource, entity, {{ period }}
{% endmacro %}
