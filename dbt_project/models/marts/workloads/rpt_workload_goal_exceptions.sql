-- The shifts in which a service class period missed its WLM goal (performance index above 1), with the
-- goal's importance so that a planner reads the importance-1 misses first (rank 1 within the system's
-- shift: the most important goal, then the worst index). Read from the shift facts, which retention
-- keeps.
select
    system_name,
    shift_date,
    shift,
    shift_name,
    importance,
    workload_name,
    class_name,
    period_number,
    goal_type,
    goal_value,
    velocity,
    response_s,
    performance_index,
    row_number() over (
        partition by system_name, shift_date, shift
        order by importance, performance_index desc, class_name, period_number
    ) as miss_rank
from {{ ref('fct_workload_goal_shift') }}
where performance_index > 1
