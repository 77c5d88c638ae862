{#-
    Local civil time and UTC. A source that stamps local time without an offset (MEASURE) gets its instants
    from the system's IANA zone (seed system_time_zones). Neither engine shares a function for it, so
    utc_to_local has one implementation per adapter and local_to_utc is written with it alone.
-#}

{#- The wall-clock time in `zone` of the naive UTC instant `utc` (both naive timestamps). -#}
{% macro utc_to_local(utc, zone) %}{{ return(adapter.dispatch('utc_to_local')(utc, zone)) }}{% endmacro %}
{#- timezone('UTC', ts) reads the naive value as a UTC instant whatever the session's zone; timezone(zone, tstz)
    gives that instant's wall clock in the zone (ICU, built into DuckDB). -#}
{% macro default__utc_to_local(utc, zone) %}timezone({{ zone }}, timezone('UTC', {{ utc }})){% endmacro %}
{% macro spark__utc_to_local(utc, zone) %}from_utc_timestamp(cast({{ utc }} as timestamp), {{ zone }}){% endmacro %}

{#- The zone's offset (seconds, local minus UTC) at the UTC instant `utc`. -#}
{% macro utc_offset_s(utc, zone) -%}
    {{ dbt.datediff(utc, utc_to_local(utc, zone), 'second') }}
{%- endmacro %}

{#- `relation` (a subquery or table with the columns `local_ts`, `zone` and `pass`) with interval_start_utc: the
    UTC instant of the local wall-clock time `local_ts` in `zone` (NULL zone: the system keeps UTC). A time has
    at most two offsets near it (zones change offset months apart): the zone's offsets 15 hours before and
    after bracket it. Each gives a candidate instant; a candidate whose wall clock is `local_ts` again is a
    real one. Both are real in the hour a fall-back day repeats: `pass` (1 for the first record of a file at
    that local time, 2 for the next) says which, the first pass being the earlier instant. Neither is real in
    the hour a spring-forward day skips: the offset after the change is taken. Computed in steps, one column
    of the step before in each: written as one nested expression it grew past the 32,700 characters a view's
    text may hold in Spark's metastore. -#}
{% macro with_utc_start(relation, local_ts, zone, pass) -%}
    (select
        candidates.*,
        case
            when candidates.{{ zone }} is null then candidates.{{ local_ts }}
            when candidates.utc_by_offset_before = candidates.utc_by_offset_after then candidates.utc_by_offset_before
            when {{ utc_to_local('candidates.utc_by_offset_before', 'candidates.' ~ zone) }} <> candidates.{{ local_ts }}
                then candidates.utc_by_offset_after
            when {{ utc_to_local('candidates.utc_by_offset_after', 'candidates.' ~ zone) }} <> candidates.{{ local_ts }}
                then candidates.utc_by_offset_before
            when candidates.{{ pass }} = 1 then least(candidates.utc_by_offset_before, candidates.utc_by_offset_after)
            else greatest(candidates.utc_by_offset_before, candidates.utc_by_offset_after)
        end as interval_start_utc
    from (
        select
            offsets.*,
            {{ add_millis('-1000 * offsets.offset_before_s', 'offsets.' ~ local_ts) }} as utc_by_offset_before,
            {{ add_millis('-1000 * offsets.offset_after_s', 'offsets.' ~ local_ts) }} as utc_by_offset_after
        from (
            select
                bracketed.*,
                {{ utc_offset_s('bracketed.instant_before', 'bracketed.' ~ zone) }} as offset_before_s,
                {{ utc_offset_s('bracketed.instant_after', 'bracketed.' ~ zone) }} as offset_after_s
            from (
                select
                    zoned.*,
                    {{ add_millis(-54000000, 'zoned.' ~ local_ts) }} as instant_before,
                    {{ add_millis(54000000, 'zoned.' ~ local_ts) }} as instant_after
                from {{ relation }} as zoned
            ) as bracketed
        ) as offsets
    ) as candidates)
{%- endmacro %}

{#- The UTC instant of the local clock hour an interval starts in: the hour less the interval's offset (so a
    zone half an hour off UTC keeps clock hours). A fall-back day's repeated clock hour is two of them. -#}
{% macro hour_start_utc(interval_start, interval_start_utc) -%}
    {{ add_millis(
        '1000 * ' ~ dbt.datediff(interval_start, interval_start_utc, 'second'),
        dbt.date_trunc('hour', interval_start)
    ) }}
{%- endmacro %}
