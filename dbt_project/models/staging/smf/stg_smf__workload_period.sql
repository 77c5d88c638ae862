-- SMF 72.3, one row per WLM service or report class period and RMF interval (first copy ingested).
-- Service units become seconds as RMF's workload activity report does (docs/smf72_format.md):
-- R723MADJ sixteenths of a microsecond per service unit, the coefficients x 10,000, zIIP service
-- normalized into R723CCPU by R723NFFS / 256. interval_start_utc by SMF72LGO: copies are told by it, as a
-- fall-back day's repeated local hour holds two RMF intervals of each local start.
with source as (
    {{ rmf_first_copy('smf72_workload_period', ['class_name', 'class_flags', 'period_number']) }}
),

seconds as (
    select
        *,
        cast(cpu_adjustment as double) / 16e6 as s_per_service_unit,
        cast(cpu_coefficient_e4 as double) / 1e4 as cpu_coefficient,
        cast(srb_coefficient_e4 as double) / 1e4 as srb_coefficient
    from source
)

select
    {{ rmf_interval_columns() }},
    interval_start_utc,
    policy_name,
    workload_name,
    class_name,
    class_description,
    -- R723MSCF X'80': a report class regroups work its service classes already count
    class_flags >= 128 as is_report_class,
    cast(period_number as integer) as period_number,
    cast(importance as integer) as importance,
    case
        when goal_flags >= 128 then 'percentile response time'
        when goal_flags >= 64 then 'average response time'
        when goal_flags >= 32 then 'velocity'
        when goal_flags >= 16 then 'discretionary'
        when goal_flags >= 8 then 'system'
    end as goal_type,
    -- R723CRTF: the unit of a response time goal
    case
        when goal_flags >= 64 and goal_time_unit_flags >= 128 then goal_value / 1e3
        when goal_flags >= 64 and goal_time_unit_flags >= 64 then cast(goal_value as double)
        when goal_flags >= 64 and goal_time_unit_flags >= 32 then goal_value * 60.0
        when goal_flags >= 64 and goal_time_unit_flags >= 16 then goal_value * 3600.0
    end as goal_response_s,
    case when goal_flags >= 32 and goal_flags < 64 then cast(goal_value as integer) end as goal_velocity,
    cast(goal_percentile as integer) as goal_percentile,
    service_units,
    cpu_service_units,
    srb_service_units,
    io_service_units,
    ziip_service_units,
    (cpu_service_units / cpu_coefficient + srb_service_units / srb_coefficient
        - ziip_service_units / cpu_coefficient * ziip_normalization / 256.0) * s_per_service_unit
        + (coalesce(rct_us, 0) + coalesce(io_interrupt_us, 0) + coalesce(hiperspace_us, 0)) / 1e6 as cp_cpu_s,
    ziip_service_units / cpu_coefficient * s_per_service_unit as ziip_s,
    cast(transactions_ended as bigint) as transactions,
    cast(transactions_abended as bigint) as transactions_abended,
    elapsed_1024us * 1024 / 1e6 as elapsed_s,
    execution_1024us * 1024 / 1e6 as execution_s,
    cast(dasd_io_count as bigint) as dasd_io_count,
    cast(cpu_using_samples as bigint) as cpu_using_samples,
    cast(using_samples as bigint) as using_samples,
    {%- for bucket in rt_buckets() %}
    cast({{ bucket }} as bigint) as {{ bucket }},
    {%- endfor %}
    cast(delay_samples as bigint) as delay_samples,
    record_time
from seconds
