-- Every day from calendar_start to calendar_end (dbt vars, default 2020 to 2035) with its type:
-- `holiday` or `workday` where the seed calendar says so, else `weekend` on Saturday and Sunday and
-- `workday` Monday to Friday; the last workday of each month is `month-end` (month-end processing
-- makes its own peak). iso_week_start is the Monday of the day's ISO week, the key of weekly rows.
{%- set first_day = var('calendar_start', '2020-01-01') %}
{%- set n_days = (modules.datetime.date.fromisoformat(var('calendar_end', '2036-01-01'))
                 - modules.datetime.date.fromisoformat(first_day)).days %}
-- the spine from a range of day numbers: dbt's date_spine queries the warehouse while compiling
with days as (
    select {{ dbt.dateadd('day', 'n', "cast('" ~ first_day ~ "' as date)") }} as date_day
    from ({{ integer_range(0, n_days, 'n') }}) as steps
),

typed as (
    select
        cast(days.date_day as date) as calendar_date,
        cast({{ dbt.date_trunc('week', 'days.date_day') }} as date) as iso_week_start,
        cast({{ dbt.date_trunc('month', 'days.date_day') }} as date) as month_start,
        coalesce(
            site.day_type,
            case when {{ iso_weekday('days.date_day') }} >= 6 then 'weekend' else 'workday' end
        ) as base_day_type,
        site.description
    from days
    left join {{ ref('calendar') }} as site
        on site.calendar_date = cast(days.date_day as date)
)

select
    calendar_date,
    iso_week_start,
    month_start,
    case
        when base_day_type = 'workday'
            and calendar_date = max(case when base_day_type = 'workday' then calendar_date end)
                over (partition by month_start)
            then 'month-end'
        else base_day_type
    end as day_type,
    base_day_type = 'workday' as is_workday,
    description
from typed
