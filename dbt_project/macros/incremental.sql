{#-
    Day models: the models whose rows belong to a (system, day) are incremental. A build rebuilds only
    the periods containing the days in build_touched_days (files loaded since the last successful build,
    files removed since), with dbt's incremental materialization and the strategy `touched` below:

        {{ config(materialized='incremental', unique_key=['system_name', 'hour_start']) }}
        ... from {{ ref('int_cpu__interval') }} where {{ touched('system_name', 'interval_start', 'day') }}

    `touched` and the grain `day` are every model's defaults (dbt_project.yml); another grain is set in the
    model's config, meta={'touched_grain': 'week'}.
    unique_key names the model's system column and its period column; the grain says what the period is:
    `day` (a timestamp or date whose day is the period), `shift_date` (a shift's date: a day's hours may
    belong to the shift of the day before; or a timestamp whose day a record of the next day may change,
    e.g. an SMF 30 interval written just after midnight), `week` (a date, the Monday of an ISO week), `month` (a date,
    first of the month) or `year` (an integer). `day_and_next` is a day whose rows also depend on the last hours
    of the day before (a rolling average over hours): a touched day rebuilds it and the day after, and the
    model reads its input from the day before the first of them (touched_rows_with_lookback);
    `day_and_next_month` is the month (a date, first of the month) of such a day or of the day after.
    A model whose rows belong to a group of systems (the z/OS images of a CPC) names in meta touched_via the
    model that maps a system to its group: {'model': ..., 'system': system column, 'group': group column};
    its touched periods are those of the groups of the touched systems, and its system column is the group's.
    The filter and the delete read the same touched set, so the rows deleted are exactly the rows rebuilt,
    also where a removed file leaves a period with no rows at all (which delete+insert would miss).
    A first build, and `perfdb build --full-refresh`, build everything: the filter is then `1 = 1`.
-#}

{#- The touched periods of a grain, as (touched_system, touched_period): names no model has, so that a
    model's unqualified columns in touched()'s correlated subquery mean the model's. A day or a shift that
    holds a day whose raw files retention purged (build_purged_days) is never touched: rebuilt from the raw
    or hourly detail, it would hold only what is left of it (a late file for a purged day stays out of the
    marts). Weeks, months and years are condensed from shift rows, which are kept forever: those rebuild. -#}
{% macro touched_periods(grain) %}
    {%- set via = config.get('meta', {}).get('touched_via') if model.resource_type != 'unit_test' else none %}
    {%- if via %}
    select distinct members.{{ via['group'] }} as touched_system, systems.touched_period
    from ({{ system_periods(grain) }}) as systems
    inner join (select distinct {{ via['system'] }}, {{ via['group'] }} from {{ ref(via['model']) }}) as members
        on members.{{ via['system'] }} = systems.touched_system
    where members.{{ via['group'] }} is not null
    {%- else %}
    {{ system_periods(grain) }}
    {%- endif %}
{% endmacro %}

{% macro system_periods(grain) %}
    select touched_system, touched_period from ({{ periods_of('select system_name, day from ' ~ ref('build_touched_days'), grain) }}) as touched
    {%- if grain in ['day', 'shift_date', 'day_and_next', 'day_and_next_month'] %}
    except
    select touched_system, touched_period from ({{ periods_of('select system_name, day from ' ~ ref('build_purged_days'), grain) }}) as purged
    {%- endif %}
{% endmacro %}

{#- The periods of a grain that hold the (system_name, day) rows of ``days``. -#}
{% macro periods_of(days, grain) %}
    {%- set shift_dates -%}
        select system_name, day as period from ({{ days }}) as touched_days
        union
        select system_name, cast({{ dbt.dateadd('day', -1, 'day') }} as date) as period from ({{ days }}) as touched_days
    {%- endset -%}
    {%- if grain == 'day' -%}
        select system_name as touched_system, day as touched_period from ({{ days }}) as touched_days
    {%- elif grain == 'day_and_next' -%}
        select system_name as touched_system, day as touched_period from ({{ days }}) as touched_days
        union
        select system_name, cast({{ dbt.dateadd('day', 1, 'day') }} as date) from ({{ days }}) as touched_days
    {%- elif grain == 'day_and_next_month' -%}
        select distinct touched_system, cast({{ dbt.date_trunc('month', 'touched_period') }} as date) as touched_period
        from ({{ periods_of(days, 'day_and_next') }}) as touched_days
    {%- elif grain == 'shift_date' -%}
        select system_name as touched_system, period as touched_period from ({{ shift_dates }}) as touched_shift_dates
    {%- elif grain in ['week', 'month'] -%}
        select distinct system_name as touched_system, cast({{ dbt.date_trunc(grain, 'period') }} as date) as touched_period
        from ({{ shift_dates }}) as touched_shift_dates
    {%- elif grain == 'year' -%}
        select distinct system_name as touched_system, cast(extract(year from period) as integer) as touched_period
        from ({{ shift_dates }}) as touched_shift_dates
    {%- else -%}
        {{ exceptions.raise_compiler_error("touched: grain must be day, day_and_next, day_and_next_month, shift_date, week, month or year, not " ~ grain) }}
    {%- endif -%}
{% endmacro %}

{#- A row's period as the touched set holds it: the day of a `day` or `shift_date` period, the period itself
    otherwise. -#}
{% macro touched_period_of(column, grain) -%}
    {%- if grain in ['day', 'shift_date', 'day_and_next'] -%} cast({{ column }} as date) {%- else -%} {{ column }} {%- endif -%}
{%- endmacro %}

{#- The where condition of a day model's input: its rows of touched periods (every row on a full build).
    ref() is called whatever the mode, so that dbt sees the dependency when it parses the model; not in
    a unit test, whose given rows are the model's whole input (and which is never incremental). -#}
{#- Whether this build of the model rebuilds the touched periods only: an incremental build, not a first or a
    full one, nor a unit test. Compiling with --no-introspect (no warehouse to ask whether the model exists)
    renders the full build. -#}
{% macro touched_build() -%}
    {{ return(model.resource_type != 'unit_test' and flags.INTROSPECT and is_incremental()) }}
{%- endmacro %}

{% macro touched(system_column, period_column, grain) -%}
    {%- set unit_test = model.resource_type == 'unit_test' -%}
    {%- if not unit_test -%}
        {%- set touched_days = ref('build_touched_days') -%}
        {%- set purged_days = ref('build_purged_days') -%}
    {%- endif -%}
    {%- if touched_build() -%}
    exists (
        select 1 from ({{ touched_periods(grain) }}) as touched_periods
        where touched_periods.touched_system = {{ system_column }}
            and touched_periods.touched_period = {{ touched_period_of(period_column, grain) }}
    )
    {%- else -%}
    1 = 1
    {%- endif -%}
{%- endmacro %}

{#- A day model's input: the rows of ``relation`` in the touched periods. -#}
{% macro touched_rows(relation, system_column, period_column, grain='day') -%}
    select * from {{ relation }}
    where {{ touched(system_column, period_column, grain) }}
{%- endmacro %}

{#- The rows of ``relation`` a `day_and_next` model needs: those of the days it rebuilds (a touched day and the
    day after) and of the day before each, whose last hours the rolling window of the first ones reaches back to. -#}
{% macro touched_rows_with_lookback(relation, system_column, period_column) -%}
    select * from {{ relation }}
    where {{ touched(system_column, period_column, 'day_and_next') }}
        or {{ touched(system_column, dbt.dateadd('day', 1, period_column), 'day_and_next') }}
{%- endmacro %}

{#- The incremental strategy `touched`: the target's rows of the touched periods deleted, the rows
    rebuilt for them inserted, in the model's transaction. -#}
{% macro get_incremental_touched_sql(arg_dict) %}
    {%- set target = arg_dict['target_relation'] -%}
    {%- set unique_key = arg_dict['unique_key'] -%}
    {%- set grain = config.get('meta', {}).get('touched_grain') -%}
    {%- if unique_key is string or unique_key | length != 2 or not grain -%}
        {{ exceptions.raise_compiler_error("incremental_strategy 'touched' needs unique_key [system column, period column] and meta touched_grain") }}
    {%- endif -%}
    {%- set columns = get_quoted_csv(arg_dict['dest_columns'] | map(attribute='name')) -%}
    delete from {{ target }}
    where exists (
        select 1 from ({{ touched_periods(grain) }}) as touched_periods
        where touched_periods.touched_system = {{ target }}.{{ unique_key[0] }}
            and touched_periods.touched_period = {{ touched_period_of(target ~ '.' ~ unique_key[1], grain) }}
    );
    insert into {{ target }} ({{ columns }})
    select {{ columns }} from {{ arg_dict['temp_relation'] }}
{% endmacro %}

{#- audit.builds: the builds that completed, created before anything reads it. -#}
{% macro create_build_log() %}{{ return(adapter.dispatch('create_build_log')()) }}{% endmacro %}

{% macro default__create_build_log() %}
    create schema if not exists audit;
    create table if not exists audit.builds (
        last_file_id bigint not null,
        started_at timestamp not null,
        finished_at timestamp not null,
        full_refresh boolean not null
    )
{% endmacro %}

{#- On Spark (dbt has created schema audit by then): one statement per hook, and a Parquet table, which
    takes no constraints. Every Spark build is a full refresh (ingest/lake/pipeline.py): the log records it. -#}
{% macro spark__create_build_log() %}
    create table if not exists audit.builds (
        last_file_id bigint,
        started_at timestamp,
        finished_at timestamp,
        full_refresh boolean
    ) using parquet
{% endmacro %}

{#- on-run-end: a build that ran every model (no --select, no --exclude) and in which nothing failed or
    was skipped records its high-water mark; otherwise the next build rebuilds these days again. -#}
{% macro record_build(results) %}
    {%- if execute and flags.WHICH in ['build', 'run'] and not invocation_args_dict.get('select')
            and not invocation_args_dict.get('exclude') -%}
        {%- set bad = [] -%}
        {%- for result in results if result.status in ['error', 'fail', 'skipped', 'runtime error'] -%}
            {%- do bad.append(result.node.unique_id) -%}
        {%- endfor -%}
        {%- if not bad -%}
    insert into audit.builds (last_file_id, started_at, finished_at, full_refresh)
    select last_file_id, started_at, cast(current_timestamp as timestamp), {{ 'true' if flags.FULL_REFRESH or var('rebuild_kept', false) else 'false' }}
    from audit.build_high_water
        {%- endif -%}
    {%- endif -%}
{% endmacro %}

{#- On Spark every build of a day model is a full one (`perfdb build --target spark` passes --full-refresh:
    the delete of strategy `touched` is not possible on a Parquet table), so dbt-spark's check of the
    strategy lets `touched` through; were a Spark build ever incremental, dbt-spark stops it with "No known
    SQL for the incremental strategy provided: touched" before any statement runs. -#}
{% macro dbt_spark_validate_get_incremental_strategy(raw_strategy, file_format) %}
    {%- if raw_strategy == 'touched' -%}
        {{ return(raw_strategy) }}
    {%- endif -%}
    {{ return(dbt.dbt_spark_validate_get_incremental_strategy(raw_strategy, file_format)) }}
{% endmacro %}
