-- When each resource will cross its threshold at the current growth: seed 001's "regression analysis
-- and extrapolation" (Evans, L1737) on each resource's daily (or shift) peak over the last
-- capacity_history_days days (dbt var, default 730: "the last two years or so"), extended "within
-- confidence limits". The least-squares line through the peaks gives the growth per day; the
-- projected crossing date is where the line reaches the threshold of reference_capacity_thresholds
-- (the lower bound of available capacity of the resource's type and, for processors, of its processor
-- type as MEASURE records it: 85 % for a NonStop TXP, 95 % for a VLX, seed 001 L3194; else 70 %, L1733),
-- and the band is where the lines with the slope's 95 % confidence limits reach it (both pivot on the
-- mean of the history). Only workdays count (int_calendar__day: Monday to Friday less the holidays of
-- the seed calendar, plus the weekend days it says were worked) unless capacity_working_days_only
-- is false: weekends and holidays carry another workload, and the study analyses "the typical workload level"
-- (L1795). A resource with fewer than capacity_min_history_days peaks says so instead of guessing;
-- one whose slope is not significantly above zero reports no crossing.
-- A resource whose peak is not a utilization is judged by a threshold rule of the rules catalogue instead
-- (rule_resources below): a DASD volume's peak response time (dasd_response, ms) by DASD-T1's limit,
-- the system's own row of the rule where it has one (effective_thresholds). Its columns named _pct then
-- hold ms, as `unit` says; the what-ifs, which scale a utilization through a queue, leave it out.
{%- set history_days = var('capacity_history_days', 730) %}
{%- set min_days = var('capacity_min_history_days', 14) %}
{%- set horizon_days = var('capacity_forecast_horizon_days', 1095) %}
{%- set current_days = var('capacity_current_days', 7) %}
{%- set working_days_only = var('capacity_working_days_only', true) %}
{#- resource_type -> the rule's entity and metric, and the unit of the peaks it compares -#}
{%- set rule_resources = {'dasd_response': {'entity': 'dasd', 'metric': 'response_ms', 'unit': 'ms'}} %}
{%- if min_days < 3 %}{{ exceptions.raise_compiler_error("capacity_min_history_days must be at least 3: a confidence band needs two degrees of freedom") }}{% endif %}

{#- Student t 97.5 % quantile by the Cornish-Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5),
    within 0.002 of the exact value from df = 5 on; DF stands for the degrees of freedom. -#}
{%- set t975 = "(1.959964
        + (power(1.959964, 3) + 1.959964) / (4 * DF)
        + (5 * power(1.959964, 5) + 16 * power(1.959964, 3) + 3 * 1.959964) / (96 * power(DF, 2))
        + (3 * power(1.959964, 7) + 19 * power(1.959964, 5) + 17 * power(1.959964, 3) - 15 * 1.959964) / (384 * power(DF, 3))
        + (79 * power(1.959964, 9) + 776 * power(1.959964, 7) + 1482 * power(1.959964, 5) - 1920 * power(1.959964, 3) - 945 * 1.959964)
            / (92160 * power(DF, 4)))" %}

with peaks as (
    select * from {{ ref('fct_capacity_daily_peak') }}
),

latest as (
    select resource_type, system_name, resource_name, shift, max(peak_date) as last_date
    from peaks
    group by resource_type, system_name, resource_name, shift
),

history as (
    select
        peaks.*,
        latest.last_date,
        -- days before the last peak (0 on the last day), so the intercept is the trend's value today
        cast({{ dbt.datediff('latest.last_date', 'peaks.peak_date', 'day') }} as double) as x
    from peaks
    inner join latest
        on latest.resource_type = peaks.resource_type
        and latest.system_name = peaks.system_name
        and latest.resource_name = peaks.resource_name
        and latest.shift is not distinct from peaks.shift
    where peaks.peak_date > latest.last_date - {{ history_days }}
        {%- if working_days_only %}
        and peaks.peak_date in (select calendar_date from {{ ref('int_calendar__day') }} where is_workday)
        {%- endif %}
),

fit as (
    select
        resource_type,
        system_name,
        resource_name,
        shift,
        max(servers) as servers,
        -- the processor type of the last day: an upgraded processor is judged by its new type
        max_by(cpu_type, peak_date) as cpu_type,
        min(peak_date) as history_start,
        max(last_date) as history_end,
        count(*) as history_points,
        avg(peak_pct) filter (where x > -{{ current_days }}) as current_peak_pct,
        max(peak_pct) as max_peak_pct,
        avg(x) as x_mean,
        avg(peak_pct) as y_mean,
        regr_slope(peak_pct, x) as slope,
        regr_intercept(peak_pct, x) as intercept,
        regr_r2(peak_pct, x) as r2,
        regr_sxx(peak_pct, x) as sxx,
        regr_sxy(peak_pct, x) as sxy,
        regr_syy(peak_pct, x) as syy
    from history
    group by resource_type, system_name, resource_name, shift
),

rule_limits as (
    -- the lowest upper limit when several rules apply: the first one the trend reaches
    {%- for resource_type, rule in rule_resources.items() %}
    select
        '{{ resource_type }}' as resource_type,
        system_name,
        min(limit_value) as limit_value,
        min_by(rule_id, limit_value) as rule_id
    from ({{ effective_thresholds(rule.entity, 'fit') }}) as rules
    where metric = '{{ rule.metric }}'
        and operator in ('>', '>=')
    group by system_name
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

bands as (
    select
        fit.*,
        case fit.resource_type
            {%- for resource_type, rule in rule_resources.items() %}
            when '{{ resource_type }}' then '{{ rule.unit }}'
            {%- endfor %}
            else 'pct'
        end as unit,
        {{ capacity_threshold('cpu_type') }} as threshold_cpu_type,
        coalesce(rule_limits.limit_value, {{ capacity_threshold('capacity_lower_pct') }}) as threshold_pct,
        coalesce(rule_limits.limit_value, {{ capacity_threshold('capacity_upper_pct') }}) as threshold_upper_pct,
        coalesce('rule ' || rule_limits.rule_id,
            'seed ' || {{ capacity_threshold('document') }} || ' L' || cast({{ capacity_threshold('line_start') }} as string))
            as threshold_source,
        case when history_points > 2 and sxx > 0
            then sqrt(greatest(syy - slope * sxy, 0) / (history_points - 2) / sxx)
        end as slope_se,
        case when history_points > 2 then {{ t975 | replace('DF', '(history_points - 2)') }} end as t_975
    from fit
    left join rule_limits
        on rule_limits.resource_type = fit.resource_type
        and rule_limits.system_name = fit.system_name
    {{ capacity_threshold_join('fit') }}
),

projected as (
    select
        *,
        slope - t_975 * slope_se as slope_low,
        slope + t_975 * slope_se as slope_high,
        -- days from the last peak to the crossing, kept within +/- 100 years so a nearly flat line
        -- still gives a date
        greatest(least(x_mean + (threshold_pct - y_mean) / nullif(slope, 0), 36500), -36500) as crossing_x,
        greatest(least(x_mean + (threshold_pct - y_mean) / nullif(slope + t_975 * slope_se, 0), 36500), -36500) as crossing_x_early,
        greatest(least(x_mean + (threshold_pct - y_mean) / nullif(slope - t_975 * slope_se, 0), 36500), -36500) as crossing_x_late
    from bands
)

select
    resource_type,
    system_name,
    resource_name,
    shift,
    unit,
    servers,
    cpu_type,
    history_start,
    history_end,
    history_points,
    threshold_cpu_type,
    threshold_pct,
    threshold_upper_pct,
    threshold_source,
    current_peak_pct,
    max_peak_pct,
    -- a resource with too little history gets no trend numbers, only the status saying so
    case when status <> 'too little history' then intercept end as trend_peak_pct,
    case when status <> 'too little history' then slope end as growth_pct_points_per_day,
    case when status <> 'too little history' then slope * 30 end as growth_pct_points_per_30_days,
    case when status <> 'too little history' then slope_low end as growth_low_pct_points_per_day,
    case when status <> 'too little history' then slope_high end as growth_high_pct_points_per_day,
    case when status <> 'too little history' then r2 end as r2,
    -- the point the band's lines pivot on (days before history_end, percent): forecast history projects from it
    case when status <> 'too little history' then x_mean end as history_mean_offset_days,
    case when status <> 'too little history' then y_mean end as history_mean_pct,
    case
        when status in ('crosses', 'beyond horizon') then history_end + cast(round(crossing_x) as integer)
        -- already above: the day the trend crossed, when it rises and crossed within the history
        when status = 'above threshold' and slope > 0 and history_end + cast(round(crossing_x) as integer) >= history_start
            then history_end + cast(round(crossing_x) as integer)
    end as crossing_date,
    case when status in ('crosses', 'beyond horizon')
        then history_end + cast(round(crossing_x_early) as integer)
    end as crossing_date_early,
    case when status in ('crosses', 'beyond horizon')
        then history_end + cast(round(crossing_x_late) as integer)
    end as crossing_date_late,
    status,
    case status
        when 'too little history' then
            cast(history_points as string) || ' day(s) of peaks since ' || cast(history_start as string)
            || '; a trend needs at least {{ min_days }}'
        when 'no threshold' then 'no threshold for ' || resource_type || case resource_type
            {%- for resource_type, rule in rule_resources.items() %}
            when '{{ resource_type }}' then ' in the rules catalogue ({{ rule.entity }} {{ rule.metric }})'
            {%- endfor %}
            else ' in reference_capacity_thresholds' end
        when 'above threshold' then 'the trend is already at ' || cast(round(intercept, 1) as string) || unit_text
            || ', above the ' || cast(threshold_pct as string) || unit_text || ' threshold'
            || case when history_end + cast(round(coalesce(crossing_x, -1e6)) as integer) < history_start
                then ' (it was above when the history starts)' else '' end
        when 'no significant growth' then 'growth ' || cast(round(slope * 30, 2) as string)
            || ' points per 30 days; its 95 % interval includes zero or is negative: no crossing projected'
        when 'beyond horizon' then 'crossing projected after the ' || cast({{ horizon_days }} as string) || '-day horizon'
        else 'crossing projected at ' || cast(round(slope * 30, 2) as string) || ' points per 30 days'
    end as status_detail
from (
    select
        *,
        case when unit = 'pct' then ' %' else ' ' || unit end as unit_text,
        case
            when history_points < {{ min_days }} then 'too little history'
            when threshold_pct is null then 'no threshold'
            when intercept >= threshold_pct then 'above threshold'
            when slope_low is null or slope_low <= 0 then 'no significant growth'
            when crossing_x > {{ horizon_days }} then 'beyond horizon'
            else 'crosses'
        end as status
    from projected
) as classified
