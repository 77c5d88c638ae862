-- Evans (Glasstone 1986, L1727): "the three or four applications that account for 80% to 90% of the
-- workload become apparent" from the workload characterization. Per system and day, the share of its
-- application workloads' CPU (component `application` in workload_definitions; `unassigned` and system
-- work are not applications) that the four largest hold; the rule 001-b6.4-3 of the rules catalogue
-- (entity `workload_mix`) fires when they hold less than its limit: a capacity model of three or four
-- applications would then leave out more of the workload than the document allows for.
with application_days as (
    select
        daily.platform,
        daily.system_name,
        daily.shift_date,
        daily.cpu_s,
        row_number() over (
            partition by daily.platform, daily.system_name, daily.shift_date order by daily.cpu_s desc, daily.workload
        ) as cpu_rank
    from {{ ref('fct_workload_daily') }} as daily
    where exists (
        select 1
        from {{ ref('workload_definitions') }} as definitions
        where definitions.component = 'application'
            and definitions.platform = daily.platform
            and definitions.workload = daily.workload
    )
),

days as (
    select platform, system_name, shift_date as report_date, count(*) as application_count,
        100 * sum(case when cpu_rank <= 4 then cpu_s else 0 end) / nullif(sum(cpu_s), 0) as top_4_cpu_share_pct
    from application_days
    group by platform, system_name, shift_date
),

measured as (
    {{ unpivot_metrics('days', ['platform', 'system_name', 'report_date', 'application_count'],
                       ['top_4_cpu_share_pct']) }}
)

{{ rule_evaluations('measured', 'workload_mix') }}
