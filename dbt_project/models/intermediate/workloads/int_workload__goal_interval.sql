-- WLM goals and how well each service class period met them, per system and RMF interval (SMF 72.3),
-- as RMF's workload activity report shows them: the goal (velocity %, or response time in seconds from
-- R723CVAL in the unit of R723CRTF), its importance, what was achieved and the performance index.
-- Report classes have no goal and are left out. The samples and times are kept so that a shift's index
-- is computed from their sums (fct_workload_goal_shift). A day model (macros/incremental.sql).
{{ config(materialized='incremental', unique_key=['system_name', 'interval_start'], meta={'retention': 'interval'}) }}
with periods as (
    select
        system_id as system_name,
        interval_start,
        -- a fall-back day's repeated hour holds two intervals of each local start
        interval_start_utc,
        {{ dbt.date_trunc('hour', 'interval_start') }} as hour_start,
        interval_s,
        policy_name,
        workload_name,
        class_name,
        period_number,
        importance,
        goal_type,
        coalesce(cast(goal_velocity as double), goal_response_s) as goal_value,
        goal_percentile,
        using_samples,
        delay_samples,
        transactions,
        elapsed_s,
        {{ rt_buckets() | join(',\n        ') }}
    from {{ ref('stg_smf__workload_period') }}
    where not is_report_class
        and {{ touched('system_id', 'interval_start', 'day') }}
),

achieved as (
    select
        *,
        case when goal_type = 'velocity' then {{ wlm_velocity('using_samples', 'delay_samples') }} end as velocity,
        case when goal_type like '%response time' then elapsed_s / nullif(transactions, 0) end as response_s
    from ({{ with_shift('periods') }}) as shifted
)

select
    *,
    {{ wlm_performance_index('goal_type', 'goal_value', 'goal_percentile', 'velocity', 'response_s') }} as performance_index
from achieved
