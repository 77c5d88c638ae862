{#-
    Response time in units of the service time, R / S, of an M/M/c queue with `servers` servers each
    busy `utilization` (a fraction below 1); the documents give no queueing formula (notes 001b §6.3),
    these are the textbook ones (Kleinrock 1975):
        one server:   R / S = 1 / (1 - U)
        c servers:    R / S = 1 + C(c, cU) / (c (1 - U)),  C = Erlang C
    The Erlang C sum (macros/portable.sql erlang_terms) runs over k = 0 .. c-1 of a^k / k! with a = c u.
    NULL at or above saturation.
-#}
{% macro mmc_response_factor(servers, utilization) -%}
    {%- set c, u = servers, utilization %}
    case
        when {{ u }} >= 1 then null
        when {{ u }} <= 0 then 1.0
        when {{ c }} = 1 then 1 / (1 - {{ u }})
        else 1 + (
            exp({{ c }} * ln({{ c }} * {{ u }}) - {{ ln_factorial(c) }}) / (1 - {{ u }})
            / ({{ erlang_terms(c, c ~ ' * ' ~ u) }}
                + exp({{ c }} * ln({{ c }} * {{ u }}) - {{ ln_factorial(c) }}) / (1 - {{ u }}))
        ) / ({{ c }} * (1 - {{ u }}))
    end
{%- endmacro %}
