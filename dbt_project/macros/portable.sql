{#- The few expressions DuckDB and Spark spell differently, one dispatched macro each (default = DuckDB).
    Everything else in the project is written in the subset both run the same way (docs/scaling_out.md). -#}

{#- Microseconds from timestamp a to timestamp b, exactly. Not dbt.datediff: dbt-spark's millisecond and
    microsecond forms give wrong numbers (an unparenthesised sum, and microseconds parsed from the text of
    the timestamp, NULL when it prints fewer than six digits). -#}
{% macro micros_between(a, b) %}{{ return(adapter.dispatch('micros_between')(a, b)) }}{% endmacro %}
{% macro default__micros_between(a, b) %}(epoch_us({{ b }}) - epoch_us({{ a }})){% endmacro %}
{% macro spark__micros_between(a, b) %}(unix_micros(cast({{ b }} as timestamp)) - unix_micros(cast({{ a }} as timestamp))){% endmacro %}

{#- The text at a JSON path ('$.a.b'), NULL when absent. -#}
{% macro json_text(json, path) %}{{ return(adapter.dispatch('json_text')(json, path)) }}{% endmacro %}
{% macro default__json_text(json, path) %}json_extract_string({{ json }}, {{ path }}){% endmacro %}
{% macro spark__json_text(json, path) %}get_json_object({{ json }}, {{ path }}){% endmacro %}

{#- Whether the text contains a match of the regular expression (write classes as [0-9], [.]: Spark
    unescapes backslashes in string literals). -#}
{% macro regex_contains(text, pattern) %}{{ return(adapter.dispatch('regex_contains')(text, pattern)) }}{% endmacro %}
{% macro default__regex_contains(text, pattern) %}regexp_matches({{ text }}, {{ pattern }}){% endmacro %}
{% macro spark__regex_contains(text, pattern) %}regexp_like({{ text }}, {{ pattern }}){% endmacro %}

{#- ISO day of the week: 1 = Monday ... 7 = Sunday. -#}
{% macro iso_day_of_week(d) %}{{ return(adapter.dispatch('iso_day_of_week')(d)) }}{% endmacro %}
{% macro default__iso_day_of_week(d) %}isodow({{ d }}){% endmacro %}
{% macro spark__iso_day_of_week(d) %}(weekday({{ d }}) + 1){% endmacro %}

{#- A relation of the integers start .. stop - 1 in one column `name`. -#}
{% macro integer_range(start, stop, name) %}{{ return(adapter.dispatch('integer_range')(start, stop, name)) }}{% endmacro %}
{% macro default__integer_range(start, stop, name) %}select range as {{ name }} from range({{ start }}, {{ stop }}){% endmacro %}
{% macro spark__integer_range(start, stop, name) %}select id as {{ name }} from range({{ start }}, {{ stop }}){% endmacro %}

{#- ln(n!) of a whole number n >= 0. -#}
{% macro ln_factorial(n) %}{{ return(adapter.dispatch('ln_factorial')(n)) }}{% endmacro %}
{% macro default__ln_factorial(n) %}lgamma({{ n }} + 1){% endmacro %}
{% macro spark__ln_factorial(n) %}aggregate(sequence(1, greatest({{ n }}, 1)), cast(0 as double), (total, j) -> total + ln(j)){% endmacro %}

{#- The sum over k = 0 .. c - 1 of a^k / k!, as exp(k ln a - ln k!) so that it never overflows (Erlang C). -#}
{% macro erlang_terms(c, a) %}{{ return(adapter.dispatch('erlang_terms')(c, a)) }}{% endmacro %}
{% macro default__erlang_terms(c, a) %}(
                select sum(exp(k * ln({{ a }}) - lgamma(k + 1)))
                from range(0, {{ c }}) as terms(k)
            ){% endmacro %}
{% macro spark__erlang_terms(c, a) %}aggregate(sequence(0, {{ c }} - 1), cast(0 as double),
                (total, k) -> total + exp(k * ln({{ a }}) - {{ spark__ln_factorial('k') }})){% endmacro %}

{#- The values of the rows where `condition` holds, as an array in the order of `order_by`; NULL when none
    does (an aggregate). Spark has no ordered array_agg: its values are sorted as (order, value) pairs. -#}
{% macro ordered_array_agg(value, order_by, condition) %}{{ return(adapter.dispatch('ordered_array_agg')(value, order_by, condition)) }}{% endmacro %}
{% macro default__ordered_array_agg(value, order_by, condition) %}array_agg({{ value }} order by {{ order_by }}) filter (where {{ condition }}){% endmacro %}
{% macro spark__ordered_array_agg(value, order_by, condition) -%}
    case when count(case when {{ condition }} then 1 end) > 0 then transform(
        array_sort(collect_list(case when {{ condition }} then named_struct('o', {{ order_by }}, 'v', {{ value }}) end)),
        pair -> pair.v) end
{%- endmacro %}

{#- The time of day of a timestamp: a TIME on DuckDB, 'HH:MM:SS' text on Spark (Spark 4 writes no TIME
    to Parquet). -#}
{% macro time_of_day(ts) %}{{ return(adapter.dispatch('time_of_day')(ts)) }}{% endmacro %}
{% macro default__time_of_day(ts) %}cast({{ ts }} as time){% endmacro %}
{% macro spark__time_of_day(ts) %}date_format({{ ts }}, 'HH:mm:ss'){% endmacro %}

{#- The timestamp `ms` milliseconds after `ts`. Not dbt.dateadd on Spark: dbt-spark's millisecond form adds
    ms / 1,000,000 whole seconds to a whole-second timestamp (a 30-minute interval ends 1 s after it
    began, no error). -#}
{% macro add_millis(ms, ts) %}{{ return(adapter.dispatch('add_millis')(ms, ts)) }}{% endmacro %}
{% macro default__add_millis(ms, ts) %}{{ dbt.dateadd('millisecond', ms, ts) }}{% endmacro %}
{% macro spark__add_millis(ms, ts) %}timestamp_millis(unix_millis(cast({{ ts }} as timestamp)) + ({{ ms }})){% endmacro %}
