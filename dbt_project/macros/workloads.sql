{#-
    Workload assignment (seed workload_definitions). A glob pattern becomes a LIKE pattern with `!` as
    the escape character, so that `_` and `%` in names match themselves and `*`, `?` are the only
    wildcards (`!` because a backslash means different things in DuckDB and Spark string literals).
-#}

{% macro glob_matches(name, pattern) -%}
    {{ name }} like replace(replace(replace(replace(replace({{ pattern }}, '!', '!!'), '%', '!%'), '_', '!_'), '*', '%'), '?', '_') escape '!'
{%- endmacro %}

{#-
    The workload of every entity of the CTE `entities` (platform, primary_source, primary_name,
    secondary_source, secondary_name; the secondary pair may be NULL) by the seed workload_definitions:
    of the rows that match either of an entity's names, the highest priority wins, then the longest
    pattern; an entity no row matches is `unassigned`. Returns the entity's columns, workload and the
    pattern that matched. The one home of the rule (int_workload__entity, fct_zos_work_hourly,
    fct_workload_tcp_hourly). `carried`: columns of `entities` that say where an entity was measured
    (e.g. system and day), returned with it.
-#}
{% macro workload_of_entities(entities, carried=[]) -%}
    {%- set keys = carried + ['platform', 'primary_source', 'primary_name', 'secondary_source', 'secondary_name'] %}
    select
        {% for k in keys %}e.{{ k }}, {% endfor %}
        coalesce(c.workload, 'unassigned') as workload,
        c.pattern as matched_pattern
    from {{ entities }} as e
    left join (
        select
            {% for k in keys %}e.{{ k }}, {% endfor %}
            d.workload,
            d.pattern,
            row_number() over (
                partition by {% for k in keys %}e.{{ k }}{% if not loop.last %}, {% endif %}{% endfor %}
                order by coalesce(d.priority, -1) desc, length(d.pattern) desc, d.pattern
            ) as preference
        from {{ entities }} as e
        inner join {{ ref('workload_definitions') }} as d
            on d.platform = e.platform
            and (
                (d.source = e.primary_source and {{ glob_matches('e.primary_name', 'd.pattern') }})
                or (d.source = e.secondary_source and {{ glob_matches('e.secondary_name', 'd.pattern') }})
            )
    ) as c
        on c.preference = 1
        {%- for k in keys %}
        and {{ null_safe_equal('c.' ~ k, 'e.' ~ k) }}
        {%- endfor %}
{%- endmacro %}

{#- a = b, or both NULL -#}
{% macro null_safe_equal(a, b) -%}
    ({{ a }} = {{ b }} or ({{ a }} is null and {{ b }} is null))
{%- endmacro %}

{#- The additive measures of workload rows, summed over the rows a period condenses. -#}
{% macro workload_sums() -%}
    sum(cpu_s) as cpu_s,
        sum(ziip_s) as ziip_s,
        sum(transactions) as transactions,
        sum(io_count) as io_count,
        sum(elapsed_s) as elapsed_s
{%- endmacro %}

{#- A workload row's share of its system's CPU in its period, and what a transaction of it costs. -#}
{% macro workload_ratios(period_columns) -%}
    100 * cpu_s / nullif(sum(cpu_s) over (partition by platform, system_name, {{ period_columns | join(', ') }}), 0)
        as cpu_share_pct,
    1000 * cpu_s / nullif(transactions, 0) as cpu_ms_per_transaction,
    cast(io_count as double) / nullif(transactions, 0) as io_per_transaction
{%- endmacro %}

{#- The workload of a measured row: int_workload__entity (alias e) of the row's system and day, matched
    on the entity's platform, source and name. ``conditions`` are further `and` terms (e.g. the secondary
    name). -#}
{% macro join_workload_entity(system, time, platform, primary_source, primary_name, conditions=[]) -%}
    inner join {{ ref('int_workload__entity') }} as e
        on e.system_name = {{ system }}
        and e.day = cast({{ time }} as date)
        and e.platform = '{{ platform }}'
        and e.primary_source = '{{ primary_source }}'
        and e.primary_name = {{ primary_name }}
        {%- for condition in conditions %}
        and {{ condition }}
        {%- endfor %}
{%- endmacro %}

{#- WLM execution velocity, % (z/OS MVS Planning: Workload Management; R723CTOU / (R723CTOU + R723CTOT) of
    SMF 72.3): the using samples among the using and delay samples. -#}
{% macro wlm_velocity(using_samples, delay_samples) -%}
    100 * cast({{ using_samples }} as double) / nullif({{ using_samples }} + {{ delay_samples }}, 0)
{%- endmacro %}

{#- RMF's response time distribution (SMF 72.3, R723TRDB): 14 buckets of transactions ended, bounded at these
    fractions of the goal (the midpoint R723RTDM of a response time goal); the 14th, above 400 %, has no bound. -#}
{% macro rt_bucket_bounds() -%}
    {{ return([0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 2.0, 4.0]) }}
{%- endmacro %}

{#- The bucket columns, rt_bucket_01 .. rt_bucket_14. -#}
{% macro rt_buckets() -%}
    {%- set names = [] -%}
    {%- for k in range(1, rt_bucket_bounds() | length + 2) -%}
        {%- do names.append('rt_bucket_%02d' | format(k)) -%}
    {%- endfor -%}
    {{ return(names) }}
{%- endmacro %}

{#- The performance index of a percentile response time goal (e.g. 90 % of the transactions within 0.5 s)
    from the response time distribution: the bound, as a fraction of the goal, of the first bucket at which
    the goal's percentile of the ended transactions have ended (M. Packer, "A Slice Of PI", 2019: WLM's
    calculation; the buckets as in the SMF manual's response time distribution data section). 90 % within
    the 110 % bucket is an index of 1.1. Reached only in the last bucket, above 400 %, the index is 4.0, the
    last bound: the distribution cannot say how far above it. NULL when no transaction ended. -#}
{% macro wlm_percentile_index(goal_percentile) -%}
    {%- set buckets = rt_buckets() -%}
    case
        when coalesce({{ buckets | join(' + ') }}, 0) = 0 then null
        {%- for bound in rt_bucket_bounds() %}
        when 100 * ({{ buckets[:loop.index] | join(' + ') }}) >= {{ goal_percentile }} * ({{ buckets | join(' + ') }}) then cast({{ bound }} as double)
        {%- endfor %}
        else cast({{ rt_bucket_bounds() | last }} as double)
    end
{%- endmacro %}

{#- The performance index of a WLM goal from what was achieved: goal / achieved for a velocity, achieved /
    goal for an average response time, from the response time distribution for a percentile goal (above);
    NULL for discretionary and system goals (no index) and where nothing was achieved (no transaction
    ended, no sample: nothing to compare; a velocity of 0 has no finite index). -#}
{% macro wlm_performance_index(goal_type, goal_value, goal_percentile, velocity, response_s) -%}
    case
        when {{ goal_type }} = 'velocity' then {{ goal_value }} / nullif({{ velocity }}, 0)
        when {{ goal_type }} = 'average response time' then {{ response_s }} / {{ goal_value }}
        when {{ goal_type }} = 'percentile response time' then {{ wlm_percentile_index(goal_percentile) }}
    end
{%- endmacro %}
