-- What a workload growth does to each resource (Evans, seed 001 L1833: what-if runs at +/-10 % or
-- 15 %; the factors are the dbt var capacity_whatif_growth): the current peak utilization (the mean of
-- the last capacity_current_days daily peaks, from fct_capacity_forecast) scaled by the growth, and the
-- response time it implies in units of the service time, by an M/M/c model with the resource's servers
-- (one for a processor, disc or line; all processors for the processor pool; macros/queueing.sql).
-- doubling_utilization_pct is where R / S reaches 2 (50 % for one server), for information: the grade is
-- the projection against the resource's available capacity (macros/capacity_grades.sql), as in every
-- what-if.
{%- set growth_factors = var('capacity_whatif_growth', [-0.15, -0.10, 0.10, 0.15]) %}

with resources as (
    {{ whatif_resources() }}
),

growth as (
    select cast(factor as double) as growth
    from (values {% for g in growth_factors %}({{ g }}){% if not loop.last %}, {% endif %}{% endfor %}) as factors(factor)
),

grid as (
    select n / 10000.0 as u from ({{ integer_range(1, 10000, 'n') }}) as steps
),

doubling as (
    -- per number of servers, the lowest utilization (to 0.01 %) at which R / S reaches 2
    select servers, min(u) as doubling_utilization
    from (select distinct servers from resources) as s
    cross join grid
    where {{ mmc_response_factor('s.servers', 'grid.u') }} >= 2
    group by servers
),

scenarios as (
    select
        resources.*,
        growth.growth,
        resources.utilization * (1 + growth.growth) as projected_utilization
    from resources
    cross join growth
)

select
    resource_type,
    system_name,
    resource_name,
    shift,
    scenarios.servers,
    threshold_pct,
    threshold_upper_pct,
    growth * 100 as growth_pct,
    utilization * 100 as current_utilization_pct,
    projected_utilization * 100 as projected_utilization_pct,
    {{ mmc_response_factor('scenarios.servers', 'utilization') }} as response_factor,
    {{ mmc_response_factor('scenarios.servers', 'projected_utilization') }} as projected_response_factor,
    doubling.doubling_utilization * 100 as doubling_utilization_pct,
    {{ capacity_grade('100 * projected_utilization', 'threshold_pct', 'threshold_upper_pct') }} as assessment
from scenarios
left join doubling on doubling.servers = scenarios.servers
