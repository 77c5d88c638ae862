{#-
    The pieces the what-if reports share (rpt_capacity_whatif, rpt_capacity_whatif_workload,
    rpt_capacity_whatif_driver): the resources, their current peak and bounds of available capacity,
    the workloads' recent shares of their systems' CPU, and the columns of a projection (graded by
    macros/capacity_grades.sql).
-#}

{#- Each resource's current peak utilization (a fraction) from fct_capacity_forecast, of the listed
    resource types (all when none): the resources whose peak is a utilization (unit pct), as a growth
    scales a utilization through a queue, not a response time. -#}
{% macro whatif_resources(resource_types=none) -%}
    select
        resource_type,
        system_name,
        resource_name,
        shift,
        cast(servers as integer) as servers,
        threshold_pct,
        threshold_upper_pct,
        current_peak_pct / 100 as utilization
    from {{ ref('fct_capacity_forecast') }}
    where current_peak_pct is not null
        and unit = 'pct'
    {%- if resource_types %}
        and resource_type in ('{{ resource_types | join("', '") }}')
    {%- endif %}
{%- endmacro %}

{#- Each resource's current peak beside its system's baseline check (rpt_capacity_baseline_summary):
    baseline_validated is false, and baseline_note says why, for a system whose baseline model is off by
    more than 5 % or that has none (Evans, seed 001 L1817: a model is validated before it projects). -#}
{% macro whatif_validated_resources(resource_types=none) -%}
    select
        r.*,
        coalesce(b.baseline_validated, false) as baseline_validated,
        coalesce(b.baseline_note, 'no baseline model: no workload measured in the baseline hours') as baseline_note
    from ({{ whatif_resources(resource_types) }}) as r
    left join {{ ref('rpt_capacity_baseline_summary') }} as b
        on b.system_name = r.system_name
{%- endmacro %}

{#- Four CTEs over the last `current_days` days of each system's measurements:
    `recent` (fct_workload_hourly) and `workload_shares`: per system and workload, its transactions per
    measured day (the days the system has hours in that window, so a system measured 3 days of a
    7-day window is not diluted) and its share of the system's processor time (all its processors);
    `recent_on_cpu` (int_workload__cpu_hourly) and `resource_shares`: a workload's share of each
    processor it runs on (resource_type 'cpu', named as fct_capacity_forecast names it) and of the
    system's processors together (resource_type 'processor_pool', resource_name NULL), for joining
    with whatif_share_of. A share is of the workloads' own time there: the busy time no process owns
    grows with them, as the baseline model carries it (rpt_capacity_baseline_validation). A workload loads only the processors its work runs in (Evans, seed 001
    L1811: "only among servers used by that workload"): on NonStop those of its processes, on z/OS
    every processor of the type it runs on (int_workload__cpu_hourly). -#}
{% macro recent_workload_shares(current_days) -%}
recent as (
    select w.system_name, w.workload, w.transactions, cast(w.hour_start as date) as measured_date
    from {{ ref('fct_workload_hourly') }} as w
    {{ within_last_days(ref('fct_workload_hourly'), 'w', current_days) }}
),

recent_on_cpu as (
    select w.system_name, w.cpu_num, w.workload, w.cpu_s
    from {{ ref('int_workload__cpu_hourly') }} as w
    {{ within_last_days(ref('int_workload__cpu_hourly'), 'w', current_days) }}
),

resource_shares as (
    select
        system_name,
        'cpu' as resource_type,
        'CPU ' || lpad(cast(cpu_num as string), 2, '0') as resource_name,
        workload,
        sum(cpu_s) / nullif(sum(sum(cpu_s)) over (partition by system_name, cpu_num), 0) as share
    from recent_on_cpu
    group by system_name, cpu_num, workload
    union all
    select
        system_name,
        'processor_pool' as resource_type,
        cast(null as string) as resource_name,
        workload,
        sum(cpu_s) / nullif(sum(sum(cpu_s)) over (partition by system_name), 0) as share
    from recent_on_cpu
    group by system_name, workload
),

workload_shares as (
    select
        recent.system_name,
        recent.workload,
        max(pool.share) as share,
        sum(recent.transactions) / max(measured.days) as transactions_per_day
    from recent
    inner join (
        select system_name, count(distinct measured_date) as days
        from recent
        group by system_name
    ) as measured
        on measured.system_name = recent.system_name
    left join resource_shares as pool
        on pool.resource_type = 'processor_pool'
        and pool.system_name = recent.system_name
        and pool.workload = recent.workload
    group by recent.system_name, recent.workload
)
{%- endmacro %}

{#- The join that keeps the rows of `alias` (hours of `relation`) in the last `current_days` days of its
    system's measurements. -#}
{% macro within_last_days(relation, alias, current_days) -%}
    inner join (
        select system_name, max(hour_start) as last_hour
        from {{ relation }}
        group by system_name
    ) as latest
        on latest.system_name = {{ alias }}.system_name
        and {{ alias }}.hour_start > {{ dbt.dateadd('day', -current_days, 'latest.last_hour') }}
{%- endmacro %}

{#- The join of `shares` (a resource_shares) to the resource `resources` for the workload `workload`:
    a processor by its name, the processor pool by its system. -#}
{% macro whatif_share_of(shares, resources, workload) -%}
        {{ shares }}.system_name = {{ resources }}.system_name
        and {{ shares }}.resource_type = {{ resources }}.resource_type
        and ({{ shares }}.resource_type = 'processor_pool' or {{ shares }}.resource_name = {{ resources }}.resource_name)
        and {{ shares }}.workload = {{ workload }}
{%- endmacro %}

{#- The columns every processor what-if reports, from `utilization` and `projected_utilization`
    (fractions) beside the resource columns of whatif_resources. -#}
{% macro whatif_projection_columns() -%}
    resource_type,
    system_name,
    resource_name,
    shift,
    servers,
    threshold_pct,
    threshold_upper_pct,
    round(100 * utilization, 4) as current_utilization_pct,
    round(100 * projected_utilization, 4) as projected_utilization_pct,
    round({{ mmc_response_factor('servers', 'utilization') }}, 4) as response_factor,
    round({{ mmc_response_factor('servers', 'projected_utilization') }}, 4) as projected_response_factor,
    {{ capacity_grade('100 * projected_utilization', 'threshold_pct', 'threshold_upper_pct') }} as assessment
{%- endmacro %}
