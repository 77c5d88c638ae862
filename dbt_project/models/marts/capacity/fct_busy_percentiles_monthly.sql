-- Issue 28: p50/p90/p95/p99 of the hours of a calendar month beside their avg and max, per system, resource
-- and entity, from the day distributions summed (macros/distributions.sql): available after retention purged
-- the hours. A percentile is the upper bound of the bucket holding the hour of its rank.
{{ merged_percentiles(ref('fct_busy_distribution_day'), 'cast(' ~ dbt.date_trunc('month', 'day') ~ ' as date)', 'month') }}
