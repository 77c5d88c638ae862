-- What a workload growth does to each resource (Evans, seed 001 L1833: what-if runs at +/-10 % or
-- 15 %; the factors are the dbt var capacity_whatif_growth): the current peak utilization (the mean of
-- the last capacity_current_days daily peaks, from fct_capacity_forecast) scaled by the growth, and the
-- response time it implies in units of the service time, by an M/M/c model with the resource's servers
-- (one for a processor, disc or line; all processors for the processor pool):
--     one server:   R / S = 1 / (1 - U)
--     c servers:    R / S = 1 + C(c, cU) / (c (1 - U)),  C = Erlang C
-- The documents give no queueing formula (notes 001b §6.3); these are the textbook ones (Kleinrock
-- 1975). doubling_utilization_pct is where R / S reaches 2 (50 % for one server).
{%- set growth_factors = var('capacity_whatif_growth', [-0.15, -0.10, 0.10, 0.15]) %}

{#- R / S for __C__ servers each busy __U__ (a fraction below 1); the Erlang C sum runs over k = 0 .. c-1 of
    a^k / k! with a = c u, written as exp(k ln a - ln k!) so it never overflows. -#}
{%- set response_factor = "case
        when __U__ >= 1 then null
        when __U__ <= 0 then 1.0
        when __C__ = 1 then 1 / (1 - __U__)
        else 1 + (
            exp(__C__ * ln(__C__ * __U__) - " ~ ln_factorial('__C__') ~ ") / (1 - __U__)
            / (" ~ erlang_terms('__C__', '__C__ * __U__') ~ "
                + exp(__C__ * ln(__C__ * __U__) - " ~ ln_factorial('__C__') ~ ") / (1 - __U__))
        ) / (__C__ * (1 - __U__))
    end" %}

with resources as (
    select
        resource_type,
        system_name,
        resource_name,
        shift,
        cast(servers as integer) as servers,
        threshold_pct,
        current_peak_pct / 100 as utilization
    from {{ ref('fct_capacity_forecast') }}
    where current_peak_pct is not null
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
    where {{ response_factor | replace('__C__', 's.servers') | replace('__U__', 'grid.u') }} >= 2
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
    growth * 100 as growth_pct,
    utilization * 100 as current_utilization_pct,
    projected_utilization * 100 as projected_utilization_pct,
    {{ response_factor | replace('__C__', 'scenarios.servers') | replace('__U__', 'utilization') }} as response_factor,
    {{ response_factor | replace('__C__', 'scenarios.servers') | replace('__U__', 'projected_utilization') }} as projected_response_factor,
    doubling.doubling_utilization * 100 as doubling_utilization_pct,
    case
        when projected_utilization >= 1 then 'saturated: demand exceeds capacity, no steady state'
        when projected_utilization * 100 > threshold_pct then 'above the threshold'
        when projected_utilization >= doubling.doubling_utilization then 'response time more than doubled'
        else 'within capacity'
    end as assessment
from scenarios
left join doubling on doubling.servers = scenarios.servers
