-- King 1986, Fig. 9 -> Fig. 1, the daily threshold report: one row per system, shift date, shift and
-- processor whose shift values cross any `cpu` rule of the thresholds seed, with the Fig. 1 columns,
-- one flag per Fig. 9 rule and rules_crossed (every crossed rule, in column order). Rules compare
-- the unrounded values. TIME OF DAY is the hour of the processor's MAX CPU BUSY in the shift (the
-- first such hour on a tie): Fig. 1 prints 11:00, 13:00, 14:00 ..., not a shift's start. DELT is
-- MAX - MIN over the shift's hours of the one processor, as Fig. 9 reads it from the Fig. 6 shift
-- records (one per processor; Fig. 8 condenses it per processor too). OS VERSION is the shift's own;
-- a day whose records name none (MEASCOM text) carries the system's last version measured on or
-- before the shift date, and says so (os_version_carried_forward, os_version_measured_on). Known gap:
-- a late file of an earlier day with another version changes later days only at a full refresh.
{%- set figure_9_metrics = ['qlen_max', 'qlen_spread_across_hours', 'swaps_per_s_max', 'busy_pct_max',
                            'busy_pct_spread_across_hours', 'ibusy_pct_max'] %}
{%- set keys = ['system_name', 'shift_date', 'shift', 'cpu_num'] %}
{{ config(materialized='incremental',
          unique_key=['system_name', 'shift_date'], meta={'touched_grain': 'shift_date'}) }}
with shifts as (
    {{ touched_rows(ref('fct_cpu_shift'), 'system_name', 'shift_date', 'shift_date') }}
),

rules as (
    {{ effective_thresholds('cpu', 'shifts') }}
),

busiest_hours as (
    select hours.system_name, hours.shift_date, hours.shift, hours.cpu_num, min(hours.hour_start) as hour_start
    from {{ ref('int_cpu__hourly') }} as hours
    inner join shifts
        on {{ same_values('shifts', 'hours', ['system_name', 'shift_date', 'shift', 'cpu_num']) }}
        and shifts.busy_pct_max = hours.busy_pct
    where {{ touched('hours.system_name', 'hours.shift_date', 'shift_date') }}
    group by hours.system_name, hours.shift_date, hours.shift, hours.cpu_num
),

-- the version each system's records last named on a day, and for each shift date the last such day
versions as (
    select system_name, shift_date as measured_on, max_by(os_version, first_hour_start) as os_version
    from {{ ref('fct_cpu_shift') }}
    where os_version is not null
    group by system_name, shift_date
),

last_versions as (
    select days.system_name, days.shift_date, max(versions.measured_on) as measured_on
    from (select distinct system_name, shift_date from shifts) as days
    inner join versions
        on versions.system_name = days.system_name
        and versions.measured_on <= days.shift_date
    group by days.system_name, days.shift_date
),

measures as (
    {{ unpivot_metrics('shifts', keys, cpu_shift_columns()) }}
),

evaluated as (
    select
        measures.*,
        {{ crosses('measures.metric_value', 'rules.operator', 'rules.limit_value') }} as crossed
    from measures
    inner join rules
        on rules.system_name = measures.system_name
        and rules.metric = measures.metric
),

violations as (
    select
        {{ keys | join(', ') }},
        {%- for metric in figure_9_metrics %}
        coalesce(bool_or(crossed) filter (where metric = '{{ metric }}'), false) as crossed_{{ metric }},
        {%- endfor %}
        {{ ordered_array_agg('metric', 'metric_order', 'crossed') }} as rules_crossed
    from evaluated
    group by {{ keys | join(', ') }}
    having bool_or(crossed)
)

select
    shifts.system_name,
    shifts.shift_date,
    shifts.shift,
    shifts.shift_name,
    coalesce(shifts.os_version, versions.os_version) as os_version,
    shifts.os_version is null and versions.os_version is not null as os_version_carried_forward,
    case when shifts.os_version is not null then shifts.shift_date else versions.measured_on end
        as os_version_measured_on,
    shifts.cpu_num,
    {{ time_of_day('busiest_hours.hour_start') }} as time_of_day,
    shifts.qlen_max,
    shifts.qlen_spread_across_hours,
    shifts.swaps_per_s_max,
    shifts.busy_pct_max,
    shifts.busy_pct_spread_across_hours,
    shifts.ibusy_pct_max,
    shifts.qlen_avg,
    shifts.swaps_per_s_avg,
    shifts.busy_pct_avg,
    shifts.ibusy_pct_avg,
    shifts.n_hours,
    {%- for metric in figure_9_metrics %}
    violations.crossed_{{ metric }},
    {%- endfor %}
    violations.rules_crossed
from violations
inner join shifts using ({{ keys | join(', ') }})
left join busiest_hours using ({{ keys | join(', ') }})
left join last_versions
    on last_versions.system_name = shifts.system_name
    and last_versions.shift_date = shifts.shift_date
left join versions
    on versions.system_name = last_versions.system_name
    and versions.measured_on = last_versions.measured_on
