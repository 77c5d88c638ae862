-- What-if by workload (issue: growth per workload, not uniform): each workload of fct_workload_hourly
-- grown by capacity_whatif_workload_growth (default +15 %), one workload at a time (all of them, or
-- those listed in capacity_whatif_workloads). A workload's growth moves only the processors it runs
-- on (Evans, seed 001 L1811: consumption is distributed "only among servers used by that workload"),
-- each in proportion to the workload's share of that processor's time over the last
-- capacity_current_days days (macros/whatif.sql recent_workload_shares):
--   a processor (cpu):          U' = U x (1 + growth x the workload's share of that processor)
--   the pool (processor_pool):  U' = U x (1 + growth x the workload's share of all the system's processors)
-- so on NonStop the processor a busy workload's processes run in saturates first, and on z/OS a
-- workload's CP time moves the CPs and its zIIP time the zIIPs. The response time follows by the
-- M/M/c model of rpt_capacity_whatif (macros/queueing.sql); rpt_capacity_whatif's uniform growth is
-- the case share = 1. The assessment grades the projection against the resource's available capacity
-- (macros/capacity_grades.sql: 70-80 % busy for most processors, 85 % for a NonStop TXP, 95 % for a
-- VLX), not against response-time doubling (50 % busy for one server). baseline_validated says whether the system's baseline model reproduces its measured busy
-- within 5 % (rpt_capacity_baseline_summary); a what-if of a system where it does not is not trusted.
{%- set growth = var('capacity_whatif_workload_growth', 0.15) %}
{%- set chosen = var('capacity_whatif_workloads', []) %}
{%- set current_days = var('capacity_current_days', 7) %}

with resources as (
    {{ whatif_validated_resources(['cpu', 'processor_pool']) }}
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
    left join resource_shares as shares
        on {{ whatif_share_of('shares', 'resources', 'workloads.workload') }}
)

select
    workload,
    {{ growth }} * 100 as growth_pct,
    round(100 * share, 4) as workload_share_pct,
    {{ whatif_projection_columns() }},
    baseline_validated,
    baseline_note
from scenarios
