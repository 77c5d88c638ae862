{#-
    Response time in units of the service time, R / S, of an M/M/c queue with `servers` servers each
    busy `utilization` (a fraction below 1); the documents give no queueing formula (notes 001b §6.3),
    these are the textbook ones (Kleinrock 1975):
        one server:   R / S = 1 / (1 - U)
        c servers:    R / S = 1 + C(c, cU) / (c (1 - U)),  C = Erlang C
    The Erlang C sum runs over k = 0 .. c-1 of a^k / k! with a = c u, written as exp(k ln a - ln k!) so
    it never overflows. NULL at or above saturation.
-#}
{% macro mmc_response_factor(servers, utilization) -%}
    case
        when {{ utilization }} >= 1 then null
        when {{ utilization }} <= 0 then 1.0
        when {{ servers }} = 1 then 1 / (1 - {{ utilization }})
        else 1 + (
            exp({{ servers }} * ln({{ servers }} * {{ utilization }}) - lgamma({{ servers }} + 1)) / (1 - {{ utilization }})
            / ((
                select sum(exp(k * ln({{ servers }} * {{ utilization }}) - lgamma(k + 1)))
                from range(0, {{ servers }}) as terms(k)
            ) + exp({{ servers }} * ln({{ servers }} * {{ utilization }}) - lgamma({{ servers }} + 1)) / (1 - {{ utilization }}))
        ) / ({{ servers }} * (1 - {{ utilization }}))
    end
{%- endmacro %}
