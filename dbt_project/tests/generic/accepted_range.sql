{#- Fails for every row whose value lies outside [min_value, max_value]; NULL passes (not_null
    says whether NULL is allowed). Either bound may be omitted. -#}
{% test accepted_range(model, column_name, min_value=none, max_value=none) %}
select {{ column_name }}
from {{ model }}
where
    {%- if min_value is not none %} {{ column_name }} < {{ min_value }}{% endif %}
    {%- if min_value is not none and max_value is not none %} or{% endif %}
    {%- if max_value is not none %} {{ column_name }} > {{ max_value }}{% endif %}
{% endtest %}
