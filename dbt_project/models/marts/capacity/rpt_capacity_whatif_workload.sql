-- What-if by workload (issue: growth per workload, not uniform): each workload of fct_workload_hourly
-- grown by capacity_whatif_workload_growth (default +15 %), one workload at a time (all of them, or
-- those listed in capacity_whatif_workloads). A workload's growth moves only the processors of the
-- systems it runs on, in proportion to its share of their CPU over the last capacity_current_days
-- days:   U' = U x (1 + growth x share)
-- and the response time follows by the M/M/c model of rpt_capacity_whatif (macros/queueing.sql);
-- rpt_capacity_whatif's uniform growth is the case share = 1. The assessment grades the projection
-- against the resource's available capacity (macros/capacity_grades.sql: 70-80 % busy for most
-- processors, 85 % for a NonStop TXP, 95 % for a VLX), not against response-time doubling (50 % busy
-- for one server). zIIPs are scaled with the workload's CP share.
{%- set growth = var('capacity_whatif_workload_growth', 0.15) %}
{%- set chosen = var('capacity_whatif_workloads', []) %}
{%- set current_days = var('capacity_current_days', 7) %}

with resources as (
    {{ whatif_resources(['cpu', 'processor_pool']) }}
),

{{ recent_workload_shares(current_days) }},

workloads as (
    select distinct workload
    from workload_shares
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
    left join workload_shares as shares
        on shares.system_name = resources.system_name
        and shares.workload = workloads.workload
)

select
    workload,
    {{ growth }} * 100 as growth_pct,
    round(100 * share, 4) as workload_share_pct,
    {{ whatif_projection_columns() }}
from scenarios
