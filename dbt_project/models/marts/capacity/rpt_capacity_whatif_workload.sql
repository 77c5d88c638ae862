-- What-if by workload (issue: growth per workload, not uniform): each workload of fct_workload_hourly
-- grown by capacity_whatif_workload_growth (default +15 %), one workload at a time (all of them, or
-- those listed in capacity_whatif_workloads). A workload's growth moves only the processors of the
-- systems it runs on, in proportion to its share of their CPU over the last capacity_current_days
-- days:   U' = U x (1 + growth x share)
-- and the response time follows by the M/M/c model of rpt_capacity_whatif (macros/queueing.sql);
-- rpt_capacity_whatif's uniform growth is the case share = 1. The assessment grades the projection
-- against the documents' rule of keeping 20-30 % of capacity available (70-80 % busy), not against
-- response-time doubling (50 % busy for one server). zIIPs are scaled with the workload's CP share.
{%- set growth = var('capacity_whatif_workload_growth', 0.15) %}
{%- set chosen = var('capacity_whatif_workloads', []) %}
{%- set current_days = var('capacity_current_days', 7) %}

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
        and resource_type in ('cpu', 'processor_pool')
),

recent as (
    select w.system_name, w.workload, w.cpu_s
    from {{ ref('fct_workload_hourly') }} as w
    inner join (
        select system_name, max(hour_start) as last_hour
        from {{ ref('fct_workload_hourly') }}
        group by system_name
    ) as latest
        on latest.system_name = w.system_name
        and w.hour_start > {{ dbt.dateadd('day', -current_days, 'latest.last_hour') }}
),

shares as (
    select
        system_name,
        workload,
        sum(cpu_s) / sum(sum(cpu_s)) over (partition by system_name) as share
    from recent
    group by system_name, workload
),

workloads as (
    select distinct workload
    from shares
    {%- if chosen %}
    where workload in ('{{ chosen | join("', '") }}')
    {%- endif %}
),

scenarios as (
    select
        workloads.workload,
        resources.*,
        coalesce(shares.share, 0) as share,
        resources.utilization * (1 + {{ growth }} * coalesce(shares.share, 0)) as projected_utilization
    from workloads
    cross join resources
    left join shares
        on shares.system_name = resources.system_name
        and shares.workload = workloads.workload
)

select
    workload,
    {{ growth }} * 100 as growth_pct,
    resource_type,
    system_name,
    resource_name,
    shift,
    servers,
    threshold_pct,
    round(100 * share, 4) as workload_share_pct,
    round(100 * utilization, 4) as current_utilization_pct,
    round(100 * projected_utilization, 4) as projected_utilization_pct,
    round({{ mmc_response_factor('servers', 'utilization') }}, 4) as response_factor,
    round({{ mmc_response_factor('servers', 'projected_utilization') }}, 4) as projected_response_factor,
    case
        when projected_utilization >= 1 then 'saturated: demand exceeds capacity, no steady state'
        when projected_utilization * 100 > threshold_pct then 'above the threshold'
        when projected_utilization > 0.8 then 'critical: less than 20 % of capacity available'
        when projected_utilization > 0.7 then 'warning: less than 30 % of capacity available'
        else 'within capacity'
    end as assessment
from scenarios
