-- What-if by business driver (growth of a named business volume, in the transactions it makes): each
-- scenario of the seed capacity_scenarios grows drivers of the seed business_drivers, and the growth
-- reaches the processors through the workloads the drivers make transactions in.
-- For a workload w over the last capacity_current_days days of measurements:
--   driven share  = min(1, units a day x transactions per unit / w's measured transactions a day)
--   w's growth    = sum over the scenario's drivers of growth x driven share
-- (w's transactions a day are those of all its systems; the transactions the scenario's drivers do
-- not make do not grow; a workload with no measured transactions does not grow), and each processor,
-- as in rpt_capacity_whatif_workload, moves by the shares of its time the growing workloads have:
--   U' = U x (1 + sum over w of w's growth x w's share of that processor)
-- (of all the system's processors for the processor pool), with the response time of the M/M/c model
-- (macros/queueing.sql) and the grade against the resource's available capacity
-- (macros/capacity_grades.sql). Uniform growth g
-- (rpt_capacity_whatif) is the case of every workload growing g. baseline_validated as in
-- rpt_capacity_whatif_workload.
{%- set current_days = var('capacity_current_days', 7) %}

with resources as (
    {{ whatif_validated_resources(['cpu', 'processor_pool']) }}
),

{{ recent_workload_shares(current_days) }},

workload_volumes as (
    select workload, sum(transactions_per_day) as transactions_per_day
    from workload_shares
    group by workload
),

workload_growth as (
    select
        s.scenario,
        d.workload,
        sum(s.growth_pct / 100
            * least(1.0, s.units_per_day * d.transactions_per_unit / v.transactions_per_day)) as growth
    from {{ ref('capacity_scenarios') }} as s
    inner join {{ ref('business_drivers') }} as d
        on d.driver = s.driver
    inner join workload_volumes as v
        on v.workload = d.workload
        and v.transactions_per_day > 0
    group by s.scenario, d.workload
),

resource_growth as (
    select
        g.scenario,
        resources.resource_type,
        resources.system_name,
        resources.resource_name,
        resources.shift,
        sum(g.growth * shares.share) as growth
    from workload_growth as g
    cross join resources
    inner join resource_shares as shares
        on {{ whatif_share_of('shares', 'resources', 'g.workload') }}
    group by g.scenario, resources.resource_type, resources.system_name, resources.resource_name, resources.shift
),

projections as (
    select
        scenarios.scenario,
        resources.*,
        coalesce(resource_growth.growth, 0) as growth,
        resources.utilization * (1 + coalesce(resource_growth.growth, 0)) as projected_utilization
    from (select distinct scenario from {{ ref('capacity_scenarios') }}) as scenarios
    cross join resources
    left join resource_growth
        on resource_growth.scenario = scenarios.scenario
        and resource_growth.resource_type = resources.resource_type
        and resource_growth.system_name = resources.system_name
        and resource_growth.resource_name = resources.resource_name
        and resource_growth.shift is not distinct from resources.shift
)

select
    scenario,
    round(100 * growth, 4) as utilization_growth_pct,
    {{ whatif_projection_columns() }},
    baseline_validated,
    baseline_note
from projections
