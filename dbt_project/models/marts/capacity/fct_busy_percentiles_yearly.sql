-- Issue 28: p50/p90/p95/p99 of the hours of a calendar year beside their avg and max, per system, resource
-- and entity, from the day distributions summed (macros/distributions.sql).
{{ merged_percentiles(ref('fct_busy_distribution_day'), 'cast(extract(year from day) as integer)', 'year') }}
