-- Issue 28: the distribution of each hourly measure of distribution_measures() (macros/distributions.sql)
-- per system, resource, entity and calendar day, as hours per fixed bucket, with each bucket's sum and
-- maximum of the values (so that avg and max merge exactly). Kept forever: weeks, months and years sum
-- the buckets of their days (fct_busy_percentiles_*), also after retention purged the hours. Every hour
-- of the day counts, inside a shift or not; an hour whose value is NULL (nothing measured) does not.
-- A day model (macros/incremental.sql): a day whose raw files were purged keeps its rows as built.
{{ config(materialized='incremental', unique_key=['system_name', 'day']) }}
{%- set measures = distribution_measures() %}
with hours as (
    {%- for resource, m in measures.items() %}
    select
        system_name,
        '{{ resource }}' as resource,
        {{ m['entity'] }} as entity,
        '{{ m['unit'] }}' as unit,
        cast(hour_start as date) as day,
        {{ bucket_index(m['value'], m['scale']) }} as bucket_index,
        {{ bucket_lower(bucket_index(m['value'], m['scale']), m['scale']) }} as bucket_lower,
        {{ bucket_upper(bucket_index(m['value'], m['scale']), m['scale']) }} as bucket_upper,
        {{ m['value'] }} as value
    from {{ ref(m['model']) }}
    where {{ m['value'] }} is not null
        and {{ touched('system_name', 'hour_start', 'day') }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select
    system_name, resource, entity, day, bucket_index,
    max(unit) as unit,
    max(bucket_lower) as bucket_lower,
    max(bucket_upper) as bucket_upper,
    cast(count(*) as {{ dbt.type_bigint() }}) as hours,
    sum(value) as value_sum,
    max(value) as value_max
from hours
group by system_name, resource, entity, day, bucket_index
