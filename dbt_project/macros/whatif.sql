{#-
    The pieces the what-if reports share (rpt_capacity_whatif, rpt_capacity_whatif_workload,
    rpt_capacity_whatif_driver): the resources, their current peak and bounds of available capacity,
    the workloads' recent shares of their systems' CPU, and the columns of a projection (graded by
    macros/capacity_grades.sql).
-#}

{#- Each resource's current peak utilization (a fraction) from fct_capacity_forecast, of the listed
    resource types (all when none). -#}
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
    {%- if resource_types %}
        and resource_type in ('{{ resource_types | join("', '") }}')
    {%- endif %}
{%- endmacro %}

{#- Two CTEs, `recent` and `workload_shares`: per system and workload over the last `current_days` days
    of the system's measurements (fct_workload_hourly), its share of the system's CPU and its
    transactions per measured day (the days the system has hours in that window, so a system measured
    3 days of a 7-day window is not diluted). -#}
{% macro recent_workload_shares(current_days) -%}
recent as (
    select w.system_name, w.workload, w.cpu_s, w.transactions, cast(w.hour_start as date) as measured_date
    from {{ ref('fct_workload_hourly') }} as w
    inner join (
        select system_name, max(hour_start) as last_hour
        from {{ ref('fct_workload_hourly') }}
        group by system_name
    ) as latest
        on latest.system_name = w.system_name
        and w.hour_start > {{ dbt.dateadd('day', -current_days, 'latest.last_hour') }}
),

workload_shares as (
    select
        recent.system_name,
        recent.workload,
        sum(recent.cpu_s) / sum(sum(recent.cpu_s)) over (partition by recent.system_name) as share,
        sum(recent.transactions) / max(measured.days) as transactions_per_day
    from recent
    inner join (
        select system_name, count(distinct measured_date) as days
        from recent
        group by system_name
    ) as measured
        on measured.system_name = recent.system_name
    group by recent.system_name, recent.workload
)
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
