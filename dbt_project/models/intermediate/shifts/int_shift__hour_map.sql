-- The shift each clock hour belongs to, per system_name of the shifts seed (`*` = every other system).
-- Hour h (h:00 to h+1:00) belongs to a shift when it lies wholly inside it: begin_hour <= h and
-- h + 1 <= end_hour, so 23:00-24:00 belongs to the shift that ends at 24 (King 1986, Fig. 6:
-- From^time > Begin^shift - 1 and End^time < End^shift + 1). A shift with begin_hour > end_hour
-- wraps past midnight; its hours after midnight belong to the shift that began the day before,
-- because a shift's date is the date of its first hour.
with shifts as (
    select * from {{ ref('shifts') }}
),

hours as (
    {%- for hour in range(24) %}
    select {{ hour }} as hour_of_day{% if not loop.last %} union all{% endif %}
    {%- endfor %}
)

select
    shifts.system_name,
    hours.hour_of_day,
    shifts.shift,
    shifts.shift_name,
    shifts.begin_hour,
    shifts.end_hour,
    case
        when shifts.begin_hour > shifts.end_hour and hours.hour_of_day < shifts.end_hour then -1
        else 0
    end as shift_day_offset
from shifts
inner join hours
    on (
        shifts.begin_hour < shifts.end_hour
        and hours.hour_of_day >= shifts.begin_hour
        and hours.hour_of_day + 1 <= shifts.end_hour
    )
    or (
        shifts.begin_hour > shifts.end_hour
        and (hours.hour_of_day >= shifts.begin_hour or hours.hour_of_day + 1 <= shifts.end_hour)
    )
