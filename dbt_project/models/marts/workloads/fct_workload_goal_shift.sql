-- WLM goal attainment per system, shift date, shift and service class period (SMF 72.3): the interval
-- rows of int_workload__goal_interval condensed. The shift's velocity, response time and response time
-- distribution are its summed samples, elapsed times, transactions and bucket counts, and its performance
-- index is computed from them as RMF computes an interval's: an average of the intervals' indexes would
-- weigh a quiet interval (a few samples, a few transactions) as much as a busy one, and an index is not
-- additive (velocity's is goal / achieved, a percentile's a bucket bound).
-- A day model of shift dates (macros/incremental.sql).
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
with shifts as (
    select
        system_name,
        shift_date,
        shift,
        max(shift_name) as shift_name,
        policy_name,
        max(workload_name) as workload_name,
        class_name,
        period_number,
        goal_type,
        goal_value,
        goal_percentile,
        importance,
        count(*) as n_intervals,
        sum(using_samples) as using_samples,
        sum(delay_samples) as delay_samples,
        sum(transactions) as transactions,
        sum(elapsed_s) as elapsed_s,
        {%- for bucket in rt_buckets() %}
        sum({{ bucket }}) as {{ bucket }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ ref('int_workload__goal_interval') }}
    where shift is not null
        and {{ touched('system_name', 'shift_date', 'shift_date') }}
    group by
        system_name, shift_date, shift, policy_name, class_name, period_number, goal_type, goal_value, goal_percentile,
        importance
),

achieved as (
    select
        *,
        case when goal_type = 'velocity' then {{ wlm_velocity('using_samples', 'delay_samples') }} end as velocity,
        case when goal_type like '%response time' then elapsed_s / nullif(transactions, 0) end as response_s
    from shifts
)

select
    *,
    {{ wlm_performance_index('goal_type', 'goal_value', 'goal_percentile', 'velocity', 'response_s') }} as performance_index
from achieved
