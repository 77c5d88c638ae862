-- Glasstone 1986's processor rules on each system's shifts (fct_cpu_shift, every processor's hours of
-- the shift averaged), one row per rule evaluated on the processors of one type of a system in a shift,
-- fired or not (a z/OS image's zIIPs are not balanced against its CPs). The limits are the `system_cpu`
-- rows of the rules catalogue (the model thresholds):
--   busy_pct_avg                 the system's processors' average busy: "systems are typically run at
--                                much lower than 100% CPU utilization" to hold 1 s for 95 % of ET1
--                                transactions, the TXP "averaged 70%" (001-aF34, L513, L565)
--   busy_pct_spread_across_cpus  the busiest processor's average busy less the least busy one's: in the
--                                disc tests "processor utilization was balanced to within 4%" (001-b6.4-15,
--                                L2826)
with shifts as (
    select
        system_name,
        shift_date,
        shift,
        cpu_type,
        count(*) as cpu_count,
        avg(busy_pct_avg) as busy_pct_avg,
        max(busy_pct_avg) - min(busy_pct_avg) as busy_pct_spread_across_cpus
    from {{ ref('fct_cpu_shift') }}
    where busy_pct_avg is not null
    group by system_name, shift_date, shift, cpu_type
),

measured as (
    {{ unpivot_metrics('shifts', ['system_name', 'shift_date', 'shift', 'cpu_type', 'cpu_count'],
                       ['busy_pct_avg', 'busy_pct_spread_across_cpus']) }}
)

{{ rule_evaluations('measured', 'system_cpu') }}
