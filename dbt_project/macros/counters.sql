{#- One row per `keys` (columns of int_counter__rate) and snapshot interval of the counter rates
    `rates`: the counters' growth over the interval (`counters`: counter name -> column, or a list of
    names, each as <name>_count), the per-second rates of `per_s` counters (as <name>_per_s) and
    counter_reset, true when any counter of the group went down (a restart between the snapshots,
    whose interval the marts leave out). -#}
{% macro counter_intervals(rates, keys, counters, per_s=[]) %}
    {%- if counters is not mapping %}
        {%- set named = {} %}
        {%- for name in counters %}{% do named.update({name: name ~ '_count'}) %}{% endfor %}
        {%- set counters = named %}
    {%- endif %}
select
    {{ keys | join(', ') }},
    interval_start,
    interval_end,
    max(interval_s) as interval_s,
    {%- for name, column in counters.items() %}
    max(delta_value) filter (where counter_name = '{{ name }}') as {{ column }},
    {%- endfor %}
    {%- for name in per_s %}
    max(rate_per_s) filter (where counter_name = '{{ name }}') as {{ name }}_per_s,
    {%- endfor %}
    bool_or(counter_reset) as counter_reset
from {{ rates }}
-- interval_end_utc too: when the clocks go back, one host's local interval times can repeat
group by {{ keys | join(', ') }}, interval_start, interval_end, interval_end_utc
{% endmacro %}

{#- One row per capture of `command` and entity of its `section` (int_counter__snapshot), the entity as
    `entity_column`, its first line in the file (line_number: the order the capture printed its entities
    in), and one column per counter of `counters` (column -> counter name; a name in
    `texts` reads the counter's text, the others its number). -#}
{% macro snapshot_columns(command, section, entity_column, counters, texts=[]) %}
    select
        host,
        captured_at,
        entity as {{ entity_column }},
        min(line_number) as line_number,
        {%- for column, counter in counters.items() %}
        max(case when counter_name = '{{ counter }}' then {{ 'text_value' if column in texts else 'value' }} end)
            as {{ column }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ ref('int_counter__snapshot') }}
    where command = '{{ command }}'
        and section = '{{ section }}'
    group by host, captured_at, entity
{% endmacro %}
